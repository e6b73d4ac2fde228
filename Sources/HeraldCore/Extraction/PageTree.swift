/// A web page as a flat tree: nodes in document order, each with its parent and its last
/// descendant, so a subtree is a range of indices and every walk is a loop (no recursion a
/// million nested tags could overflow). Text is decoded (entities) and its white space
/// collapsed (outside `pre`) once, into one byte buffer.
///
/// Built by `PageParser` from the page's bytes; it keeps only the attributes the extractor
/// reads.
struct PageTree {
    struct Node {
        var tag: PageTag
        /// The hash of the element's lowercased name (for end tags of unknown elements).
        var name: UInt64
        var parent: Int32
        /// The index of the last node of the subtree (itself when it has no children).
        var end: Int32
        /// Text nodes: their bytes in `text`. Elements: their attributes in `attributes`.
        var start: Int32
        var count: Int32
    }

    enum AttributeName: UInt8, Sendable {
        case id, `class`, href, src, alt, title, type, itemprop, role, property, name, content, rel, datetime
        case hidden, style, ariaHidden, start, dataSrc, srcset, itemtype, lang

        static let byHash = HashTable<AttributeName>(Array([
            "id": .id, "class": .class, "href": .href, "src": .src, "alt": .alt, "title": .title,
            "type": .type, "itemprop": .itemprop, "role": .role, "property": .property, "name": .name,
            "content": .content, "rel": .rel, "datetime": .datetime, "hidden": .hidden, "style": .style,
            "aria-hidden": .ariaHidden, "start": .start, "data-src": .dataSrc, "srcset": .srcset,
            "itemtype": .itemtype, "lang": .lang,
        ] as KeyValuePairs<String, AttributeName>).map { (PageTag.hash(Array($0.key.utf8)), $0.value) })
    }

    struct Attribute {
        var name: AttributeName
        var start: Int32
        var count: Int32
    }

    var nodes: [Node] = []
    var text: [UInt8] = []
    var attributes: [Attribute] = []
    var attributeBytes: [UInt8] = []

    /// The text of a text node.
    func text(of node: Int) -> ArraySlice<UInt8> {
        let n = nodes[node]
        return text[Int(n.start)..<Int(n.start + n.count)]
    }

    /// The value of an element's attribute, as bytes, or nil when it has none.
    func attribute(_ name: AttributeName, of node: Int) -> ArraySlice<UInt8>? {
        let n = nodes[node]
        guard n.tag != .text else { return nil }
        for a in attributes[Int(n.start)..<Int(n.start + n.count)] where a.name == name {
            return attributeBytes[Int(a.start)..<Int(a.start + a.count)]
        }
        return nil
    }

    func attributeString(_ name: AttributeName, of node: Int) -> String? {
        attribute(name, of: node).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The node's children, first to last.
    func children(of node: Int) -> ChildSequence { ChildSequence(tree: self, parent: node) }

    struct ChildSequence: Sequence, IteratorProtocol {
        let tree: PageTree
        let parent: Int
        var cursor: Int

        init(tree: PageTree, parent: Int) {
            self.tree = tree
            self.parent = parent
            cursor = parent + 1
        }

        mutating func next() -> Int? {
            guard cursor <= Int(tree.nodes[parent].end) else { return nil }
            defer { cursor = Int(tree.nodes[cursor].end) + 1 }
            return cursor
        }
    }

    /// The text of a subtree, its text nodes joined (spaces between blocks).
    func textContent(of node: Int, skipping: (Int) -> Bool = { _ in false }) -> String {
        var bytes: [UInt8] = []
        var i = node
        let end = Int(nodes[node].end)
        while i <= end {
            if i != node, skipping(i) {
                i = Int(nodes[i].end) + 1
                continue
            }
            let n = nodes[i]
            if n.tag == .text {
                bytes += text(of: i)
            } else if n.tag.isBlock, bytes.last != 0x20 {
                bytes.append(0x20)
            }
            i += 1
        }
        return HTMLWriter.trimmed(String(decoding: bytes, as: UTF8.self))
    }
}
