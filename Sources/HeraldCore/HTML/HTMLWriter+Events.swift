import CLibXML2

/// What the writer does as libxml2's HTML parser reports an element's start and end, and
/// text (see `HTMLText.parse`): each open element is a `Frame` saying what its end undoes.
extension HTMLWriter {
    /// Below this many open elements the writer follows no structure (a hostile nesting):
    /// a subtree's text still counts, read as words, leaving out what is never shown.
    static let deepest = 200

    /// An element begins (libxml2's HTML parser lowercases names; `attributes` are name and
    /// value pairs, NULL-terminated).
    mutating func startElement(
        _ name: UnsafePointer<xmlChar>, _ attributes: UnsafePointer<UnsafePointer<xmlChar>?>?
    ) {
        if skipping > 0 {
            skipping += 1
            return
        }
        // A list's items and a row's cells are laid out by their list or row, whatever
        // their depth; what they hold follows the depth rule.
        switch frames.last {
        case .list(let ordered, let number) where Self.equal(name, "li"):
            return startItem(ordered: ordered, number: number)
        case .row:
            return startCell(header: Self.equal(name, "th"))
        default:
            break
        }
        let element = Self.elements[String(cString: name)] ?? .other
        if frames.count >= Self.deepest {
            if case .dropped = element {
                skipping = 1
            } else {
                pendingSpace = pendingSpace || (!blockIsEmpty && !endsInSpace)
                frames.append(.plain)
            }
            return
        }
        switch element {
        case .dropped:
            skipping = 1
        case .inline(let added):
            frames.append(.styled(saved: style))
            style.formUnion(added)
        case .lineBreak:
            // `<br><br><br>…` leaves one blank line at most.
            if !endsInBlankLine { append("\n", style: style) }
            pendingSpace = false
            skipping = 1
        case .rule:
            blockBreak()
            if inCell == 0 {
                let (first, rest) = lead()
                blocks.append(
                    RichBlock(
                        kind: .rule, lead: first, indent: rest, quoted: prefixes.contains("> "), runs: []))
            }
            skipping = 1
        case .image:
            let alt = Self.attribute(attributes, "alt").map(Self.trimmed) ?? ""
            words(
                alt.isEmpty ? "[image]" : "[image: \(TextSanitizer.singleLine(alt))]",
                style: style.union(.image))
            skipping = 1
        case .anchor:
            guard let href = Self.attribute(attributes, "href"), let target = resolve(href) else {
                return frames.append(.plain)
            }
            frames.append(.anchor(target: target, saved: style))
            style.formUnion(.link)
        case .heading(let level):
            blockBreak()
            heading = level
            frames.append(.heading)
        case .preformatted:
            blockBreak()
            preformatted += 1
            frames.append(.preformatted(saved: style))
            style.formUnion(.code)
        case .quote:
            blockBreak()
            prefixes.append("> ")
            frames.append(.quote)
        case .list(let ordered):
            startList(ordered: ordered, start: Self.attribute(attributes, "start"))
        case .row:
            startRow()
        case .table:
            blockBreak()
            tables.append([])
            frames.append(.table)
        case .tableSection, .block:
            blockBreak()
            frames.append(.block)
        case .other:
            frames.append(.plain)
        }
    }

    /// The element begun last ends.
    mutating func endElement() {
        if skipping > 0 {
            skipping -= 1
            return
        }
        guard let frame = frames.popLast() else { return }
        switch frame {
        case .plain:
            break
        case .styled(let saved):
            style = saved
        case .anchor(let target, let saved):
            style = saved
            links.append(target)
            // A space at the end of the link text goes after the number: `bar[1] baz`.
            let spaceAfter = pendingSpace
            append("[\(links.count)]", style: style.union(.linkNumber))
            pendingSpace = spaceAfter
        case .heading:
            blockBreak()
            heading = 0
        case .preformatted(let saved):
            style = saved
            blockBreak()
            preformatted -= 1
        case .quote:
            blockBreak()
            prefixes.removeLast()
        case .block:
            blockBreak()
        case .table:
            blockBreak()
            table(tables.removeLast())
        case .list:
            endList()
        case .item:
            blockBreak()
            // An empty item leaves its marker unused: it must not mark what follows.
            itemMarker = nil
        case .row(let cells):
            endRow(cells)
        case .cell(let start, let saved):
            endCell(start: start, saved: saved)
        }
    }

    /// Text (its entities decoded by the parser), in as many pieces as the parser likes.
    mutating func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        // Outside every element (a stray `<` before the first one) libxml2's tree builder
        // had nowhere to put text, and dropped it.
        guard skipping == 0, !frames.isEmpty else { return }
        // A row holds cells: text between them is in none.
        if case .row = frames.last { return }
        text(bytes)
    }

    /// Ends the elements still open (a document cut short) and returns what was written.
    mutating func finish() -> RichText {
        skipping = 0
        while !frames.isEmpty { endElement() }
        blockBreak()
        return RichText(blocks: blocks, links: links)
    }

    /// The value of attribute `name` among `attributes` (a valueless one is empty, as in
    /// libxml2's tree).
    static func attribute(_ attributes: UnsafePointer<UnsafePointer<xmlChar>?>?, _ name: StaticString)
        -> String?
    {
        guard var pair = attributes else { return nil }
        while let key = pair[0] {
            if equal(key, name) { return pair[1].map { String(cString: $0) } ?? "" }
            pair += 2
        }
        return nil
    }

    /// Whether a NUL-terminated name is `name`, without making a String of it.
    static func equal(_ bytes: UnsafePointer<xmlChar>, _ name: StaticString) -> Bool {
        name.withUTF8Buffer { expected in
            for (index, byte) in expected.enumerated() where bytes[index] != byte { return false }
            return bytes[expected.count] == 0
        }
    }
}
