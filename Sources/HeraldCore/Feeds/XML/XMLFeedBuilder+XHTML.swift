import CLibXML2

/// Atom `type="xhtml"` content, written back out as HTML while the SAX events arrive.
extension XMLFeedBuilder {
    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
        "source", "track", "wbr",
    ]

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
