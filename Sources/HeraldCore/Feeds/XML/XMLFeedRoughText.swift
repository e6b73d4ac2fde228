import Foundation

extension XMLFeedParser {
    private static let blockTags: Set<String> = [
        "p", "div", "li", "ul", "ol", "dl", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6",
        "blockquote", "pre", "table", "tr", "section", "article", "header", "footer", "figure",
        "figcaption", "hr", "aside", "nav", "main", "details", "summary", "address",
    ]

    /// A crude HTML → text fallback: comments, scripts and styles dropped, tags stripped,
    /// entities decoded, white space collapsed, `<br>` a line break, block tags blank lines.
    /// (The real HTML → text processor lives elsewhere; keep this small.)
    static func roughText(fromHTML html: String) -> String {
        let bytes = Array(html.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var pendingSpace = false
        var index = 0
        func breakLine(_ count: Int) {
            pendingSpace = false
            var have = 0
            var i = out.count - 1
            while i >= 0, out[i] == 0x0A, have < count { have += 1; i -= 1 }
            guard !out.isEmpty else { return }
            for _ in have..<count { out.append(0x0A) }
        }
        func skip(past terminator: String) {
            let end = Array(terminator.utf8)
            while index < bytes.count {
                if bytes[index] == end[0], bytes.count - index >= end.count,
                    bytes[index..<index + end.count].elementsEqual(end, by: { lower($0) == $1 })
                {
                    index += end.count
                    return
                }
                index += 1
            }
        }
        // To the end of a tag: a ">" inside a quoted attribute value does not end it.
        func skipAttributes() {
            var quote: UInt8?
            var quoteStart = index
            var afterEquals = false
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if let open = quote {
                    if byte == open { quote = nil }
                } else if byte == UInt8(ascii: ">") {
                    return
                } else if afterEquals, byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                    quoteStart = index
                } else if byte == UInt8(ascii: "=") {
                    afterEquals = true
                    continue
                }
                if !XMLFeedText.isSpace(byte) { afterEquals = false }
            }
            // A quote never closed: the tag ends at the first ">" after all.
            if quote != nil {
                index = quoteStart
                skip(past: ">")
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") {
                if bytes[index...].starts(with: "<!--".utf8) {
                    skip(past: "-->")
                    continue
                }
                // A tag: read its name.
                var cursor = index + 1
                let closing = cursor < bytes.count && bytes[cursor] == UInt8(ascii: "/")
                if closing { cursor += 1 }
                var name: [UInt8] = []
                while cursor < bytes.count, isNameByte(bytes[cursor]) {
                    name.append(lower(bytes[cursor]))
                    cursor += 1
                }
                if name.isEmpty && !(cursor < bytes.count && bytes[cursor] == UInt8(ascii: "!"))
                    && !(cursor < bytes.count && bytes[cursor] == UInt8(ascii: "?"))
                {
                    // A lone "<" is text.
                    if pendingSpace { out.append(0x20); pendingSpace = false }
                    out.append(byte)
                    index += 1
                    continue
                }
                index = cursor
                skipAttributes()
                let tag = String(decoding: name, as: UTF8.self)
                if !closing && (tag == "script" || tag == "style") {
                    skip(past: "</" + tag)
                    skip(past: ">")
                } else if tag == "br" {
                    breakLine(1)
                } else if blockTags.contains(tag) {
                    breakLine(2)
                }
                continue
            }
            // White space, a no-break space (C2 A0) included, collapses to one space.
            let isNBSP = byte == 0xC2 && index + 1 < bytes.count && bytes[index + 1] == 0xA0
            if XMLFeedText.isSpace(byte) || isNBSP {
                if !out.isEmpty && out.last != 0x0A { pendingSpace = true }
                index += isNBSP ? 2 : 1
                continue
            }
            // A run of text up to the next tag or white space.
            var end = index
            while end < bytes.count, bytes[end] != UInt8(ascii: "<"), !XMLFeedText.isSpace(bytes[end]),
                !(bytes[end] == 0xC2 && end + 1 < bytes.count && bytes[end + 1] == 0xA0)
            {
                end += 1
            }
            if pendingSpace { out.append(0x20); pendingSpace = false }
            XMLFeedText.appendDecodingEntities(bytes[index..<end], to: &out)
            index = end
        }
        // Lines never start or end with a space here (spaces are only written before text).
        while out.last == 0x0A { out.removeLast() }
        return XMLFeedText.multiLine(out)
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte + 0x20 : byte
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}

extension XMLFeedText {
    /// The elements feedparser's sanitizer accepts, by which it tells HTML from text.
    static let htmlElements: Set<String> = [
        "a", "abbr", "acronym", "address", "area", "article", "aside", "audio", "b", "big", "blockquote",
        "br", "button", "canvas", "caption", "center", "cite", "code", "col", "colgroup", "command",
        "datagrid", "datalist", "dd", "del", "details", "dfn", "dialog", "dir", "div", "dl", "dt", "em",
        "fieldset", "figcaption", "figure", "font", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
        "header", "hr", "i", "img", "input", "ins", "kbd", "keygen", "label", "legend", "li", "m", "map",
        "menu", "meter", "multicol", "nav", "nextid", "noscript", "ol", "optgroup", "option", "output", "p",
        "pre", "progress", "q", "s", "samp", "section", "select", "small", "sound", "source", "spacer",
        "span", "strike", "strong", "sub", "sup", "table", "tbody", "td", "textarea", "tfoot", "th",
        "thead", "time", "tr", "tt", "u", "ul", "var", "video",
    ]

    /// True when text that should be plain (an RSS title) is HTML after all, by feedparser's
    /// rule: it has a closing tag or a character reference, every tag names an element of
    /// `htmlElements`, and every named reference is an HTML entity. `<b>Bold</b> move` is
    /// HTML; `Vec<T>` and `History of the <blink> tag` are text.
    static func looksLikeHTML(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.contains(UInt8(ascii: "<")) || utf8.contains(UInt8(ascii: "&")) else { return false }
        let bytes = Array(utf8)
        func isWord(_ byte: UInt8) -> Bool {
            byte >= 0x80 || byte == UInt8(ascii: "_") || (0x30...0x39).contains(byte)
                || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
        func word(from start: Int) -> Int {
            var end = start
            while end < bytes.count, isWord(bytes[end]) { end += 1 }
            return end
        }
        var qualifies = false
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "<"):
                let closing = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "/")
                let start = index + (closing ? 2 : 1)
                let end = word(from: start)
                if end > start {
                    let name = String(decoding: bytes[start..<end], as: UTF8.self).lowercased()
                    guard htmlElements.contains(name) else { return false }
                    if closing, end < bytes.count, bytes[end] == UInt8(ascii: ">") { qualifies = true }
                }
                index = max(end, index + 1)
            case UInt8(ascii: "&"):
                let numeric = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "#")
                let start = index + (numeric ? 2 : 1)
                let end = word(from: start)
                if end > start, end < bytes.count, bytes[end] == UInt8(ascii: ";") {
                    qualifies = true
                    if !numeric, namedEntity(Array(bytes[start..<end])) == nil { return false }
                }
                index = max(end, index + 1)
            default:
                index += 1
            }
        }
        return qualifies
    }
}
