import Foundation

/// Makes a slightly broken XML document well-formed, the way a forgiving reader takes it
/// (feedparser's loose parser, a browser): only for documents the strict parse refused.
///
/// - A `&` that starts no reference becomes `&amp;`; so does a reference to an entity that
///   is neither XML's, nor declared by the document, nor an HTML name (it stays as text).
/// - A `<` that starts no markup becomes `&lt;`; so does one inside an attribute value.
/// - An end tag closes the elements left open inside the element it names; an end tag that
///   names no open element is dropped; whatever is open at the end is closed there, the
///   root last; an `<item>` or `<entry>` inside another closes it first.
/// - Attribute values without quotes get them, attributes without values (`<x checked>`)
///   get their name, repeated attributes are dropped.
/// - A C0 control XML cannot hold (a raw byte, or a reference such as `&#27;`), in text,
///   an attribute value or a CDATA section, becomes a reference to its stand-in
///   (`TextSanitizer.controlStandIns`): libxml2 would drop an ESC alone and leave the rest
///   of its escape sequence (`[31m`) as text, where the sanitiser takes the whole sequence.
///
/// Comments, CDATA sections, processing instructions and the DOCTYPE (entity declarations
/// included) pass unchanged: the repaired document is parsed with the same options, so the
/// repair changes nothing about what entities may do. Line breaks are kept, so lines in
/// messages stay the document's. Works on bytes, for encodings where `<`, `>`, `&` and
/// quotes are single ASCII bytes (not UTF-16 or ISO-2022: `isRepairable`).
struct XMLRepair {
    private let input: [UInt8]
    private var index = 0
    private var out: [UInt8] = []
    private var open: [[UInt8]] = []
    private var declared: Set<[UInt8]> = []

    /// The repaired document.
    static func repaired(_ data: Data) -> Data {
        var repair = XMLRepair(input: Array(data))
        repair.run()
        return Data(repair.out)
    }

    /// True when the document's encoding keeps markup in single ASCII bytes.
    static func isRepairable(_ data: Data) -> Bool {
        let head = Array(data.prefix(512))
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0, 0])
            || head.starts(with: [0x00, 0x3C]) || head.starts(with: [0x3C, 0x00])
        {
            return false
        }
        guard let declared = XMLFeedParser.declaredEncoding(head) else { return true }
        return
            !(declared.hasPrefix("utf-16") || declared.hasPrefix("utf-32") || declared.hasPrefix("ucs")
            || declared.hasPrefix("utf-7") || declared.contains("2022") || declared.contains("ebcdic"))
    }

    private init(input: [UInt8]) {
        self.input = input
        out.reserveCapacity(input.count + input.count / 16)
    }

    private static let itemNames: Set<[UInt8]> = [Array("item".utf8), Array("entry".utf8)]
    private static let xmlEntities: Set<[UInt8]> = ["lt", "gt", "amp", "quot", "apos"].map { Array($0.utf8) }
        .reduce(into: []) { $0.insert($1) }

    private mutating func run() {
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "<") {
                markup()
            } else if byte == UInt8(ascii: "&") {
                reference()
            } else {
                append(byte)
                index += 1
            }
        }
        // What is still open closes at the end, the root last.
        while let name = open.popLast() { endTag(name) }
    }

    // MARK: Markup

    private func starts(with text: String, at position: Int) -> Bool {
        input[position...].starts(with: text.utf8)
    }

    private mutating func markup() {
        if starts(with: "<!--", at: index) {
            copy(through: "-->")
        } else if starts(with: "<![CDATA[", at: index) {
            cdata()
        } else if starts(with: "<!DOCTYPE", at: index) {
            doctype()
        } else if starts(with: "<?", at: index) {
            copy(through: "?>")
        } else if index + 1 < input.count, input[index + 1] == UInt8(ascii: "/"),
            index + 2 < input.count, Self.isNameStart(input[index + 2])
        {
            closingTag()
        } else if index + 1 < input.count, Self.isNameStart(input[index + 1]) {
            openingTag()
        } else {
            out.append(contentsOf: "&lt;".utf8)
            index += 1
        }
    }

    /// Copies up to and including `terminator`; one never written is added.
    private mutating func copy(through terminator: String) {
        let end = Array(terminator.utf8)
        var cursor = index + 1
        while cursor < input.count, !input[cursor...].starts(with: end) { cursor += 1 }
        let stop = min(input.count, cursor + end.count)
        out.append(contentsOf: input[index..<stop])
        if cursor >= input.count { out.append(contentsOf: end) }
        index = stop
    }

    /// A CDATA section, where no reference is read: a control in it ends the section for
    /// the reference to its stand-in, and a new section goes on after it.
    private mutating func cdata() {
        let end = Array("]]>".utf8)
        var cursor = index + 9
        while cursor < input.count, !input[cursor...].starts(with: end) { cursor += 1 }
        let stop = min(input.count, cursor + end.count)
        for byte in input[index..<stop] {
            if Self.isForbiddenControl(byte) {
                out.append(contentsOf: "]]>".utf8)
                appendStandIn(for: UInt32(byte))
                out.append(contentsOf: "<![CDATA[".utf8)
            } else {
                out.append(byte)
            }
        }
        if cursor >= input.count { out.append(contentsOf: end) }
        index = stop
    }

    /// The DOCTYPE, copied whole: quoted strings and the internal subset (whose general
    /// entity names are noted) included.
    private mutating func doctype() {
        var cursor = index + 2
        var inSubset = false
        while cursor < input.count {
            let byte = input[cursor]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                cursor = (input[(cursor + 1)...].firstIndex(of: byte) ?? input.count - 1) + 1
                continue
            }
            if inSubset, input[cursor...].starts(with: "<!--".utf8) {
                while cursor < input.count, !input[cursor...].starts(with: "-->".utf8) { cursor += 1 }
                cursor += 3
                continue
            }
            if inSubset, input[cursor...].starts(with: "<!ENTITY".utf8) {
                var name = cursor + 8
                while name < input.count, XMLFeedText.isSpace(input[name]) { name += 1 }
                let start = name
                while name < input.count, Self.isNameByte(input[name]) { name += 1 }
                if name > start { declared.insert(Array(input[start..<name])) }
                cursor = name
                continue
            }
            if byte == UInt8(ascii: "[") { inSubset = true }
            if byte == UInt8(ascii: "]") { inSubset = false }
            cursor += 1
            if byte == UInt8(ascii: ">"), !inSubset { break }
        }
        let stop = min(cursor, input.count)
        out.append(contentsOf: input[index..<stop])
        index = stop
    }

    private mutating func name() -> [UInt8] {
        let start = index
        while index < input.count, Self.isNameByte(input[index]) { index += 1 }
        return Array(input[start..<index])
    }

    private mutating func skipSpace() {
        while index < input.count, XMLFeedText.isSpace(input[index]) { index += 1 }
    }

    private mutating func closingTag() {
        index += 2
        let written = name()
        // To the end of the tag (a broken one ends where the next begins).
        while index < input.count, input[index] != UInt8(ascii: ">"), input[index] != UInt8(ascii: "<") {
            index += 1
        }
        if index < input.count, input[index] == UInt8(ascii: ">") { index += 1 }
        let lowered = written.map(Self.lower)
        guard
            let position = open.lastIndex(of: written)
                ?? open.lastIndex(where: { $0.map(Self.lower) == lowered })
        else { return }  // closes nothing that is open: dropped
        // The root closes only at the end of the document, so that nothing after a stray
        // end tag of it is lost.
        let keep = max(position, 1)
        while open.count > keep { endTag(open.removeLast()) }
    }

    private mutating func endTag(_ name: [UInt8]) {
        out.append(contentsOf: "</".utf8)
        out.append(contentsOf: name)
        out.append(UInt8(ascii: ">"))
    }

    private mutating func openingTag() {
        index += 1
        let element = name()
        if Self.itemNames.contains(element), let position = open.lastIndex(of: element) {
            while open.count > position { endTag(open.removeLast()) }
        }
        out.append(UInt8(ascii: "<"))
        out.append(contentsOf: element)
        var seen: [[UInt8]] = []
        while true {
            skipSpace()
            guard index < input.count, input[index] != UInt8(ascii: "<") else {
                // A tag the document never ended ends here.
                out.append(UInt8(ascii: ">"))
                open.append(element)
                return
            }
            let byte = input[index]
            if byte == UInt8(ascii: ">") {
                index += 1
                out.append(byte)
                open.append(element)
                return
            }
            if byte == UInt8(ascii: "/"), index + 1 < input.count, input[index + 1] == UInt8(ascii: ">") {
                index += 2
                out.append(contentsOf: "/>".utf8)
                return
            }
            guard Self.isNameStart(byte) else {
                index += 1  // junk between attributes
                continue
            }
            let attribute = name()
            let isRepeated = seen.contains(attribute)
            seen.append(attribute)
            skipSpace()
            if !isRepeated {
                out.append(UInt8(ascii: " "))
                out.append(contentsOf: attribute)
                out.append(contentsOf: "=\"".utf8)
            }
            let start = out.count
            if index < input.count, input[index] == UInt8(ascii: "=") {
                index += 1
                skipSpace()
                attributeValue()
            } else {
                out.append(contentsOf: attribute)
            }
            if isRepeated { out.removeSubrange(start...) } else { out.append(UInt8(ascii: "\"")) }
        }
    }

    /// A quoted or unquoted value, written for double quotes.
    private mutating func attributeValue() {
        var quote: UInt8?
        if index < input.count, input[index] == UInt8(ascii: "\"") || input[index] == UInt8(ascii: "'") {
            // A quote not closed before the next tag: the value is unquoted after all.
            let mark = input[index]
            var cursor = index + 1
            while cursor < input.count, input[cursor] != mark {
                if input[cursor] == UInt8(ascii: "<"), cursor + 1 < input.count,
                    Self.isNameStart(input[cursor + 1]) || input[cursor + 1] == UInt8(ascii: "/")
                {
                    break
                }
                cursor += 1
            }
            if cursor < input.count, input[cursor] == mark {
                quote = mark
                index += 1
            }
        }
        while index < input.count {
            let byte = input[index]
            if let quote {
                if byte == quote {
                    index += 1
                    return
                }
            } else if XMLFeedText.isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "<")
                || (byte == UInt8(ascii: "/") && index + 1 < input.count
                    && input[index + 1] == UInt8(ascii: ">"))
            {
                return
            }
            switch byte {
            case UInt8(ascii: "&"): reference()
            case UInt8(ascii: "<"):
                out.append(contentsOf: "&lt;".utf8)
                index += 1
            case UInt8(ascii: "\""):
                out.append(contentsOf: "&quot;".utf8)
                index += 1
            default:
                append(byte)
                index += 1
            }
        }
    }

    // MARK: References

    /// A `&`: kept when it starts a reference the parser can resolve, else escaped.
    private mutating func reference() {
        var cursor = index + 1
        var isValid = false
        if cursor < input.count, input[cursor] == UInt8(ascii: "#") {
            cursor += 1
            let hex =
                cursor < input.count
                && (input[cursor] == UInt8(ascii: "x") || input[cursor] == UInt8(ascii: "X"))
            if hex { cursor += 1 }
            let start = cursor
            var value: UInt32 = 0
            while cursor < input.count, hex ? input[cursor].isHexDigit : input[cursor].isDigit {
                // Past U+10FFFF it is no character: only whether it is a control matters.
                value = min(value * (hex ? 16 : 10) + UInt32(Self.digitValue(input[cursor])), 0x11_0000)
                cursor += 1
            }
            isValid = cursor > start && cursor < input.count && input[cursor] == UInt8(ascii: ";")
            if isValid, value < 0x20, let control = UInt8(exactly: value), Self.isForbiddenControl(control) {
                appendStandIn(for: value)
                index = cursor + 1
                return
            }
        } else if cursor < input.count, Self.isNameStart(input[cursor]) {
            let start = cursor
            while cursor < input.count, Self.isNameByte(input[cursor]) { cursor += 1 }
            let name = Array(input[start..<cursor])
            isValid =
                cursor < input.count && input[cursor] == UInt8(ascii: ";")
                && (Self.xmlEntities.contains(name) || declared.contains(name)
                    || XMLFeedText.namedEntity(name) != nil)
        }
        out.append(contentsOf: isValid ? "&".utf8 : "&amp;".utf8)
        index += 1
    }

    // MARK: Controls

    /// A C0 control XML 1.0 cannot hold (all but tab, line feed and carriage return).
    private static func isForbiddenControl(_ byte: UInt8) -> Bool {
        byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D
    }

    /// A byte of text, a control as the reference to its stand-in.
    private mutating func append(_ byte: UInt8) {
        if Self.isForbiddenControl(byte) { appendStandIn(for: UInt32(byte)) } else { out.append(byte) }
    }

    /// `&#xFDEB;` for ESC: a reference, so it reads the same whatever the document's encoding.
    private mutating func appendStandIn(for control: UInt32) {
        let standIn = TextSanitizer.controlStandIns.lowerBound + control
        out.append(contentsOf: "&#x\(String(standIn, radix: 16, uppercase: true));".utf8)
    }

    // MARK: Bytes

    private static func digitValue(_ byte: UInt8) -> UInt8 {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x37
        default: byte - 0x57
        }
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || (0x41...0x5A).contains(byte)
            || (0x61...0x7A).contains(byte)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || (0x30...0x39).contains(byte)
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { (0x30...0x39).contains(self) }
    fileprivate var isHexDigit: Bool {
        isDigit || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
