import CLibXML2
import Foundation

/// Which element fills which field of a feed or an item, for RSS, RDF and Atom.
extension XMLFeedBuilder {
    func field(
        ns: XMLFeedNamespace, name: String, attrs: [Attribute], into record: inout Record, isItem: Bool
    ) {
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
                capture?.isPermaLink =
                    attr("isPermaLink").map(XMLFeedText.trimmedSpaces)?.lowercased() != "false"
            case "description" where isItem: begin(.body, rank: 1, kind: .html)
            case "enclosure" where isItem:
                record.media.add(
                    url: attr("url"), base: base, type: attr("type"),
                    length: EnclosureList.length(attr("length")))
            case "author": begin(.author, rank: 1, kind: .text)
            case "managingEditor" where !isItem: begin(.author, rank: 2, kind: .text)
            case "webMaster" where !isItem: begin(.author, rank: Self.uninheritedAuthor, kind: .text)
            case "pubDate": begin(.published, rank: 0, kind: .text)
            default: break
            }
        case .atom10, .atom03:
            switch name {
            case "title": beginAtomText(.title, rank: 0, attrs, ns: ns, orText: true)
            case "link": atomLink(attrs, ns: ns, into: &record)
            case "id": begin(.id, rank: 0, kind: .text)
            case "author":
                authorDepth = depth
                authorRank = 0
            case "contributor" where !isItem:
                authorDepth = depth
                authorRank = Self.uninheritedAuthor + 1
            case "published", "issued": begin(.published, rank: 0, kind: .text)
            case "updated", "modified": begin(.updated, rank: 0, kind: .text)
            case "content" where isItem && attr("src") == nil:
                beginAtomText(.body, rank: 0, attrs, ns: ns)
            case "summary" where isItem:
                beginAtomText(.body, rank: 1, attrs, ns: ns)
            default: break
            }
        case .dc:
            switch name {
            case "title": begin(.title, rank: 1, kind: .text)
            case "creator", "author": begin(.author, rank: 0, kind: .text)
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
            mediaField(name: name, attrs: attrs, into: &record, isItem: isItem)
        case .itunes:
            switch name {
            case "author": begin(.author, rank: 3, kind: .text)
            case "duration" where isItem: begin(.duration, rank: 0, kind: .text)
            case "image" where isItem:
                if let href = attr("href"), let url = EnclosureList.url(href, base: base) {
                    record.image.offer(url, rank: 0)
                }
            // Plain text by the spec, HTML in many feeds; below the item's own description (not
            // even read when one came first, as it usually does).
            case "summary" where isItem && record.body.rank > 3:
                begin(.body, rank: 3, kind: .text)
                capture?.mayBeHTML = true
            case "subtitle" where isItem && record.body.rank > 5:
                begin(.body, rank: 5, kind: .text)
                capture?.mayBeHTML = true
            default: break
            }
        default: break
        }
    }

    /// Media RSS, in the item or the channel, inside an item's `media:group`, or inside a
    /// `media:content` (whose `media:title` names that file).
    func mediaField(name: String, attrs: [Attribute], into record: inout Record, isItem: Bool) {
        func attr(_ key: String) -> String? {
            attrs.first(where: { $0.name == key && ($0.namespace == .none || $0.namespace == .media) })?.value
        }
        let inContent = isItem && depth - 1 == mediaContent?.depth
        switch name {
        case "title" where inContent:
            guard let index = mediaContent?.index else { return }
            begin(.enclosureTitle, rank: 0, kind: attr("type")?.lowercased() == "html" ? .html : .text)
            capture?.enclosure = index
        case "title":
            begin(.title, rank: 2, kind: attr("type")?.lowercased() == "html" ? .html : .text)
        case "description" where isItem && !inContent:
            begin(.body, rank: 4, kind: attr("type")?.lowercased() == "html" ? .html : .text)
        case "group" where isItem && mediaGroupDepth == nil && mediaContent == nil:
            mediaGroupDepth = depth
        case "content" where isItem && mediaContent == nil:
            let type = attr("type")
            let medium = attr("medium")?.lowercased()
            let isPicture = medium == "image" || (type?.lowercased().hasPrefix("image/") ?? false)
            let index = record.media.add(
                url: attr("url"), base: base, type: type, length: EnclosureList.length(attr("fileSize")),
                duration: attr("duration").flatMap(Enclosure.parseDuration), isPicture: isPicture)
            mediaContent = (depth, index)
        case "thumbnail" where isItem:
            // One rendition's thumbnail only when the item or group names none.
            if let href = attr("url"), let url = EnclosureList.url(href, base: base) {
                record.image.offer(url, rank: inContent ? 2 : 1)
            }
        default: break
        }
    }

    /// How an Atom text construct is written: 1.0 `type`, 0.3 MIME `type` and `mode` (which
    /// 1.0 documents use too: `mode="base64"` is decoded in either, as feedparser does).
    struct AtomText {
        var kind: Kind
        /// 0.3 `mode="base64"`: the characters are the base64 of the text.
        var isBase64 = false
        /// 0.3 `type="text/html"` in `mode="xml"`: HTML as text, or inline XHTML elements.
        var mayBeInline = false
    }

    /// How to read an Atom text construct; nil for content that is not text (images…).
    func atomText(_ attrs: [Attribute], ns: XMLFeedNamespace) -> AtomText? {
        let type =
            attrs.first(where: { $0.name == "type" && $0.namespace == .none })
            .map { XMLFeedText.trimmedSpaces($0.value.lowercased()) } ?? "text"
        let mode =
            attrs.first(where: { $0.name == "mode" && $0.namespace == .none })
            .map { XMLFeedText.trimmedSpaces($0.value.lowercased()) } ?? "xml"
        let base64 = mode == "base64"
        switch type {
        case "text", "text/plain": return AtomText(kind: .text, isBase64: base64)
        // HTML written as text (escaped, in base64, or simply as characters).
        case "html": return AtomText(kind: .html, isBase64: base64)
        case "text/html":
            return AtomText(kind: .html, isBase64: base64, mayBeInline: ns == .atom03 && mode == "xml")
        // Inline XHTML elements, unless escaped or encoded: then it is markup as text.
        case "xhtml", "application/xhtml+xml":
            return mode == "xml" ? AtomText(kind: .xhtml) : AtomText(kind: .html, isBase64: base64)
        default: return type.hasPrefix("text/") ? AtomText(kind: .text, isBase64: base64) : nil
        }
    }

    /// Starts collecting an Atom text construct; one that is not text is skipped, or read as
    /// text `orText` (titles).
    func beginAtomText(
        _ target: Target, rank: Int, _ attrs: [Attribute], ns: XMLFeedNamespace, orText: Bool = false
    ) {
        guard let construct = atomText(attrs, ns: ns) ?? (orText ? AtomText(kind: .text) : nil) else {
            return
        }
        begin(target, rank: rank, kind: construct.kind)
        capture?.isBase64 = construct.isBase64
        capture?.mayBeInline = construct.mayBeInline
    }

    func atomLink(_ attrs: [Attribute], ns: XMLFeedNamespace, into record: inout Record) {
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
        case "enclosure" where itemDepth != nil:
            record.media.add(
                url: href, base: base, type: type, length: EnclosureList.length(attr("length")),
                title: attr("title"))
        default: break
        }
    }

    func begin(_ target: Target, rank: Int, kind: Kind) {
        capture = Capture(target: target, rank: rank, kind: kind, depth: depth, base: base)
        capture?.baseIsDeclared = !bases.isEmpty
        text.bytes.removeAll(keepingCapacity: true)
        text.mode = kind == .xhtml ? .escape : .keep
    }

    func finishCapture(_ current: Capture) {
        capture = nil
        text.mode = .skip
        var trimmed = String(decoding: XMLFeedText.trimmed(text.bytes[...]), as: UTF8.self)
        text.bytes.removeAll(keepingCapacity: true)
        // Text that is no base64 of UTF-8 after all stays as written, as feedparser keeps it.
        // Decoded text is shorter than its base64, which counted against the document's cap.
        if current.isBase64, let decoded = XMLFeedText.base64Text(trimmed) {
            trimmed = XMLFeedText.trimmed(decoded)
        }
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
            let isHTML = current.kind != .text || (current.mayBeHTML && XMLFeedText.holdsTags(trimmed))
            // A body's links resolve against its xml:base; without one, against the item's link.
            let base = current.baseIsDeclared ? current.base : nil
            let body = Body(string: trimmed, kind: isHTML ? .html : .text, base: base)
            apply { $0.body.offer(body, rank: current.rank) }
        case .duration:
            if isItem, item.duration == nil { item.duration = Enclosure.parseDuration(trimmed) }
        case .enclosureTitle:
            guard isItem else { return }
            let title =
                current.kind == .text ? trimmed : XMLFeedParser.roughText(fromHTML: trimmed)
            item.media.setTitle(title, at: current.enclosure)
        }
    }
}
