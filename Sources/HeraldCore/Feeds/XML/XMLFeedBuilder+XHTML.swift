import CLibXML2

/// Elements inside a collected element (Atom `type="xhtml"` content, or HTML a feed wrote as
/// elements instead of escaping it), written back out as HTML while the SAX events arrive.
///
/// The characters between them are XML text: `&lt;blink&gt;` there is the text `<blink>`,
/// so it is escaped again on the way out (`CapturedText.Mode.escape`), or the HTML-to-text
/// step would take it for a tag and drop it.
extension XMLFeedBuilder {
    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
        "source", "track", "wbr",
    ]

    /// An element starting inside the element being captured: left out of plain text (its
    /// characters are kept), else written out as HTML.
    func markupStart(ns: XMLFeedNamespace, name: String, attributes: [Attribute]) {
        guard var current = capture, current.kind != .text else { return }
        if current.kind == .html, text.mode != .escape {
            // HTML written as elements, not as escaped text: RSS descriptions often, careless
            // Atom `type="html"`, Atom 0.3 `type="text/html"` in `mode="xml"` by design. From
            // the first element on, the characters are text between elements and are escaped
            // like XHTML's; what came before stays the HTML it was written as (feedparser reads
            // it the same way). Elements alone (0.3) are XHTML: its wrapper `<div>` goes too.
            if current.mayBeInline, text.isBlank { current.kind = .xhtml }
            current.mayBeInline = false
            capture = current
            text.mode = .escape
        }
        if current.kind == .xhtml, current.skippedDiv == nil, depth == current.depth + 1,
            ns == .xhtml, name == "div", text.isBlank
        {
            current.skippedDiv = depth
            capture = current
            text.bytes.removeAll(keepingCapacity: true)
            return
        }
        serializeStart(name: name, attributes: attributes)
    }

    func serializeStart(name: String, attributes: [Attribute]) {
        openTags.append(name)
        text.bytes.append(UInt8(ascii: "<"))
        text.bytes.append(contentsOf: name.utf8)
        for attribute in attributes {
            text.bytes.append(UInt8(ascii: " "))
            if attribute.namespace == .xml { text.bytes.append(contentsOf: "xml:".utf8) }
            text.bytes.append(contentsOf: attribute.name.utf8)
            text.bytes.append(contentsOf: "=\"".utf8)
            for byte in attribute.value.utf8 {
                switch byte {
                case UInt8(ascii: "&"): text.bytes.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "\""): text.bytes.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "<"): text.bytes.append(contentsOf: "&lt;".utf8)
                default: text.bytes.append(byte)
                }
            }
            text.bytes.append(UInt8(ascii: "\""))
        }
        text.bytes.append(UInt8(ascii: ">"))
    }

    func serializeEnd() {
        guard let name = openTags.popLast() else { return }
        if Self.voidElements.contains(name) { return }
        text.bytes.append(contentsOf: "</".utf8)
        text.bytes.append(contentsOf: name.utf8)
        text.bytes.append(UInt8(ascii: ">"))
    }
}
