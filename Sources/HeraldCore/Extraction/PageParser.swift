import CLibXML2

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a page's HTML into a `PageTree`, the way a browser's parser roughly does: void
/// elements, raw-text elements (`script`, `style`), the ends HTML implies (a block ends an
/// open `p`, an `li` the previous `li`, a `tr` the previous row), end tags matched to the
/// nearest open element of their name within their scope, stray ones ignored. Not the full
/// HTML5 tree builder (no adoption agency, no foster parenting): an extractor needs blocks,
/// their text and their classes, and that is what this gets right, at several times
/// libxml2's speed, without a tree of C nodes to walk and free.
///
/// Hostile pages cost time and memory in proportion to their size: elements nest at most
/// `maxDepth` deep (deeper ones become siblings), everything is a loop over the bytes.
struct PageParser {
    static let maxDepth = 256

    var tree = PageTree()
    /// The open elements, the document (node 0) first.
    var stack: [Int32] = [0]
    /// Inside `pre` (or `textarea`, `listing`): white space is kept.
    var preformatted = 0
    /// How many elements of each tag (by raw value) are open: a start tag that ends an open `p`,
    /// or an end tag, whose element is not open looks no further (a search of the whole stack,
    /// 256 deep, for each of a million nested `div`s or stray end tags).
    var openCounts = [Int32](repeating: 0, count: 256)
    /// The attributes of the start tag being read (kept to save an allocation per tag).
    var found: [(PageTree.AttributeName, Range<Int>)] = []

    static func parse(_ html: [UInt8]) -> PageTree {
        var parser = PageParser()
        parser.tree.nodes.reserveCapacity(html.count / 40)
        parser.tree.text.reserveCapacity(html.count / 3)
        parser.tree.nodes.append(PageTree.Node(tag: .document, name: 0, parent: -1, end: 0, start: 0, count: 0))
        html.withUnsafeBufferPointer { parser.run($0) }
        while parser.stack.count > 1 { parser.pop() }
        parser.tree.nodes[0].end = Int32(parser.tree.nodes.count - 1)
        return parser.tree
    }

    // MARK: Tokens

    private mutating func run(_ b: UnsafeBufferPointer<UInt8>) {
        let n = b.count
        var i = 0
        while i < n {
            var lt = n
            if let base = b.baseAddress, let found = memchr(base + i, 0x3C, n - i) {
                lt = UnsafeRawPointer(found) - UnsafeRawPointer(base)
            }
            if lt > i { appendText(UnsafeBufferPointer(rebasing: b[i..<lt]), decode: true) }
            guard lt < n else { return }
            i = lt
            let next = lt + 1 < n ? b[lt + 1] : 0
            if next == 0x21 {  // <!
                if Self.starts(b, at: i, with: "<!--") {
                    i = Self.find(b, "-->", from: i + 4).map { $0 + 3 } ?? n
                } else if Self.starts(b, at: i, with: "<![CDATA[") {
                    let end = Self.find(b, "]]>", from: i + 9) ?? n
                    appendText(UnsafeBufferPointer(rebasing: b[(i + 9)..<end]), decode: false)
                    i = min(end + 3, n)
                } else {
                    i = Self.skip(b, to: 0x3E, from: i) + 1
                }
            } else if next == 0x2F {  // </
                var j = i + 2
                let (hash, tag, end) = Self.name(b, from: &j)
                if end == i + 2 {
                    i = Self.skip(b, to: 0x3E, from: i) + 1  // `</>` or `</ x`: a bogus comment
                } else {
                    i = Self.skip(b, to: 0x3E, from: j) + 1
                    endTag(hash, tag)
                }
            } else if Self.isLetter(next) {
                i = startTag(b, at: i)
            } else if next == 0x3F {  // <?
                i = Self.skip(b, to: 0x3E, from: i) + 1
            } else {
                appendText(UnsafeBufferPointer(rebasing: b[i..<(i + 1)]), decode: false)
                i += 1
            }
        }
    }

    /// Reads a start tag at `i` (`<` then a letter); returns where reading goes on.
    private mutating func startTag(_ b: UnsafeBufferPointer<UInt8>, at start: Int) -> Int {
        let n = b.count
        var i = start + 1
        let (hash, tag, _) = Self.name(b, from: &i)
        found.removeAll(keepingCapacity: true)
        var selfClosing = false
        while i < n {
            while i < n, Self.isSpace(b[i]) || b[i] == 0x2F {
                selfClosing = b[i] == 0x2F
                i += 1
            }
            guard i < n, b[i] != 0x3E else { break }
            selfClosing = false
            let nameStart = i
            i += 1
            while i < n, !Self.isSpace(b[i]), b[i] != 0x3D, b[i] != 0x3E, b[i] != 0x2F { i += 1 }
            let nameEnd = i
            while i < n, Self.isSpace(b[i]) { i += 1 }
            var value = i..<i
            if i < n, b[i] == 0x3D {
                i += 1
                while i < n, Self.isSpace(b[i]) { i += 1 }
                if i < n, b[i] == 0x22 || b[i] == 0x27 {
                    let quote = b[i]
                    var end = i + 1
                    while end < n, b[end] != quote { end += 1 }
                    value = (i + 1)..<end
                    i = min(end + 1, n)
                } else {
                    let valueStart = i
                    while i < n, !Self.isSpace(b[i]), b[i] != 0x3E { i += 1 }
                    value = valueStart..<i
                }
            }
            if let known = Self.attributeName(b, nameStart..<nameEnd) { found.append((known, value)) }
        }
        let after = min(i + 1, n)
        let node = openElement(tag, hash, attributes: b)
        if tag.isVoid || (selfClosing && (tag == .other || inForeignContent)) {
            close(node)
            return after
        }
        guard tag.isRawText else { return after }
        // The content runs to the first `</name` of this element.
        let end = tag == .plaintext ? n : Self.findEndTag(b, hash: hash, from: after) ?? n
        // Only what is read later is kept: the title, and scripts of JSON (JSON-LD metadata).
        let json = tag == .script && found.contains { name, range in
            name == .type && String(decoding: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self).lowercased().contains("json")
        }
        if tag == .title || json {
            appendText(UnsafeBufferPointer(rebasing: b[after..<end]), decode: tag == .title, raw: tag != .title)
        }
        close(node)
        return end < n ? Self.skip(b, to: 0x3E, from: end) + 1 : n
    }

    private var inForeignContent: Bool {
        stack.contains { let tag = tree.nodes[Int($0)].tag; return tag == .svg || tag == .math }
    }

    // MARK: Tree building

    /// Opens an element with the attributes in `found` (ranges of `page`).
    private mutating func openElement(_ tag: PageTag, _ hash: UInt64, attributes page: UnsafeBufferPointer<UInt8>?)
        -> Int32
    {
        impliedEnds(before: tag)
        let index = Int32(tree.nodes.count)
        let attributeStart = Int32(tree.attributes.count)
        for (name, range) in found where page != nil {
            guard let value = page.map({ UnsafeBufferPointer(rebasing: $0[range]) }) else { break }
            let start = Int32(tree.attributeBytes.count)
            if value.contains(0x26) {
                Entities.decode(value, into: &tree.attributeBytes, inAttribute: true)
            } else {
                tree.attributeBytes.append(contentsOf: value)
            }
            tree.attributes.append(
                PageTree.Attribute(name: name, start: start, count: Int32(tree.attributeBytes.count) - start))
        }
        tree.nodes.append(
            PageTree.Node(
                tag: tag, name: hash, parent: stack[stack.count - 1], end: index, start: attributeStart,
                count: Int32(tree.attributes.count) - attributeStart))
        if !tag.isVoid, stack.count < Self.maxDepth {
            stack.append(index)
            if tag == .pre || tag == .textarea { preformatted += 1 }
            openCounts[Int(tag.rawValue)] += 1
        }
        return index
    }

    /// Closes an element that was just opened and has no content.
    private mutating func close(_ node: Int32) {
        if stack.last == node { pop() }
    }

    private mutating func pop() {
        let node = Int(stack.removeLast())
        tree.nodes[node].end = Int32(tree.nodes.count - 1)
        if tree.nodes[node].tag == .pre || tree.nodes[node].tag == .textarea { preformatted -= 1 }
        openCounts[Int(tree.nodes[node].tag.rawValue)] -= 1
    }

    /// Pops up to and including the open element at `depth` of the stack.
    private mutating func pop(to depth: Int) {
        while stack.count > depth { pop() }
    }

    /// The depth in the stack of the nearest open element that `match` accepts, looking no
    /// further than an element `stop` accepts.
    private func open(where match: (PageTag) -> Bool, stoppingAt stop: (PageTag) -> Bool) -> Int? {
        var k = stack.count - 1
        while k > 0 {
            let tag = tree.nodes[Int(stack[k])].tag
            if match(tag) { return k }
            if stop(tag) { return nil }
            k -= 1
        }
        return nil
    }

    private mutating func impliedEnds(before tag: PageTag) {
        if tag.closesParagraph, openCounts[Int(PageTag.p.rawValue)] > 0,
            let k = open(where: { $0 == .p }, stoppingAt: \.isScopeBoundary)
        {
            pop(to: k)
        }
        switch tag {
        case .li:
            let isList: (PageTag) -> Bool = { $0 == .ul || $0 == .ol || $0.isScopeBoundary }
            if let k = open(where: { $0 == .li }, stoppingAt: isList) { pop(to: k) }
        case .dt, .dd:
            let isTerm: (PageTag) -> Bool = { $0 == .dt || $0 == .dd }
            let isDefinitions: (PageTag) -> Bool = { $0 == .dl || $0.isScopeBoundary }
            if let k = open(where: isTerm, stoppingAt: isDefinitions) { pop(to: k) }
        case .td, .th:
            let isCell: (PageTag) -> Bool = { $0 == .td || $0 == .th }
            let isRow: (PageTag) -> Bool = { $0 == .tr || $0 == .table }
            if let k = open(where: isCell, stoppingAt: isRow) { pop(to: k) }
        case .tr:
            if let k = open(where: { $0 == .tr }, stoppingAt: { $0 == .table }) { pop(to: k) }
        case .thead, .tbody, .tfoot:
            let isSection: (PageTag) -> Bool = { $0 == .thead || $0 == .tbody || $0 == .tfoot }
            if let k = open(where: isSection, stoppingAt: { $0 == .table }) { pop(to: k) }
        case .option:
            if tree.nodes[Int(stack[stack.count - 1])].tag == .option { pop() }
        case .h1, .h2, .h3, .h4, .h5, .h6:
            if tree.nodes[Int(stack[stack.count - 1])].tag.isHeading { pop() }
        case .a:
            if let k = open(where: { $0 == .a }, stoppingAt: \.isScopeBoundary) { pop(to: k) }
        case .body:
            if let k = open(where: { $0 == .head }, stoppingAt: { _ in false }) { pop(to: k) }
        default: break
        }
    }

    private mutating func endTag(_ hash: UInt64, _ tag: PageTag) {
        if tag == .br {
            close(openElement(.br, hash, attributes: nil))
            return
        }
        guard openCounts[Int(tag.rawValue)] > 0 else { return }
        let stop: (PageTag) -> Bool
        switch tag {
        case .table, .tbody, .thead, .tfoot, .tr, .td, .th, .caption:
            stop = { $0 == .table || $0 == .html || $0 == .template }
        default:
            stop = { $0.isScopeBoundary }
        }
        var k = stack.count - 1
        while k > 0 {
            let node = tree.nodes[Int(stack[k])]
            if node.name == hash {
                pop(to: k)
                return
            }
            if stop(node.tag) { return }
            k -= 1
        }
    }

    // MARK: Text

    private mutating func appendText(_ bytes: UnsafeBufferPointer<UInt8>, decode: Bool, raw: Bool = false) {
        let parent = stack[stack.count - 1]
        let last = tree.nodes.count - 1
        let start: Int32
        if tree.nodes[last].tag == .text, tree.nodes[last].parent == parent {
            start = tree.nodes[last].start
        } else {
            start = Int32(tree.text.count)
            tree.nodes.append(
                PageTree.Node(tag: .text, name: 0, parent: parent, end: Int32(last + 1), start: start, count: 0))
        }
        if raw || preformatted > 0 {
            if decode, bytes.contains(0x26) {
                Entities.decode(bytes, into: &tree.text, inAttribute: false)
            } else {
                tree.text.append(contentsOf: bytes)
            }
        } else {
            collapsingSpaces(bytes, decode: decode)
        }
        let node = tree.nodes.count - 1
        tree.nodes[node].count = Int32(tree.text.count) - start
        if tree.nodes[node].count == 0 { tree.nodes.removeLast() }
    }

    /// Appends text with each run of HTML white space made one space.
    private mutating func collapsingSpaces(_ bytes: UnsafeBufferPointer<UInt8>, decode: Bool) {
        var i = 0
        let n = bytes.count
        while i < n {
            if Self.isSpace(bytes[i]) {
                if tree.text.last != 0x20 { tree.text.append(0x20) }
                i += 1
                while i < n, Self.isSpace(bytes[i]) { i += 1 }
                continue
            }
            var end = i
            var ampersand = false
            while end < n, !Self.isSpace(bytes[end]) {
                ampersand = ampersand || bytes[end] == 0x26
                end += 1
            }
            let word = UnsafeBufferPointer(rebasing: bytes[i..<end])
            if decode, ampersand {
                Entities.decode(word, into: &tree.text, inAttribute: false)
            } else {
                tree.text.append(contentsOf: word)
            }
            i = end
        }
    }

    // MARK: Bytes

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C
    }

    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    /// Reads a tag name from `i`: its hash and tag, and where it ends.
    static func name(_ b: UnsafeBufferPointer<UInt8>, from i: inout Int) -> (UInt64, PageTag, Int) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        while i < b.count, !isSpace(b[i]), b[i] != 0x2F, b[i] != 0x3E {
            hash = (hash ^ UInt64(lower(b[i]))) &* 0x100_0000_01b3
            i += 1
        }
        return (hash, PageTag.byHash[hash] ?? .other, i)
    }

    static func attributeName(_ b: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> PageTree.AttributeName? {
        guard range.count <= 12 else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in range { hash = (hash ^ UInt64(lower(b[i]))) &* 0x100_0000_01b3 }
        return PageTree.AttributeName.byHash[hash]
    }

    static func starts(_ b: UnsafeBufferPointer<UInt8>, at i: Int, with prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard i + count <= b.count else { return false }
        let p = prefix.utf8Start
        for k in 0..<count where lower(b[i + k]) != lower(p[k]) { return false }
        return true
    }

    static func find(_ b: UnsafeBufferPointer<UInt8>, _ needle: StaticString, from start: Int) -> Int? {
        let first = needle.utf8Start[0]
        var i = start
        while i < b.count {
            if b[i] == first, starts(b, at: i, with: needle) { return i }
            i += 1
        }
        return nil
    }

    /// The index of the `>` at or after `i` (the last index when there is none).
    static func skip(_ b: UnsafeBufferPointer<UInt8>, to byte: UInt8, from i: Int) -> Int {
        var i = i
        while i < b.count, b[i] != byte { i += 1 }
        return min(i, b.count - 1)
    }

    /// Where the first end tag of the element named by `hash` starts.
    static func findEndTag(_ b: UnsafeBufferPointer<UInt8>, hash: UInt64, from start: Int) -> Int? {
        guard let base = b.baseAddress else { return nil }
        var i = start
        while i + 1 < b.count {
            // memchr: a script runs to tens of kilobytes with few `<` in it.
            guard let found = memchr(base + i, 0x3C, b.count - i) else { return nil }
            i = UnsafeRawPointer(found) - UnsafeRawPointer(base)
            if i + 1 < b.count, b[i + 1] == 0x2F {
                var j = i + 2
                let (found, _, _) = name(b, from: &j)
                if found == hash { return i }
            }
            i += 1
        }
        return nil
    }
}
