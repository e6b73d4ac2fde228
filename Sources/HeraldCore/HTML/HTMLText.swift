import CLibXML2
import Foundation

/// An article body made readable in a terminal: text in paragraphs (for `TextLayout.wrap`),
/// and the links it pointed to, numbered in order.
public struct ProcessedHTML: Sendable, Hashable {
    /// Paragraphs separated by blank lines; the link list comes last.
    public var text: String
    /// Absolute link targets; `[1]` in the text is `links[0]`.
    public var links: [String]
}

/// Turns article HTML into text with libxml2's forgiving HTML parser.
///
/// Paragraphs, headings and table rows become paragraphs; list items get `- ` or `1. `
/// (nested lists indent); blockquotes get `> `; `pre` keeps its lines; images become
/// `[image: alt]`; links are numbered `[1]` with the list at the end; scripts, styles and
/// other non-content elements are dropped; entities are decoded by the parser. The parser
/// loads nothing from the network and never fails: broken HTML gives what could be read.
public enum HTMLText {
    public static func process(_ html: String, baseURL: String? = nil) -> ProcessedHTML {
        let options = Int32(
            HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue
                | HTML_PARSE_RECOVER.rawValue)
        let bytes = Array(html.utf8)
        guard !bytes.isEmpty,
            let document = bytes.withUnsafeBufferPointer({ buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    htmlReadMemory($0, Int32(buffer.count), baseURL, "UTF-8", options)
                }
            })
        else { return ProcessedHTML(text: "", links: []) }
        defer { xmlFreeDoc(document) }

        var writer = HTMLWriter(base: baseURL.flatMap(URL.init(string:)))
        var node = document.pointee.children
        while let current = node {
            writer.visit(current, depth: 0)
            node = current.pointee.next
        }
        return writer.finish()
    }
}

/// Walks the parsed tree and writes paragraphs.
struct HTMLWriter {
    let base: URL?
    private var paragraphs: [String] = []
    /// The paragraph being written, as UTF-8 (appending bytes is far cheaper than Characters).
    private var line: [UInt8] = []
    private var pendingSpace = false
    private var links: [String] = []
    /// Prefixes of the blocks we are inside (`> ` for quotes, indents for nested lists).
    private var prefixes: [String] = []
    /// The marker of the list item whose first paragraph is being written.
    private var itemMarker: String?
    private var preformatted = 0

    init(base: URL?) { self.base = base }

    static let dropped: Set<String> = [
        "script", "style", "head", "noscript", "iframe", "object", "embed", "template", "svg",
        "math", "form", "button", "select", "textarea", "input", "nav",
    ]
    static let blocks: Set<String> = [
        "p", "div", "section", "article", "header", "footer", "main", "aside", "figure",
        "figcaption", "h1", "h2", "h3", "h4", "h5", "h6", "dl", "dt", "dd", "address", "center",
        "details", "summary", "caption", "body", "html",
    ]

    mutating func visit(_ node: UnsafeMutablePointer<xmlNode>, depth: Int) {
        guard depth < 200 else { return }
        switch node.pointee.type {
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
            if let content = node.pointee.content { text(String(cString: content)) }
        case XML_ELEMENT_NODE:
            element(node, depth: depth)
        default:
            break
        }
    }

    private mutating func children(_ node: UnsafeMutablePointer<xmlNode>, depth: Int) {
        var child = node.pointee.children
        while let current = child {
            visit(current, depth: depth + 1)
            child = current.pointee.next
        }
    }

    private mutating func element(_ node: UnsafeMutablePointer<xmlNode>, depth: Int) {
        let name = node.pointee.name.map { String(cString: $0).lowercased() } ?? ""
        if Self.dropped.contains(name) { return }
        switch name {
        case "br":
            line.append(0x0A)
            pendingSpace = false
        case "hr":
            paragraphBreak()
            paragraphs.append(String(repeating: "─", count: 8))
        case "img":
            let alt = attribute(node, "alt").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
            text(alt.isEmpty ? "[image]" : "[image: \(alt)]")
        case "a":
            children(node, depth: depth)
            if let href = attribute(node, "href"), let target = resolve(href) {
                links.append(target)
                line += Array("[\(links.count)]".utf8)
                pendingSpace = false
            }
        case "pre":
            paragraphBreak()
            preformatted += 1
            children(node, depth: depth)
            preformatted -= 1
            paragraphBreak()
        case "blockquote":
            paragraphBreak()
            prefixes.append("> ")
            children(node, depth: depth)
            paragraphBreak()
            prefixes.removeLast()
        case "ul", "ol", "menu":
            paragraphBreak()
            var number = Int(attribute(node, "start") ?? "") ?? 1
            prefixes.append("  ")
            var child = node.pointee.children
            while let item = child {
                if item.pointee.type == XML_ELEMENT_NODE,
                    item.pointee.name.map({ String(cString: $0).lowercased() }) == "li"
                {
                    paragraphBreak()
                    itemMarker = name == "ol" ? "\(number). " : "- "
                    number += 1
                    children(item, depth: depth + 1)
                    paragraphBreak()
                } else {
                    visit(item, depth: depth + 1)
                }
                child = item.pointee.next
            }
            prefixes.removeLast()
            paragraphBreak()
        case "tr":
            paragraphBreak()
            var cells: [String] = []
            var child = node.pointee.children
            while let cell = child {
                if cell.pointee.type == XML_ELEMENT_NODE {
                    var inner = HTMLWriter(base: base)
                    inner.links = links
                    inner.children(cell, depth: depth + 1)
                    links = inner.links
                    inner.paragraphBreak()
                    cells.append(inner.paragraphs.joined(separator: " "))
                }
                child = cell.pointee.next
            }
            text(cells.joined(separator: " | "))
            paragraphBreak()
        case "table", "thead", "tbody", "tfoot":
            paragraphBreak()
            children(node, depth: depth)
            paragraphBreak()
        default:
            let isBlock = Self.blocks.contains(name) || name == "li"
            if isBlock { paragraphBreak() }
            children(node, depth: depth)
            if isBlock { paragraphBreak() }
        }
    }

    private func attribute(_ node: UnsafeMutablePointer<xmlNode>, _ name: String) -> String? {
        guard let value = xmlGetProp(node, name) else { return nil }
        defer { cx_free(value) }
        return String(cString: value)
    }

    private func resolve(_ href: String) -> String? {
        let trimmed = href.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !trimmed.lowercased().hasPrefix("javascript:") else { return nil }
        guard let url = URL(string: trimmed, relativeTo: base) else { return trimmed }
        return url.absoluteString
    }

    /// Adds text: HTML white space (space, tab, CR, LF, form feed) collapses to single
    /// spaces, except inside `pre`. Works on UTF-8 bytes: none of those is part of a
    /// multi-byte sequence.
    private mutating func text(_ raw: String) {
        if preformatted > 0 {
            line += raw.utf8
            return
        }
        for byte in raw.utf8 {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, 0x0C:
                pendingSpace = !line.isEmpty
            default:
                if pendingSpace { line.append(0x20) }
                pendingSpace = false
                line.append(byte)
            }
        }
    }

    /// Ends the paragraph being written, with the prefixes of the blocks it is in.
    private mutating func paragraphBreak() {
        defer {
            line.removeAll(keepingCapacity: true)
            pendingSpace = false
        }
        var bytes = line[...]
        if preformatted == 0 {
            // Trim spaces and line breaks (bytes: neither occurs inside a UTF-8 sequence).
            while let first = bytes.first, first == 0x20 || first == 0x0A { bytes = bytes.dropFirst() }
            while let last = bytes.last, last == 0x20 || last == 0x0A { bytes = bytes.dropLast() }
        }
        guard !bytes.isEmpty else { return }
        let body = String(decoding: bytes, as: UTF8.self)
        if prefixes.isEmpty && itemMarker == nil {
            paragraphs.append(body)
            return
        }
        var lead = prefixes.dropLast(itemMarker == nil ? 0 : 1).joined()
        var rest = prefixes.joined()
        if let marker = itemMarker {
            lead += marker
            rest = prefixes.dropLast().joined() + String(repeating: " ", count: marker.count)
            itemMarker = nil
        }
        let lines = body.split(separator: "\n", omittingEmptySubsequences: false)
        paragraphs.append(
            lines.enumerated().map { ($0.offset == 0 ? lead : rest) + $0.element }.joined(separator: "\n"))
    }

    mutating func finish() -> ProcessedHTML {
        paragraphBreak()
        var text = paragraphs.joined(separator: "\n\n")
        if !links.isEmpty {
            text += "\n\nLinks:\n" + links.enumerated().map { "[\($0.offset + 1)] \($0.element)" }.joined(separator: "\n")
        }
        return ProcessedHTML(text: TextSanitizer.multiLine(text), links: links)
    }
}
