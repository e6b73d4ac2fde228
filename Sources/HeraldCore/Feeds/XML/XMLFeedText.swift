import CLibXML2
import Foundation

/// Small text helpers for the XML feed parser: entities, whitespace, links, and a rough
/// HTML-to-text fallback.
enum XMLFeedText {
    /// Decodes `&#NN;`, `&#xHH;` and named HTML entities (HTML 4 names from libxml2's table,
    /// plus `&apos;`). Anything that is not a complete, known reference is kept as written.
    static func decodeEntities(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        appendDecodingEntities(Array(text.utf8)[...], to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `bytes` to `out`, decoding character and entity references.
    static func appendDecodingEntities(_ bytes: ArraySlice<UInt8>, to out: inout [UInt8]) {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "&"), let (scalar, next) = reference(in: bytes, at: index) {
                appendUTF8(scalar.value == 0xA0 ? " " : scalar, to: &out)
                index = next
            } else {
                out.append(byte)
                index += 1
            }
        }
    }

    static func appendUTF8(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        let value = scalar.value
        switch value {
        case 0..<0x80: out.append(UInt8(value))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | (value >> 6)))
            out.append(UInt8(0x80 | (value & 0x3F)))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | (value >> 12)))
            out.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (value & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (value >> 18)))
            out.append(UInt8(0x80 | ((value >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (value & 0x3F)))
        }
    }

    /// `TextSanitizer.multiLine` of UTF-8 text, skipping its scalar-by-scalar rebuild when a
    /// byte scan shows nothing but line feeds and tabs to worry about (the usual case).
    static func multiLine(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        var previous: UInt8 = 0
        let suspicious = bytes.contains { byte in
            defer { previous = byte }
            return (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte == 0x7F
                || byte == 0xC2 || byte == 0xD8 || byte == 0xE2  // C1 controls, bidi marks
                || (byte == 0xB7 && previous == 0xEF)  // the stand-ins of C0 controls (XMLRepair)
        }
        return suspicious ? TextSanitizer.multiLine(text) : text
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// `bytes` without leading and trailing ASCII white space.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
            let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return [] }
        return bytes[first...last]
    }

    /// `text` without leading and trailing ASCII white space (no Foundation round trip).
    static func trimmed(_ text: String) -> String {
        guard let first = text.utf8.first, let last = text.utf8.last,
            isSpace(first) || isSpace(last)
        else { return text }
        return String(decoding: trimmed(Array(text.utf8)[...]), as: UTF8.self)
    }

    /// `text.trimmingCharacters(in: .whitespaces)`, without Foundation when it starts and ends
    /// with visible ASCII (the usual attribute value).
    static func trimmedSpaces(_ text: String) -> String {
        if let first = text.utf8.first, let last = text.utf8.last, (0x21...0x7E).contains(first),
            (0x21...0x7E).contains(last)
        {
            return text
        }
        return text.trimmingCharacters(in: .whitespaces)
    }

    /// The reference starting at `start` (an `&`): its character and the index after its `;`.
    private static func reference(in bytes: ArraySlice<UInt8>, at start: Int) -> (Unicode.Scalar, Int)? {
        var index = start + 1
        let limit = min(bytes.endIndex, start + 34)
        var name: [UInt8] = []
        while index < limit, bytes[index] != UInt8(ascii: ";") {
            let byte = bytes[index]
            guard byte < 0x80, byte != UInt8(ascii: "&"), byte != UInt8(ascii: " ") else { return nil }
            name.append(byte)
            index += 1
        }
        guard index < limit, !name.isEmpty else { return nil }
        let value: UInt32?
        if name[0] == UInt8(ascii: "#") {
            let digits = String(decoding: name.dropFirst(), as: UTF8.self)
            if digits.first == "x" || digits.first == "X" {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits, radix: 10)
            }
        } else {
            value = namedEntity(name)
        }
        guard let value, value != 0, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, index + 1)
    }

    /// The code point of a named HTML entity, nil when libxml2 does not know the name.
    static func namedEntity(_ name: [UInt8]) -> UInt32? {
        if name == Array("apos".utf8) { return 0x27 }
        var cName = name
        cName.append(0)
        return cName.withUnsafeBufferPointer { buffer -> UInt32? in
            guard let description = htmlEntityLookup(buffer.baseAddress) else { return nil }
            return description.pointee.value
        }
    }

    /// One line: controls removed, every run of white space one space, trimmed.
    static func oneLine(_ text: String) -> String {
        isOneCleanLine(text.utf8) ? text : oneLineByCharacters(text)
    }

    /// `oneLine` Character by Character: the reference `isOneCleanLine` must agree with.
    static func oneLineByCharacters(_ text: String) -> String {
        TextSanitizer.singleLine(text)
            .split(whereSeparator: { $0.isWhitespace })
            .joined(separator: " ")
    }

    /// True when `oneLineByCharacters` would give the text back unchanged, by a scan of its
    /// bytes: no control, no bidi control, no white space but single ASCII spaces between
    /// words, and after a space only scalars from blocks without combining marks (a mark
    /// there would make the space part of a larger white-space Character). Titles and names in
    /// Latin, Greek, Cyrillic, Korean and Chinese scripts pass; anything unsure does not.
    static func isOneCleanLine(_ utf8: String.UTF8View) -> Bool {
        var previous: UInt8 = 0  // 0: the start
        var beforePrevious: UInt8 = 0
        var leadAfterSpace: UInt8 = 0  // a lead byte right after a space, until its next byte
        for byte in utf8 {
            switch byte {
            case 0x20: if previous == 0x20 || previous == 0 { return false }
            case 0x00..<0x20, 0x7F: return false
            case 0x80...:
                if previous == 0x20 {
                    switch byte {
                    case 0xC3...0xCB, 0xCE...0xD1, 0xE4...0xE9, 0xEB, 0xEC: break  // Latin, Greek, Cyrillic, CJK, Hangul
                    case 0xC2, 0xE2, 0xEA, 0xED: leadAfterSpace = byte
                    default: return false
                    }
                } else if leadAfterSpace != 0 {
                    switch (leadAfterSpace, byte) {
                    case (0xC2, 0xA1...0xBF), (0xE2, 0x80), (0xE2, 0x82), (0xE2, 0x84), (0xEA, 0xB0...0xBF),
                        (0xED, 0x80...0x9F):
                        leadAfterSpace = 0
                    default: return false
                    }
                }
                switch (beforePrevious, previous, byte) {
                case (_, 0xC2, 0x80...0xA0): return false  // C1 controls, U+0085, U+00A0
                case (_, 0xD8, 0x9C): return false  // U+061C
                case (0xE1, 0x9A, 0x80): return false  // U+1680
                // U+2000–200F (spaces, ZWSP, ZWNJ, ZWJ, bidi marks), U+2028–202F; U+205F,
                // U+2066–2069; U+3000
                case (0xE2, 0x80, 0x80...0x8F), (0xE2, 0x80, 0xA8...0xAF): return false
                case (0xE2, 0x81, 0x9F), (0xE2, 0x81, 0xA6...0xA9), (0xE3, 0x80, 0x80): return false
                case (0xEF, 0xB7, 0x90...0xAF): return false  // the stand-ins of C0 controls (XMLRepair)
                default: break
                }
            default: break
            }
            beforePrevious = previous
            previous = byte
        }
        return previous != 0x20
    }

    /// True when text holds something shaped like a tag (`<p>`, `</b>`, `<!-- -->`, `<br/>`),
    /// not merely a less-than sign ("a < b").
    static func holdsTags(_ text: String) -> Bool {
        var previous: UInt8 = 0
        var opened = false
        for byte in text.utf8 {
            if opened, byte == UInt8(ascii: ">") { return true }
            if previous == UInt8(ascii: "<") {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "/"), UInt8(ascii: "!"):
                    opened = true
                default: break
                }
            }
            previous = byte
        }
        return false
    }

    /// A title made from the start of a body: about 80 characters, cut at a word.
    static func titleFromText(_ text: String) -> String? {
        let line = oneLine(String(text.prefix(400)))
        guard !line.isEmpty else { return nil }
        guard line.count > 80 else { return line }
        let head = line.prefix(80)
        let cut = head.lastIndex(of: " ").map { head[..<$0] } ?? head
        return String(cut) + "…"
    }

    /// `reference` made absolute against `base` (RFC 3986, via libxml2); as written when it
    /// cannot be resolved.
    static func resolve(_ reference: String, against base: String?) -> String {
        let trimmed = trimmed(reference)
        guard let base, !base.isEmpty else { return trimmed }
        guard let built = xmlBuildURI(trimmed, base) else { return trimmed }
        defer { cx_free(built) }
        return String(cString: built)
    }

    /// A person as a name, as feedparser reads one: "jo@example.org (Jo Bloggs)", "Jo Bloggs
    /// <jo@example.org>" and "Jo Bloggs (mailto:jo@example.org)" are "Jo Bloggs"; an address
    /// alone, or text without one, stays as written.
    static func personName(_ text: String) -> String {
        let line = oneLine(text)
        guard line.utf8.contains(UInt8(ascii: "@")), let at = line.firstIndex(of: "@") else { return line }
        let stops: Set<Character> = [" ", "(", ")", "<", ">", ",", ";", ":", "\"", "[", "]"]
        var start = at
        while start > line.startIndex, !stops.contains(line[line.index(before: start)]) {
            start = line.index(before: start)
        }
        var end = line.index(after: at)
        while end < line.endIndex, !stops.contains(line[end]) { end = line.index(after: end) }
        let domain = line[line.index(after: at)..<end]
        guard start < at, domain.contains("."), !domain.hasPrefix("."), !domain.hasSuffix(".") else {
            return line
        }
        if line[..<start].hasSuffix("mailto:") { start = line.index(start, offsetBy: -7) }
        var name = (line[..<start] + line[end...])
            .replacingOccurrences(of: "()", with: "").replacingOccurrences(of: "<>", with: "")
            .trimmingCharacters(in: .whitespaces)
        if name.hasPrefix("(") { name.removeFirst() }
        if name.hasSuffix(")") { name.removeLast() }
        name = name.trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? line : name
    }

    /// The text whose base64 `encoded` is (white space ignored), nil when it is not base64 of
    /// UTF-8 text.
    static func base64Text(_ encoded: String) -> String? {
        guard let data = Data(base64Encoded: encoded, options: .ignoreUnknownCharacters) else { return nil }
        return String(validating: data, as: UTF8.self)
    }
}
