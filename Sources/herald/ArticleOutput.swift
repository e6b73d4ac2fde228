import Foundation
import HeraldCore

/// Prints article rows as aligned text or as JSON lines (sorted keys, for scripts).
///
/// Text goes to a terminal, so every string that came from a feed passes through
/// `TextSanitizer.singleLine` first; JSON escapes what it must and is printed as stored.
struct ArticleOutput {
    var json: Bool

    /// What `herald list` adds to a JSON row: `link` (null when there is none), the feed's
    /// `tags` and the article's `enclosures`.
    struct Details {
        var link: String?
        var tags: [String]
        var enclosures: [Enclosure]
    }

    let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// One article: a line of text, or a JSON object naming its feed by title and address.
    func print(_ article: ArticleSummary, feedTitle: String, feedURL: String, details: Details? = nil) {
        let published = article.published.map { $0.formatted(.iso8601) }
        if json {
            let row = Row(
                id: article.id, feed: feedTitle, feedURL: feedURL, title: article.title,
                author: article.author, published: published, read: article.isRead,
                starred: article.isStarred,
                details: details)
            if let data = try? encoder.encode(row) {
                Swift.print(JSONText.safe(String(decoding: data, as: UTF8.self)))
            }
        } else {
            let flags = (article.isRead ? " " : "N") + (article.isStarred ? "*" : " ")
            let day = published.map { String($0.prefix(10)) } ?? "          "
            let feed = TextLayout.truncate(TextSanitizer.singleLine(feedTitle), toWidth: 20)
            let pad = String(repeating: " ", count: max(0, 20 - DisplayWidth.of(feed)))
            Console.say("\(flags) \(day)  \(feed)\(pad)  \(TextSanitizer.singleLine(article.title))")
        }
    }

    /// One JSON line. `author` and `published` are left out when unknown (as they always
    /// were); `link` is written as null, so a script can tell "no link" from an older Herald.
    struct Row: Encodable {
        var id: String
        var feed: String
        var feedURL: String
        var title: String
        var author: String?
        var published: String?
        var read: Bool
        var starred: Bool
        var details: Details?

        enum Keys: String, CodingKey {
            case id, feed, feedURL = "feed_url", title, author, published, read, starred, link, tags,
                enclosures
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(id, forKey: .id)
            try container.encode(feed, forKey: .feed)
            try container.encode(feedURL, forKey: .feedURL)
            try container.encode(title, forKey: .title)
            try container.encodeIfPresent(author, forKey: .author)
            try container.encodeIfPresent(published, forKey: .published)
            try container.encode(read, forKey: .read)
            try container.encode(starred, forKey: .starred)
            guard let details else { return }
            if let link = details.link {
                try container.encode(link, forKey: .link)
            } else {
                try container.encodeNil(forKey: .link)
            }
            try container.encode(details.tags, forKey: .tags)
            try container.encode(details.enclosures.map(EnclosureRow.init), forKey: .enclosures)
        }
    }

    /// An enclosure as scripts see it (`list --json`, `parse --json`): `url`, `type`,
    /// `length`, `duration` (seconds), `title`; unknown fields left out. Its own type, so the
    /// printed shape does not follow changes to how enclosures are stored.
    struct EnclosureRow: Encodable {
        var url: String
        var type: String?
        var length: Int64?
        var duration: Int?
        var title: String?

        init(_ enclosure: Enclosure) {
            url = enclosure.url
            type = enclosure.type
            length = enclosure.length
            duration = enclosure.duration
            title = enclosure.title
        }
    }
}
