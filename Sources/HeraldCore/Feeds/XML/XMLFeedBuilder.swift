import CLibXML2
import Foundation

/// Namespaces the feed parser knows.
enum XMLFeedNamespace {
    case none, rss10, rss090, userlandRSS2, atom10, atom03, rdf, dc, dcterms, content, media,
        itunes, xml, xhtml, other

    static let table: [(String, XMLFeedNamespace)] = [
        ("http://www.w3.org/2005/Atom", .atom10),
        ("http://purl.org/atom/ns#", .atom03),
        ("http://www.w3.org/1999/02/22-rdf-syntax-ns#", .rdf),
        ("http://purl.org/rss/1.0/", .rss10),
        ("http://my.netscape.com/rdf/simple/0.9/", .rss090),
        ("http://backend.userland.com/rss2", .userlandRSS2),
        ("http://purl.org/dc/elements/1.1/", .dc),
        ("http://purl.org/dc/terms/", .dcterms),
        ("http://purl.org/rss/1.0/modules/content/", .content),
        ("http://search.yahoo.com/mrss/", .media),
        ("http://search.yahoo.com/mrss", .media),
        ("http://www.itunes.com/dtds/podcast-1.0.dtd", .itunes),
        ("http://www.w3.org/XML/1998/namespace", .xml),
        ("http://www.w3.org/1999/xhtml", .xhtml),
    ]

    var isRSS: Bool { self == .none || self == .rss10 || self == .rss090 || self == .userlandRSS2 }
    var isAtom: Bool { self == .atom10 || self == .atom03 }
}

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
    }

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
    }

    enum Target {
        case title, link, id, author, published, updated, body
    }

    /// The element whose character data is being collected.
    struct Capture {
        var target: Target
        var rank: Int
        var kind: Kind
        var depth: Int
        var base: String?
        var isPermaLink = false
        /// Depth of an Atom xhtml wrapper `<div>` left out of the content.
        var skippedDiv: Int?
    }

    let maxTextBytes: Int
    var parser: xmlParserCtxtPtr?

    // Outcome.
    var format: Format?
    var notAFeed: String?
    var tooMuchText = false
    var firstError: (line: Int, message: String)?

    // Position.
    private var depth = 0
    private var inChannel = false
    private var channelDepth = 0
    private var itemDepth: Int?
    private var authorDepth: Int?
    private var bases: [(depth: Int, base: String?)] = []
    private var base: String?

    // Collected.
    private var capture: Capture?
    private var bytes: [UInt8] = []
    private var textBytes = 0
    private var feed = Record()
    private var item = Record()
    private(set) var items: [ParsedItem] = []

    // Entities declared by the document (internal only) and HTML names met on the way.
    private var entityDoc: xmlDocPtr?
    private var namespaces: [UnsafeRawPointer: XMLFeedNamespace] = [:]

    init(baseURL: String?, maxTextBytes: Int) {
        base = baseURL
        self.maxTextBytes = maxTextBytes
        bytes.reserveCapacity(4096)
    }

    deinit {
        if let entityDoc { xmlFreeDoc(entityDoc) }
    }

    var isStopped: Bool { notAFeed != nil || tooMuchText }

    func stop() {
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
        let ns = namespace(uri)
        let name = String(cString: local)
        let attrs = attributes(attributeCount, rawAttributes)
        if let xmlBase = attrs.first(where: { $0.namespace == .xml && $0.name == "base" }) {
            bases.append((depth - 1, base))
            base = XMLFeedText.resolve(xmlBase.value, against: base)
        }

        if var current = capture {
            // Markup inside a collected element.
            guard current.kind != .text else { return }
            if current.kind == .xhtml, current.skippedDiv == nil, depth == current.depth + 1,
                ns == .xhtml, name == "div", bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D })
            {
                current.skippedDiv = depth
                capture = current
                bytes.removeAll(keepingCapacity: true)
                return
            }
            serializeStart(name: name, attributes: attrs)
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
                itemDepth = depth
                item = Record()
                item.about = attrs.first(where: { $0.namespace == .rdf && $0.name == "about" })
                    .map { XMLFeedText.resolve($0.value, against: base) }
                return
            default: break
            }
        }

        if let itemDepth, depth == itemDepth + 1 {
            field(ns: ns, name: name, attrs: attrs, into: &item, isItem: true)
        } else if itemDepth == nil, inChannel, depth == channelDepth + 1 {
            field(ns: ns, name: name, attrs: attrs, into: &feed, isItem: false)
        } else if let authorDepth, depth == authorDepth + 1, ns.isAtom {
            switch name {
            case "name": begin(.author, rank: 0, kind: .text)
            case "email": begin(.author, rank: 4, kind: .text)
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

    func characters(_ text: UnsafePointer<xmlChar>?, _ length: Int32) {
        guard !isStopped, let text, length > 0 else { return }
        textBytes += Int(length)
        if textBytes > maxTextBytes {
            tooMuchText = true
            stop()
            return
        }
        guard let current = capture else { return }
        let buffer = UnsafeBufferPointer(start: text, count: Int(length))
        if current.kind == .xhtml {
            appendEscaped(buffer)
        } else {
            bytes.append(contentsOf: buffer)
        }
    }

    // MARK: Fields

    private func field(ns: XMLFeedNamespace, name: String, attrs: [Attribute], into record: inout Record, isItem: Bool) {
        func attr(_ key: String) -> String? {
            attrs.first(where: { $0.name == key && ($0.namespace == .none || $0.namespace == ns) })?.value
        }
        switch ns {
        case let space where space.isRSS:
            switch name {
            case "title": begin(.title, rank: 0, kind: .text)
            case "link": begin(.link, rank: 0, kind: .text)
            case "guid" where isItem:
                begin(.id, rank: 0, kind: .text)
                capture?.isPermaLink = attr("isPermaLink")?.lowercased() != "false"
            case "description" where isItem: begin(.body, rank: 1, kind: .html)
            case "author": begin(.author, rank: 1, kind: .text)
            case "managingEditor" where !isItem: begin(.author, rank: 2, kind: .text)
            case "pubDate": begin(.published, rank: 0, kind: .text)
            default: break
            }
        case .atom10, .atom03:
            switch name {
            case "title": begin(.title, rank: 0, kind: atomKind(attrs, ns: ns) ?? .text)
            case "link": atomLink(attrs, ns: ns, into: &record)
            case "id": begin(.id, rank: 0, kind: .text)
            case "author": authorDepth = depth
            case "published", "issued": begin(.published, rank: 0, kind: .text)
            case "updated", "modified": begin(.updated, rank: 0, kind: .text)
            case "content" where isItem && attr("src") == nil:
                if let kind = atomKind(attrs, ns: ns) { begin(.body, rank: 0, kind: kind) }
            case "summary" where isItem:
                if let kind = atomKind(attrs, ns: ns) { begin(.body, rank: 1, kind: kind) }
            default: break
            }
        case .dc:
            switch name {
            case "title": begin(.title, rank: 1, kind: .text)
            case "creator": begin(.author, rank: 0, kind: .text)
            case "date": begin(.published, rank: 1, kind: .text)
            case "description" where isItem: begin(.body, rank: 2, kind: .text)
            default: break
            }
        case .dcterms:
            switch name {
            case "issued", "created": begin(.published, rank: 2, kind: .text)
            case "modified": begin(.updated, rank: 1, kind: .text)
            default: break
            }
        case .content where name == "encoded" && isItem:
            begin(.body, rank: 0, kind: .html)
        case .media:
            let kind: Kind = attr("type")?.lowercased() == "html" ? .html : .text
            switch name {
            case "title": begin(.title, rank: 2, kind: kind)
            case "description" where isItem: begin(.body, rank: 3, kind: kind)
            default: break
            }
        case .itunes where name == "author":
            begin(.author, rank: 3, kind: .text)
        default: break
        }
    }

    /// The kind of an Atom text construct (1.0 `type`, 0.3 MIME `type` and `mode`); nil for
    /// content that is not text (base64, images…).
    private func atomKind(_ attrs: [Attribute], ns: XMLFeedNamespace) -> Kind? {
        let type = attrs.first(where: { $0.name == "type" && $0.namespace == .none })?.value
            .lowercased().trimmingCharacters(in: .whitespaces) ?? "text"
        let mode = attrs.first(where: { $0.name == "mode" && $0.namespace == .none })?.value.lowercased()
        if mode == "base64" { return nil }
        switch type {
        case "text", "text/plain": return .text
        case "html": return .html
        case "text/html": return mode == "escaped" || ns == .atom10 ? .html : .xhtml
        case "xhtml", "application/xhtml+xml": return .xhtml
        default: return type.hasPrefix("text/") ? .text : nil
        }
    }

    private func atomLink(_ attrs: [Attribute], ns: XMLFeedNamespace, into record: inout Record) {
        func attr(_ key: String) -> String? {
            attrs.first(where: { $0.name == key && $0.namespace == .none })?.value
        }
        guard let href = attr("href") else { return }
        let url = XMLFeedText.resolve(href, against: base)
        let rel = attr("rel")?.lowercased() ?? "alternate"
        let type = attr("type")?.lowercased()
        let inRSS = format != .atom
        switch rel {
        case "alternate", "http://www.iana.org/assignments/relation/alternate":
            let htmlType = type == nil || type == "text/html" || type == "application/xhtml+xml"
            record.link.offer(url, rank: (inRSS ? 1 : 0) + (htmlType ? 0 : 1))
        case "self":
            record.selfLink.offer(url, rank: 0)
        default: break
        }
    }

    private func begin(_ target: Target, rank: Int, kind: Kind) {
        capture = Capture(target: target, rank: rank, kind: kind, depth: depth, base: base)
        bytes.removeAll(keepingCapacity: true)
    }

    private func finishCapture(_ current: Capture) {
        capture = nil
        let trimmed = String(decoding: XMLFeedText.trimmed(bytes[...]), as: UTF8.self)
        bytes.removeAll(keepingCapacity: true)
        guard !trimmed.isEmpty else { return }
        let isItem = itemDepth != nil
        func apply(_ change: (inout Record) -> Void) {
            if isItem { change(&item) } else { change(&feed) }
        }
        switch current.target {
        case .title:
            apply { $0.title.offer(Body(string: trimmed, kind: current.kind), rank: current.rank) }
        case .link:
            let url = XMLFeedText.resolve(trimmed, against: current.base)
            apply { $0.link.offer(url, rank: current.rank) }
        case .id:
            apply { $0.id.offer(trimmed, rank: current.rank) }
            if current.isPermaLink, trimmed.hasPrefix("http://") || trimmed.hasPrefix("https://") {
                apply { $0.link.offer(trimmed, rank: 3) }
            }
        case .author:
            apply { $0.author.offer(XMLFeedText.personName(trimmed), rank: current.rank) }
        case .published:
            apply { $0.published.offer(trimmed, rank: current.rank) }
        case .updated:
            apply { $0.updated.offer(trimmed, rank: current.rank) }
        case .body:
            let kind: Kind = current.kind == .text ? .text : .html
            apply { $0.body.offer(Body(string: trimmed, kind: kind), rank: current.rank) }
        }
    }

    // MARK: XHTML serialisation

    private static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
        "source", "track", "wbr",
    ]
    private var openTags: [String] = []

    private func serializeStart(name: String, attributes: [Attribute]) {
        openTags.append(name)
        bytes.append(UInt8(ascii: "<"))
        bytes.append(contentsOf: name.utf8)
        for attribute in attributes {
            bytes.append(UInt8(ascii: " "))
            if attribute.namespace == .xml { bytes.append(contentsOf: "xml:".utf8) }
            bytes.append(contentsOf: attribute.name.utf8)
            bytes.append(contentsOf: "=\"".utf8)
            for byte in attribute.value.utf8 {
                switch byte {
                case UInt8(ascii: "&"): bytes.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "\""): bytes.append(contentsOf: "&quot;".utf8)
                case UInt8(ascii: "<"): bytes.append(contentsOf: "&lt;".utf8)
                default: bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: ">"))
    }

    private func serializeEnd() {
        guard let name = openTags.popLast() else { return }
        if Self.voidElements.contains(name) { return }
        bytes.append(contentsOf: "</".utf8)
        bytes.append(contentsOf: name.utf8)
        bytes.append(UInt8(ascii: ">"))
    }

    private func appendEscaped(_ buffer: UnsafeBufferPointer<UInt8>) {
        for byte in buffer {
            switch byte {
            case UInt8(ascii: "&"): bytes.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): bytes.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): bytes.append(contentsOf: "&gt;".utf8)
            default: bytes.append(byte)
            }
        }
    }

    // MARK: Items and the feed

    private func finishItem() {
        let record = item
        item = Record()
        let body = record.body.value
        let html = body.flatMap { $0.kind == .html ? $0.string : nil }
        let text: String
        if let body {
            text = body.kind == .html
                ? XMLFeedParser.roughText(fromHTML: body.string) : XMLFeedText.multiLine(Array(body.string.utf8))
        } else {
            text = ""
        }
        let published = record.published.value.flatMap(FeedDate.parseAny)
        let updated = record.updated.value.flatMap(FeedDate.parseAny)
        let title = title(of: record) ?? XMLFeedText.titleFromText(text) ?? "(untitled)"
        let link = record.link.value
        let date = published ?? updated
        let id = record.id.value.map(TextSanitizer.singleLine) ?? link ?? record.about
            ?? StableID.hash(title: title, date: date)
        items.append(
            ParsedItem(
                id: id, title: title, link: link, author: record.author.value, published: date,
                updated: updated, text: text, html: html))
    }

    private func title(of record: Record) -> String? {
        guard let body = record.title.value else { return nil }
        let line: String
        switch body.kind {
        case .html, .xhtml: line = XMLFeedText.oneLine(XMLFeedParser.roughText(fromHTML: body.string))
        case .text:
            // RSS titles are plain text in theory, but feeds escape entities twice.
            line = XMLFeedText.oneLine(format == .atom ? body.string : XMLFeedText.decodeEntities(body.string))
        }
        return line.isEmpty ? nil : line
    }

    func result() -> ParsedFeed {
        var items = self.items
        if let author = feed.author.value {
            for index in items.indices where items[index].author == nil {
                items[index].author = author
            }
        }
        return ParsedFeed(
            title: title(of: feed) ?? "(untitled feed)", siteURL: feed.link.value,
            feedURL: feed.selfLink.value, items: items)
    }

    // MARK: Entities

    /// An internal entity the document declares. External entities are recorded with empty
    /// replacement text, so they are never fetched and expand to nothing.
    func declareEntity(name: UnsafePointer<xmlChar>?, type: Int32, content: UnsafeMutablePointer<xmlChar>?) {
        guard let name else { return }
        let internalKind = XML_INTERNAL_GENERAL_ENTITY.rawValue
        let external: Set<UInt32> = [
            XML_EXTERNAL_GENERAL_PARSED_ENTITY.rawValue, XML_EXTERNAL_GENERAL_UNPARSED_ENTITY.rawValue,
        ]
        let kind = UInt32(bitPattern: type)
        guard kind == internalKind || external.contains(kind) else { return }  // parameter entities: not kept
        let doc = entityTable()
        if kind == internalKind, let content {
            xmlAddDocEntity(doc, name, Int32(internalKind), nil, nil, content)
        } else {
            xmlAddDocEntity(doc, name, Int32(internalKind), nil, nil, "")
        }
    }

    /// A declared entity, else an HTML entity name (`&nbsp;`, `&eacute;`…) feeds use without
    /// declaring it; nil when unknown.
    func entity(_ name: UnsafePointer<xmlChar>?) -> xmlEntityPtr? {
        guard let name else { return nil }
        let doc = entityTable()
        if let found = xmlGetDocEntity(doc, name) { return found }
        let length = strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
        let nameBytes = Array(UnsafeBufferPointer(start: name, count: length))
        guard let value = XMLFeedText.namedEntity(nameBytes), let scalar = Unicode.Scalar(value) else {
            return nil
        }
        let replacement = "&#\(scalar.value);"
        return xmlAddDocEntity(doc, name, Int32(XML_INTERNAL_GENERAL_ENTITY.rawValue), nil, nil, replacement)
    }

    private func entityTable() -> xmlDocPtr {
        if let entityDoc { return entityDoc }
        let doc = xmlNewDoc("1.0")!
        xmlCreateIntSubset(doc, "entities", nil, nil)
        entityDoc = doc
        return doc
    }
}
