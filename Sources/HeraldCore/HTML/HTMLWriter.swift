import CLibXML2
import Foundation

/// Writes blocks of styled runs as libxml2's HTML parser reports the elements and text
/// (`HTMLText`: no tree is built). (Lists and tables are in `HTMLWriter+Structure.swift`.)
struct HTMLWriter {
    let base: URL?
    var blocks: [RichBlock] = []
    var links: [String] = []

    /// The block being written: finished runs, and the open run as UTF-8 bytes (appending
    /// bytes is far cheaper than appending Characters).
    var runs: [RichRun] = []
    var run: [UInt8] = []
    var runStyle: InlineStyle = []
    /// The open run may hold something `TextSanitizer` must take out (most runs need no look).
    var runMayNeedCleaning = false
    /// The inline style of the text being visited.
    var style: InlineStyle = []
    var pendingSpace = false

    /// Prefixes of the blocks we are inside (`> ` for quotes, indents for nested lists).
    var prefixes: [String] = []
    /// The marker of the list item whose first block is being written.
    var itemMarker: (marker: String, level: Int)?
    var preformatted = 0
    var heading = 0
    /// Inside a table cell, blocks do not break the row: they become spaces.
    var inCell = 0
    /// How many lists we are inside, and whether the last block was in one: list items
    /// that follow list text are drawn without a blank line between them.
    var listDepth = 0
    var lastBlockInList = false
    /// The rows of the tables we are inside, each row its cells' runs.
    var tables: [[[[RichRun]]]] = []
    /// The elements open, each with what its end undoes.
    var frames: [Frame] = []
    /// Inside an element whose content is not shown (a script, an image's), the elements
    /// open in it, itself included; 0 outside.
    var skipping = 0

    /// What an open element's end must undo or finish.
    enum Frame {
        case plain, heading, quote, block, table, item
        case styled(saved: InlineStyle)
        case anchor(target: String, saved: InlineStyle)
        case preformatted(saved: InlineStyle)
        /// The number of the list's next item.
        case list(ordered: Bool, number: Int)
        /// The row's cells so far.
        case row(cells: [[RichRun]])
        /// Where the cell's runs start among the block's.
        case cell(start: Int, saved: InlineStyle)
    }

    init(base: URL?) { self.base = base }

    /// What an element is to the writer.
    enum Element {
        case dropped, inline(InlineStyle), lineBreak, rule, image, anchor, heading(Int), preformatted
        case quote, list(ordered: Bool), row, table, tableSection, block, other
    }

    /// One dictionary lookup per element (a `switch` over strings compares them one by one).
    static let elements: [String: Element] = {
        var map: [String: Element] = [
            "br": .lineBreak, "hr": .rule, "img": .image, "a": .anchor, "pre": .preformatted,
            "blockquote": .quote, "ul": .list(ordered: false), "menu": .list(ordered: false),
            "ol": .list(ordered: true), "tr": .row, "table": .table, "thead": .tableSection,
            "tbody": .tableSection, "tfoot": .tableSection,
            "b": .inline(.strong), "strong": .inline(.strong), "i": .inline(.emphasis),
            "em": .inline(.emphasis), "cite": .inline(.emphasis), "dfn": .inline(.emphasis),
            "var": .inline(.emphasis), "code": .inline(.code), "kbd": .inline(.code),
            "samp": .inline(.code), "tt": .inline(.code), "u": .inline(.underline),
            "ins": .inline(.underline), "s": .inline(.struck), "del": .inline(.struck),
            "strike": .inline(.struck),
        ]
        for level in 1...6 { map["h\(level)"] = .heading(level) }
        for name in [
            "script", "style", "head", "noscript", "iframe", "object", "embed", "template", "svg",
            "math", "form", "button", "select", "textarea", "input", "nav",
        ] { map[name] = .dropped }
        for name in [
            "p", "div", "section", "article", "header", "footer", "main", "aside", "figure",
            "figcaption", "dl", "dt", "dd", "address", "center", "details", "summary", "caption",
            "body", "html", "li",
        ] { map[name] = .block }
        return map
    }()

    var blockIsEmpty: Bool { runs.isEmpty && run.isEmpty }
    /// The open block ends in two line breaks.
    var endsInBlankLine: Bool {
        let tail = run.count >= 2 ? Array(run.suffix(2)) : Array((runs.last?.text.utf8.suffix(2) ?? []) + run)
        return tail.suffix(2) == [0x0A, 0x0A]
    }

    /// The block ends in a space or a line break already (a ` | ` between cells, a `br`).
    var endsInSpace: Bool {
        if let last = run.last { return last == 0x20 || last == 0x0A }
        return runs.last?.text.utf8.last.map { $0 == 0x20 || $0 == 0x0A } ?? false
    }

    /// The text without ASCII white space at either end (Foundation's `trimmingCharacters`
    /// bridges through NSString: a sixth of the time of turning HTML into text).
    static func trimmed(_ text: String) -> String {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        let bytes = text.utf8
        guard let first = bytes.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = bytes.lastIndex(where: { !isSpace($0) })!  // there is a non-space: `first`
        return first == bytes.startIndex && last == bytes.index(before: bytes.endIndex)
            ? text : String(text[first...last])
    }

    /// Printable ASCII that a URL cannot hold unescaped.
    private static let escapedInURLs: Set<UInt8> = Set("\"<>\\^`{|}".utf8)

    func resolve(_ href: String) -> String? {
        var trimmed = Self.trimmed(href)
        // Tabs and line breaks inside an address are dropped, as a browser's URL parser drops
        // them: `java&#9;script:` is a script link.
        if trimmed.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            let kept = trimmed.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
            trimmed = String(String.UnicodeScalarView(kept))
        }
        guard !trimmed.isEmpty, !trimmed.lowercased().hasPrefix("javascript:") else { return nil }
        // An absolute http(s) link made only of characters a URL may hold as they are needs no
        // resolving or escaping (Foundation's URL is slow to make).
        if trimmed.hasPrefix("https://") || trimmed.hasPrefix("http://"),
            trimmed.utf8.allSatisfy({ (0x21...0x7E).contains($0) && !Self.escapedInURLs.contains($0) })
        {
            return trimmed
        }
        guard let url = URL(string: trimmed, relativeTo: base) else {
            return TextSanitizer.singleLine(trimmed)
        }
        return TextSanitizer.singleLine(url.absoluteString)
    }

    /// Adds a text node's bytes: HTML white space (space, tab, CR, LF, form feed) collapses
    /// to single spaces, except inside `pre`. None of those bytes is part of a multi-byte
    /// UTF-8 sequence, so this works on bytes.
    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {
        if preformatted > 0 {
            if pendingSpace {
                // Only inside a table cell, where blocks run on as words.
                openRun(style.intersection(runStyle))
                run.append(0x20)
                pendingSpace = false
            }
            openRun(style)
            run += bytes
            runMayNeedCleaning = true
            return
        }
        func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C
        }
        var i = 0
        while i < bytes.count {
            if isSpace(bytes[i]) {
                pendingSpace = !blockIsEmpty && !endsInSpace
                i += 1
                while i < bytes.count, isSpace(bytes[i]) { i += 1 }
                continue
            }
            // Bytes that may start something forbidden: C0 controls and DEL; C2 (C1
            // controls), D8 (U+061C) and E2 (bidi controls, among much punctuation).
            var suspicious = false
            var end = i
            while end < bytes.count {
                let byte = bytes[end]
                if isSpace(byte) { break }
                suspicious =
                    suspicious || byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2
                end += 1
            }
            if pendingSpace {
                // The space takes only the styles on both sides of it: no underline
                // under the space before or after a link.
                openRun(style.intersection(runStyle))
                run.append(0x20)
                pendingSpace = false
            }
            openRun(style)
            run += bytes[i..<end]
            runMayNeedCleaning = runMayNeedCleaning || suspicious
            i = end
        }
    }

    /// Adds generated text (a marker, alt text) as words, like a text node.
    mutating func words(_ text: String, style: InlineStyle) {
        let saved = self.style
        self.style = style
        var text = text
        text.withUTF8 { self.text($0) }
        self.style = saved
    }

    /// Appends text as it is, right after what came before (a pending space is dropped).
    mutating func append(_ text: String, style: InlineStyle) {
        pendingSpace = false
        openRun(style)
        run += text.utf8
    }

    /// Makes the open run one of `style`, closing the current one if its style differs.
    mutating func openRun(_ style: InlineStyle) {
        guard style != runStyle else { return }
        closeRun()
        runStyle = style
    }

    mutating func closeRun() {
        guard !run.isEmpty else { return }
        let text = String(decoding: run, as: UTF8.self)
        runs.append(RichRun(runMayNeedCleaning ? TextSanitizer.multiLine(text) : text, runStyle))
        run.removeAll(keepingCapacity: true)
        runMayNeedCleaning = false
    }

    /// The prefixes of a block starting here: for its first line, and for the lines after.
    mutating func lead() -> (first: String, rest: String) {
        let all = prefixes.joined()
        guard let (marker, level) = itemMarker, level < prefixes.count else { return (all, all) }
        itemMarker = nil
        // The marker takes the place of its list's indent; prefixes inside the item (a quote
        // that opens it) follow it.
        let first = prefixes[..<level].joined() + marker + prefixes[(level + 1)...].joined()
        return (first, all)
    }

    /// Ends the block being written (a space inside a table cell).
    mutating func blockBreak() {
        if inCell > 0 {
            pendingSpace = !blockIsEmpty
            return
        }
        closeRun()
        defer {
            runs.removeAll(keepingCapacity: true)
            pendingSpace = false
        }
        trimRuns(keepingSpaces: preformatted > 0)
        guard !runs.isEmpty else { return }
        let kind: RichBlock.Kind =
            preformatted > 0 ? .preformatted : heading > 0 ? .heading(level: heading) : .paragraph
        let startsItem = itemMarker != nil
        let (first, rest) = lead()
        var block = RichBlock(
            kind: kind, lead: first, indent: rest, quoted: prefixes.contains("> "), runs: runs)
        block.tight = startsItem && lastBlockInList
        lastBlockInList = listDepth > 0
        blocks.append(block)
    }

    /// Drops line breaks and spaces (unless preformatted; no-break spaces too, which editors
    /// leave in "empty" paragraphs) at both ends of the block, and runs left empty.
    private mutating func trimRuns(keepingSpaces: Bool) {
        runs = Self.trimmed(runs, keepingSpaces: keepingSpaces)
    }

    static func trimmed(_ runs: [RichRun], keepingSpaces: Bool = false) -> [RichRun] {
        func isBlank(_ c: Character) -> Bool { c == "\n" || ((c == " " || c == "\u{A0}") && !keepingSpaces) }
        var runs = runs
        while let first = runs.first {
            let text = first.text.drop(while: isBlank)
            if text.isEmpty { runs.removeFirst() } else { runs[0].text = String(text); break }
        }
        while let last = runs.last {
            var text = Substring(last.text)
            while let c = text.last, isBlank(c) { text = text.dropLast() }
            if text.isEmpty { runs.removeLast() } else { runs[runs.count - 1].text = String(text); break }
        }
        return runs
    }

}
