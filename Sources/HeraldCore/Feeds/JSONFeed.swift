public import Foundation

/// A feed as parsed from a document, before it is stored.
public struct ParsedFeed: Sendable, Hashable {
    public var title: String
    public var siteURL: String?
    public var feedURL: String?
    /// Who writes the feed (RSS `managingEditor`, `dc:creator`…, Atom `author`), as a name.
    public var author: String?
    /// The feed's own identifier (Atom `id`), when it has one.
    public var id: String?
    public var items: [ParsedItem]
    /// What was wrong with a document that was read all the same (malformed XML read in
    /// recovery mode, items past `InputLimits.itemsPerFeed` left out); empty for a sound one.
    public var warnings: [String]

    /// True when the document was broken and what could be read of it was read.
    public var readWithErrors: Bool { !warnings.isEmpty }

    /// The warning of a document with more items than `limit` (`InputLimits.itemsPerFeed`).
    static func tooManyItems(limit: Int) -> String {
        "more than \(limit) items: the first \(limit) were read, the rest left out"
    }

    public init(
        title: String, siteURL: String? = nil, feedURL: String? = nil, author: String? = nil,
        id: String? = nil,
        items: [ParsedItem], warnings: [String] = []
    ) {
        self.title = title
        self.siteURL = siteURL
        self.feedURL = feedURL
        self.author = author
        self.id = id
        self.items = items
        self.warnings = warnings
    }
}

/// One entry of a parsed feed.
public struct ParsedItem: Sendable, Hashable {
    /// Stable identity: the item's id, else its link, else a hash of title and date.
    public var id: String
    public var title: String
    public var link: String?
    public var author: String?
    public var published: Date?
    /// When the item was last updated, if the feed says.
    public var updated: Date?
    /// The body as plain text (paragraphs separated by blank lines).
    public var text: String
    /// The body as the feed gave it, when it was HTML (kept as the original).
    public var html: String?
    /// Media files attached to the item (podcast audio, video).
    public var enclosures: [Enclosure]
    /// The item's own picture (`itunes:image`, JSON Feed `image`, `media:thumbnail`), if any.
    public var image: String?

    public init(
        id: String, title: String, link: String? = nil, author: String? = nil,
        published: Date? = nil, updated: Date? = nil, text: String, html: String? = nil,
        enclosures: [Enclosure] = [], image: String? = nil
    ) {
        self.id = id
        self.title = title
        self.link = link
        self.author = author
        self.published = published
        self.updated = updated
        self.text = text
        self.html = html
        self.enclosures = enclosures
        self.image = image
    }
}

/// Why a feed document could not be read.
public enum FeedParseError: Error, Sendable, Equatable, CustomStringConvertible {
    case notJSON(String)
    case notAFeed(String)

    public var description: String {
        switch self {
        case .notJSON(let why): "not valid JSON: \(why)"
        case .notAFeed(let why): "not a feed: \(why)"
        }
    }

    /// What went wrong, without the kind of error before it.
    public var reason: String {
        switch self {
        case .notJSON(let why), .notAFeed(let why): why
        }
    }
}

/// Decodes JSON Feed 1.0 and 1.1 (https://jsonfeed.org/version/1.1).
public enum JSONFeedParser {
    /// JSON written in UTF-16 or UTF-32 (RFC 4627 allowed them; some servers still send
    /// them), as UTF-8; nil when it is not (UTF-8 needs nothing). Told by a byte-order mark,
    /// else by where the first two characters, ASCII in JSON, have their zero bytes. A
    /// truncated last character is dropped (`head` may be a prefix).
    static func utf8(_ data: Data) -> Data? {
        let b = Array(data.prefix(4))
        guard b.count >= 2 else { return nil }
        let encoding: String.Encoding
        var skip = 0
        switch (b.count >= 4 ? b[0..<4] : b[0..<2]).map({ $0 }) {
        case [0x00, 0x00, 0xFE, 0xFF]: (encoding, skip) = (.utf32BigEndian, 4)
        case [0xFF, 0xFE, 0x00, 0x00]: (encoding, skip) = (.utf32LittleEndian, 4)
        case let p where p.starts(with: [0xFE, 0xFF]): (encoding, skip) = (.utf16BigEndian, 2)
        case let p where p.starts(with: [0xFF, 0xFE]): (encoding, skip) = (.utf16LittleEndian, 2)
        case let p where p.count == 4 && p[0] == 0 && p[1] == 0 && p[2] == 0 && p[3] != 0:
            encoding = .utf32BigEndian
        case let p where p.count == 4 && p[0] != 0 && p[1] == 0 && p[2] == 0 && p[3] == 0:
            encoding = .utf32LittleEndian
        case let p where p[0] == 0 && p[1] != 0: encoding = .utf16BigEndian
        case let p where p[0] != 0 && p[1] == 0: encoding = .utf16LittleEndian
        default: return nil
        }
        let unit = encoding == .utf32BigEndian || encoding == .utf32LittleEndian ? 4 : 2
        let body = data.dropFirst(skip)
        let whole = body.prefix(body.count / unit * unit)
        guard let text = String(data: Data(whole), encoding: encoding) else { return nil }
        return Data(text.utf8)
    }

    /// Decodes a feed; past `InputLimits.itemsPerFeed` items the rest are not decoded (nor
    /// read into `JSONDecoder`'s map: `JSONFeedItemCut`) and the feed says so in `warnings`.
    public static func parse(_ data: Data) throws(FeedParseError) -> ParsedFeed {
        let maxItems = InputLimits.itemsPerFeed
        let (data, cut) = JSONFeedItemCut.cut(utf8(data) ?? data, limit: maxItems)
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch let error as DecodingError {
            throw .notJSON(Self.describe(error))
        } catch {
            throw .notJSON("\(error)")
        }
        guard document.version?.hasPrefix("https://jsonfeed.org/version/") == true else {
            throw .notAFeed("JSON without a jsonfeed.org version")
        }
        let feedAuthor = document.authors?.first?.name ?? document.author?.name
        // Attachment URLs should be absolute; relative ones are read against the feed itself.
        let base = document.feed_url ?? document.home_page_url
        let items = (document.items?.list ?? []).map { item in
            let title = TextSanitizer.singleLine(item.title ?? "").trimmingCharacters(in: .whitespaces)
            let published = item.date_published.flatMap(FeedDate.parseRFC3339)
            let link = item.url ?? item.external_url
            // content_text is the author's own plain text; else the HTML made readable.
            let body =
                item.content_text
                ?? item.content_html.map {
                    HTMLText.process($0, baseURL: link ?? document.home_page_url).text
                }
                ?? item.summary ?? ""
            return ParsedItem(
                id: item.id.map(\.text) ?? link ?? StableID.hash(title: title, date: published),
                title: title.isEmpty ? "(untitled)" : title,
                link: link.map(URLText.escapingUnsafe),
                author: (item.authors?.first?.name ?? item.author?.name ?? feedAuthor)
                    .map(TextSanitizer.singleLine),
                published: published,
                updated: item.date_modified.flatMap(FeedDate.parseRFC3339),
                text: TextSanitizer.multiLine(body), html: item.content_html,
                enclosures: Self.enclosures(item.attachments?.list ?? [], base: base),
                image: item.image?.text.flatMap { EnclosureList.url($0, base: base) }
                    ?? item.banner_image?.text.flatMap { EnclosureList.url($0, base: base) })
        }
        return ParsedFeed(
            title: TextSanitizer.singleLine(document.title ?? "(untitled feed)"),
            siteURL: document.home_page_url.map(URLText.escapingUnsafe),
            feedURL: document.feed_url.map(URLText.escapingUnsafe),
            author: feedAuthor.map(TextSanitizer.singleLine), items: items,
            warnings: cut || document.items?.isCut == true ? [ParsedFeed.tooManyItems(limit: maxItems)] : [])
    }

    private static func enclosures(_ attachments: [Attachment], base: String?) -> [Enclosure] {
        guard !attachments.isEmpty else { return [] }
        var list = EnclosureList()
        for attachment in attachments {
            list.add(
                url: attachment.url, base: base, type: attachment.mimeType, length: attachment.size,
                duration: attachment.duration, title: attachment.title)
        }
        return list.enclosures(duration: nil)
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .dataCorrupted(let context), .keyNotFound(_, let context),
            .typeMismatch(_, let context), .valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    // The wire format; names follow the spec's keys.
    private struct Document: Decodable {
        var version: String?
        var title: String?
        var home_page_url: String?
        var feed_url: String?
        var author: Author?
        var authors: [Author]?
        var items: Items?
    }

    /// The items, up to `InputLimits.itemsPerFeed`: the cut bytes hold no more, unless the
    /// document spelled `items` in a way the cut does not read (`"\u0069tems"`).
    private struct Items: Decodable {
        var list: [Item] = []
        var isCut = false

        init(from decoder: any Decoder) throws {
            let limit = InputLimits.itemsPerFeed
            var container = try decoder.unkeyedContainer()
            while !container.isAtEnd {
                guard list.count < limit else {
                    isCut = true
                    break
                }
                list.append(try container.decode(Item.self))
            }
        }
    }

    private struct Author: Decodable {
        var name: String?
    }

    private struct Item: Decodable {
        var id: FlexibleID?
        var url: String?
        var external_url: String?
        var title: String?
        var content_text: String?
        var content_html: String?
        var summary: String?
        var date_published: String?
        var date_modified: String?
        var author: Author?
        var authors: [Author]?
        var attachments: Attachments?
        var image: LenientString?
        var banner_image: LenientString?
    }

    /// An item's `attachments`, read leniently: a malformed attachment (a size written as a
    /// string, a missing URL) is skipped or partly read instead of failing the whole feed,
    /// and past `4 × EnclosureList.limit` the rest are not even decoded.
    private struct Attachments: Decodable {
        var list: [Attachment] = []
        init(from decoder: any Decoder) throws {
            guard var container = try? decoder.unkeyedContainer() else { return }
            while !container.isAtEnd, list.count < 4 * EnclosureList.limit {
                // `Attachment` never throws, so every element moves the container on.
                list.append(try container.decode(Attachment.self))
            }
        }
    }

    private struct Attachment: Decodable {
        var url: String?
        var mimeType: String?
        var title: String?
        var size: Int64?
        var duration: Int?

        private enum Key: String, CodingKey {
            case url, mime_type, title, size_in_bytes, duration_in_seconds
        }

        init(from decoder: any Decoder) throws {
            guard let container = try? decoder.container(keyedBy: Key.self) else { return }
            url = try? container.decodeIfPresent(String.self, forKey: .url)
            mimeType = try? container.decodeIfPresent(String.self, forKey: .mime_type)
            title = try? container.decodeIfPresent(String.self, forKey: .title)
            if let integer = try? container.decodeIfPresent(Int64.self, forKey: .size_in_bytes) {
                size = integer >= 0 ? integer : nil
            } else if let number = Self.number(container, .size_in_bytes), number >= 0, number < 9e18,
                number == number.rounded(.towardZero)
            {
                size = Int64(number)
            }
            if let number = Self.number(container, .duration_in_seconds), number >= 0, number < 1e9 {
                duration = Int(number)
            }
        }

        /// A number, written as JSON numbers should be or as a string of one.
        private static func number(_ container: KeyedDecodingContainer<Key>, _ key: Key) -> Double? {
            if let integer = try? container.decodeIfPresent(Int64.self, forKey: key) {
                return Double(integer)
            }
            if let number = try? container.decodeIfPresent(Double.self, forKey: key) { return number }
            if let text = try? container.decodeIfPresent(String.self, forKey: key) {
                return EnclosureList.length(text).map(Double.init)
            }
            return nil
        }
    }

    /// A string where feeds might put anything else (an image URL given as an object).
    private struct LenientString: Decodable {
        var text: String?
        init(from decoder: any Decoder) throws {
            text = try? decoder.singleValueContainer().decode(String.self)
        }
    }

    /// JSON Feed says ids are strings, but feeds in the wild publish numbers too.
    private struct FlexibleID: Decodable {
        var text: String
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let string = try? container.decode(String.self) {
                text = string
            } else if let int = try? container.decode(Int64.self) {
                text = String(int)
            } else {
                text = String(try container.decode(Double.self))
            }
        }
    }
}
