import CLibXML2
import Foundation

/// The SAX2 state machine that turns libxml2 events into a `ParsedFeed`.
///
/// Used from one thread for the length of one synchronous parse; libxml2 reaches it through
/// the parser's user-data pointer (an unretained `Unmanaged` reference that
/// `XMLFeedParser.parse` keeps alive for the whole parse).
final class XMLFeedBuilder {
    enum Format { case rss, rdf, atom }
    enum Kind { case text, html, xhtml }

    /// A value offered by several elements: the lowest rank wins, the first among equals.
    struct Slot<Value> {
        var value: Value?
        var rank = Int.max
        mutating func offer(_ candidate: Value?, rank: Int) {
            guard let candidate, rank < self.rank else { return }
            value = candidate
            self.rank = rank
        }
    }

    struct Body {
        var string: String
        var kind: Kind
        /// The xml:base in scope, when the document declared one.
        var base: String? = nil
    }

    /// Author ranks from here on name the feed but are not inherited by its items (RSS
    /// `webMaster`, Atom `contributor`).
    static let uninheritedAuthor = 6

    /// What a feed or an item collects.
    struct Record {
        var title = Slot<Body>()
        var link = Slot<String>()
        var selfLink = Slot<String>()
        var id = Slot<String>()
        var about: String?
        var author = Slot<String>()
        var published = Slot<String>()
        var updated = Slot<String>()
        var body = Slot<Body>()
        /// Media files (`enclosure`, Atom `rel="enclosure"`, `media:content`).
        var media = EnclosureList()
        /// The item's picture: `itunes:image` (rank 0) before `media:thumbnail` (rank 1).
        var image = Slot<String>()
        /// `itunes:duration`, for the files that do not give their own.
        var duration: Int?
    }

    enum Target {
        case title, link, id, author, published, updated, body, duration
        /// `media:title` inside a `media:content`: the title of that file (`Capture.enclosure`).
        case enclosureTitle
    }

    /// The element whose character data is being collected.
    struct Capture {
        var target: Target
        var rank: Int
        var kind: Kind
        var depth: Int
        var base: String?
        /// True when `base` comes from an xml:base of the document (not only its address).
        var baseIsDeclared = false
        var isPermaLink = false
        /// Depth of an Atom xhtml wrapper `<div>` left out of the content.
        var skippedDiv: Int?
        /// Plain text that may be HTML after all (`itunes:summary`): read as HTML when it
        /// holds tags.
        var mayBeHTML = false
        /// The file (index in `Record.media`) an `.enclosureTitle` names.
        var enclosure = 0
        /// Atom 0.3 `mode="base64"`: decoded when the element ends.
        var isBase64 = false
        /// HTML that may come as inline XHTML elements after all (Atom 0.3 `type="text/html"`
        /// in `mode="xml"`): read as XHTML when an element comes first.
        var mayBeInline = false
    }

    let maxTextBytes: Int
    /// Items read before the parse stops (`InputLimits.itemsPerFeed`).
    let maxItems: Int
    var parser: xmlParserCtxtPtr?

    // Outcome.
    var format: Format?
    var notAFeed: String?
    var tooMuchText = false
    /// The document has an item past `maxItems`: the parse stopped at its start, and the
    /// items before it are the feed's.
    var tooManyItems = false
    var firstError: (line: Int, message: String, code: Int32)?
    /// Reading a broken document in libxml2's recovery mode: errors become `warnings`,
    /// except those that end any parse (`XMLFeedParser.unrecoverable`).
    var recovering = false
    var warnings: [String] = []

    // Position.
    var depth = 0
    var inChannel = false
    var channelDepth = 0
    var itemDepth: Int?
    var authorDepth: Int?
    /// The rank of the open Atom person's name (its email ranks 4 below): author or contributor.
    var authorRank = 0
    /// The open `media:group` and `media:content` of the item, whose children say more.
    var mediaGroupDepth: Int?
    var mediaContent: (depth: Int, index: Int?)?
    var bases: [(depth: Int, base: String?)] = []
    var base: String?

    // Collected.
    var capture: Capture?
    /// The text of the element being captured (or the XHTML being serialised), and the
    /// document's running total of character data.
    ///
    /// `@exclusivity(unchecked)`: touched on every SAX `characters` event, where the run-time
    /// exclusivity check cost as much as the work. No access can overlap another: the builder
    /// belongs to one synchronous parse on one thread, libxml2 calls back only from inside
    /// `xmlParseChunk` and never during a callback, and no access to `text` calls out.
    @exclusivity(unchecked) var text: CapturedText
    var feed = Record()
    var item = Record()
    private(set) var items: [ParsedItem] = []

    // Entities declared by the document (internal only) and HTML names met on the way.
    var entityDoc: xmlDocPtr?
    var namespaces: [UnsafeRawPointer: XMLFeedNamespace] = [:]
    /// What elements without a namespace are: RSS, or Atom in a `<feed>` that has none.
    var unqualified = XMLFeedNamespace.none

    init(baseURL: String?, maxTextBytes: Int, maxItems: Int) {
        base = baseURL
        self.maxTextBytes = maxTextBytes
        self.maxItems = maxItems
        text = CapturedText(limit: maxTextBytes)
    }

    deinit {
        if let entityDoc { xmlFreeDoc(entityDoc) }
    }

    var isStopped: Bool {
        notAFeed != nil || tooMuchText || tooManyItems || (recovering && firstError != nil)
    }

    func stop() {
        text.isStopped = true
        if let parser { xmlStopParser(parser) }
    }

    // MARK: Namespaces

    func namespace(_ uri: UnsafePointer<xmlChar>?) -> XMLFeedNamespace {
        guard let uri else { return .none }
        // libxml2 interns namespace names in the parser's dictionary: one pointer per name.
        let key = UnsafeRawPointer(uri)
        if let known = namespaces[key] { return known }
        let name = String(cString: uri)
        let found = XMLFeedNamespace.table.first(where: { $0.0 == name })?.1 ?? .other
        namespaces[key] = found
        return found
    }

    // MARK: SAX events

    struct Attribute {
        var namespace: XMLFeedNamespace
        var prefix: String?
        var name: String
        var value: String
    }

    func attributes(
        _ count: Int32, _ raw: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) -> [Attribute] {
        guard count > 0, let raw else { return [] }
        var result: [Attribute] = []
        result.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let fields = raw + index * 5
            guard let local = fields[0], let start = fields[3], let end = fields[4] else { continue }
            let buffer = UnsafeBufferPointer(start: start, count: end - start)
            var value = String(decoding: buffer, as: UTF8.self)
            // Without entity substitution libxml2 hands "&amp;" in attributes over as "&#38;".
            if buffer.contains(UInt8(ascii: "&")) { value = XMLFeedText.decodeEntities(value) }
            result.append(
                Attribute(
                    namespace: namespace(fields[2]), prefix: fields[1].map { String(cString: $0) },
                    name: String(cString: local), value: value))
        }
        return result
    }

    func startElement(
        local: UnsafePointer<xmlChar>?, prefix: UnsafePointer<xmlChar>?, uri: UnsafePointer<xmlChar>?,
        attributeCount: Int32, rawAttributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard !isStopped, let local else { return }
        depth += 1
        var ns = namespace(uri)
        if ns == .none { ns = unqualified }
        let name = String(cString: local)
        let attrs = attributes(attributeCount, rawAttributes)
        if let xmlBase = attrs.first(where: { $0.namespace == .xml && $0.name == "base" }) {
            bases.append((depth - 1, base))
            base = XMLFeedText.resolve(xmlBase.value, against: base)
        }

        if capture != nil {
            markupStart(ns: ns, name: name, attributes: attrs)
            return
        }

        if depth == 1 {
            switch (ns, name) {
            case (let space, "rss") where space.isRSS || space == .other: format = .rss
            case (.rdf, "RDF"): format = .rdf
            case (let space, "feed") where space.isAtom || space == .none:
                format = .atom
                inChannel = true
                channelDepth = 1
                // A <feed> without a namespace is Atom all the same (0.3 when it says so).
                if space == .none {
                    let version = attrs.first(where: { $0.name == "version" && $0.namespace == .none })?.value
                    unqualified = version.map(XMLFeedText.trimmedSpaces) == "0.3" ? .atom03 : .atom10
                }
            default:
                let shown = prefix.map { String(cString: $0) + ":" + name } ?? name
                notAFeed = "the document is <\(shown)>, not an RSS, RDF or Atom feed"
                stop()
            }
            return
        }

        guard let format else { return }
        if itemDepth == nil {
            switch format {
            case .rss where name == "channel" && depth == 2 && ns.isRSS,
                .rdf where name == "channel" && depth == 2:
                inChannel = true
                channelDepth = depth
                return
            case .rss where name == "item" && ns.isRSS && (depth == 3 || depth == 2),
                .rdf where name == "item" && depth == 2,
                .atom where name == "entry" && depth == 2 && ns.isAtom:
                // One item too many: nothing more of the document is read. The ones kept are
                // the first, which feeds list newest first.
                guard items.count < maxItems else {
                    tooManyItems = true
                    stop()
                    return
                }
                itemDepth = depth
                item = Record()
                mediaGroupDepth = nil
                mediaContent = nil
                item.about = attrs.first(where: { $0.namespace == .rdf && $0.name == "about" })
                    .map { XMLFeedText.resolve($0.value, against: base) }
                return
            default: break
            }
        }

        if let itemDepth, depth == itemDepth + 1 {
            field(ns: ns, name: name, attrs: attrs, into: &item, isItem: true)
        } else if ns == .media, itemDepth != nil,
            depth - 1 == mediaGroupDepth || depth - 1 == mediaContent?.depth
        {
            mediaField(name: name, attrs: attrs, into: &item, isItem: true)
        } else if itemDepth == nil, inChannel, depth == channelDepth + 1 {
            field(ns: ns, name: name, attrs: attrs, into: &feed, isItem: false)
        } else if let authorDepth, depth == authorDepth + 1, ns.isAtom {
            switch name {
            case "name": begin(.author, rank: authorRank, kind: .text)
            case "email": begin(.author, rank: authorRank + 4, kind: .text)
            default: break
            }
        }
    }

    func endElement() {
        guard !isStopped, depth > 0 else { return }
        if let current = capture {
            if depth == current.depth {
                finishCapture(current)
            } else if current.kind != .text, depth != current.skippedDiv {
                serializeEnd()
            }
        }
        if depth == authorDepth { authorDepth = nil }
        if depth == mediaContent?.depth { mediaContent = nil }
        if depth == mediaGroupDepth { mediaGroupDepth = nil }
        if depth == itemDepth {
            finishItem()
            itemDepth = nil
        }
        if inChannel, depth == channelDepth { inChannel = false }
        if let last = bases.last, last.depth == depth - 1 {
            base = last.base
            bases.removeLast()
        }
        depth -= 1
    }

    func characters(_ run: UnsafePointer<xmlChar>?, _ length: Int32) {
        guard let run, length > 0 else { return }
        // Counted even when not captured (the cap is per document); a stopped parse takes no more.
        if !text.take(UnsafeBufferPointer(start: run, count: Int(length))) {
            tooMuchText = true
            stop()
        }
    }

    /// Elements open in the XHTML being serialised.
    var openTags: [String] = []

    // MARK: Items and the feed

    func finishItem() {
        let record = item
        item = Record()
        let body = record.body.value
        let html = body.flatMap { $0.kind == .html ? HTMLText.withBase($0.base, $0.string) : nil }
        // HTML bodies become text after the parse (`XMLFeedParser.parse`), with the real HTML
        // processor: it must not run inside libxml2's SAX callbacks.
        let text = body.map { $0.kind == .html ? "" : XMLFeedText.multiLine(Array($0.string.utf8)) } ?? ""
        let published = record.published.value.flatMap(FeedDate.parseAny)
        let updated = record.updated.value.flatMap(FeedDate.parseAny)
        let title =
            title(of: record)
            ?? XMLFeedText.titleFromText(html.map { XMLFeedParser.roughText(fromHTML: $0) } ?? text)
            ?? "(untitled)"
        let link = record.link.value.map(URLText.escapingUnsafe)
        let date = published ?? updated
        let id =
            record.id.value.map(TextSanitizer.singleLine) ?? link ?? record.about
            ?? StableID.hash(title: title, date: date)
        items.append(
            ParsedItem(
                id: id, title: title, link: link, author: record.author.value, published: date,
                updated: updated, text: text, html: html,
                enclosures: record.media.enclosures(duration: record.duration),
                image: record.image.value.map(URLText.escapingUnsafe)))
    }

    func title(of record: Record) -> String? {
        guard let body = record.title.value else { return nil }
        let line: String
        switch body.kind {
        case .html, .xhtml: line = XMLFeedText.oneLine(XMLFeedParser.roughText(fromHTML: body.string))
        case .text where format == .atom: line = XMLFeedText.oneLine(body.string)
        case .text:
            // RSS titles are plain text in theory, but feeds escape entities twice, and some
            // write HTML: what feedparser takes for HTML is read as HTML. (Without a tag, that
            // reading is the decoding: skip the test.)
            let isHTML =
                body.string.utf8.contains(UInt8(ascii: "<")) && XMLFeedText.looksLikeHTML(body.string)
            line = XMLFeedText.oneLine(
                isHTML
                    ? XMLFeedParser.roughText(fromHTML: body.string) : XMLFeedText.decodeEntities(body.string)
            )
        }
        return line.isEmpty ? nil : line
    }

    func result() -> ParsedFeed {
        var items = self.items
        if let author = feed.author.value, feed.author.rank < Self.uninheritedAuthor {
            for index in items.indices where items[index].author == nil {
                items[index].author = author
            }
        }
        return ParsedFeed(
            title: title(of: feed) ?? "(untitled feed)", siteURL: feed.link.value.map(URLText.escapingUnsafe),
            feedURL: feed.selfLink.value.map(URLText.escapingUnsafe), author: feed.author.value,
            id: feed.id.value.map(TextSanitizer.singleLine), items: items)
    }
}
