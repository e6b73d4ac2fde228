public import HeraldCore
import Foundation

/// A feed as newsboat's `cache.db` knows it (table `rss_feed`).
public struct NewsboatCachedFeed: Sendable, Hashable {
    /// The feed's own address (`rssurl`), the one in the `urls` file.
    public var url: String
    public var title: String
    /// The web site (`url` in newsboat's table).
    public var siteURL: String

    public init(url: String, title: String, siteURL: String) {
        (self.url, self.title, self.siteURL) = (url, title, siteURL)
    }
}

/// An article as newsboat's `cache.db` holds it (table `rss_item`, `deleted = 0`).
public struct NewsboatCachedItem: Sendable, Hashable {
    public var guid: String
    public var title: String
    public var author: String
    public var link: String
    public var feedURL: String
    /// Seconds since 1970 (newsboat's `pubDate`); nil when it is no date (outside
    /// `InputLimits.dateSeconds`, or not a number).
    public var published: Int64?
    /// The body: HTML (newsboat keeps what the feed gave, as HTML).
    public var content: String
    public var unread: Bool
    public var enclosureURL: String?
    public var enclosureType: String?
    /// newsboat's flags: letters A–Z and a–z the user set with Ctrl-E.
    public var flags: String?
    /// The base URL (xml:base) the content's links resolve against, if any.
    public var base: String

    public init(
        guid: String, title: String, author: String, link: String, feedURL: String, published: Int64?,
        content: String, unread: Bool, enclosureURL: String? = nil, enclosureType: String? = nil,
        flags: String? = nil, base: String = ""
    ) {
        (self.guid, self.title, self.author, self.link, self.feedURL) = (guid, title, author, link, feedURL)
        (self.published, self.content, self.unread) = (published, content, unread)
        (self.enclosureURL, self.enclosureType, self.flags, self.base) = (
            enclosureURL, enclosureType, flags, base
        )
    }

    /// The date `published` says, nil when it says none or one outside
    /// `InputLimits.dateSeconds` (checked here too: the field is anyone's to set).
    var publishedDate: Date? {
        guard let published, InputLimits.dateSeconds.contains(published) else { return nil }
        return Date(timeIntervalSince1970: Double(published))
    }

    /// newsboat has no star: its flags are letters the user gives meaning to. Any flag
    /// counts as Herald's one flag, the star.
    public var isFlagged: Bool { flags?.contains(where: \.isLetter) ?? false }

    /// The article as a reload would have parsed it from the feed: HTML turned into text by
    /// the same processor, titles sanitised, the enclosure checked as the parsers check it,
    /// and the identity Herald's parser gives the item (see `heraldGUID`), so the next
    /// reload finds it instead of adding it again.
    public var parsedItem: ParsedItem {
        let date = publishedDate
        let link = self.link.isEmpty ? nil : URLText.escapingUnsafe(self.link)
        let base = self.base.isEmpty ? link : self.base
        let html =
            content.isEmpty ? nil : (self.base.isEmpty ? content : HTMLText.withBase(self.base, content))
        let text = html.map { HTMLText.process($0, baseURL: link).text } ?? ""
        var enclosures = EnclosureList()
        enclosures.add(url: enclosureURL, base: base, type: enclosureType)
        let title = TextSanitizer.singleLine(self.title).trimmingCharacters(in: .whitespaces)
        let author = TextSanitizer.singleLine(self.author).trimmingCharacters(in: .whitespaces)
        return ParsedItem(
            id: heraldGUID, title: title.isEmpty ? "(untitled)" : title, link: link,
            author: author.isEmpty ? nil : author, published: date, text: text, html: html,
            enclosures: enclosures.enclosures(duration: nil))
    }

    /// newsboat makes up a guid for an item without one: its link and date as the feed wrote
    /// it (`https://…/post2Tue, 01 Dec 2026 10:00:00 +0000`), else its title and date.
    /// Herald's parser uses the link, else a hash of title and date: the same choice is
    /// made here. A real guid is kept as it is.
    var heraldGUID: String {
        let date = publishedDate
        for (prefix, id) in [(link, link), (title, StableID.hash(title: title, date: date))]
        where !prefix.isEmpty {
            guard guid.hasPrefix(prefix), guid.count > prefix.count else { continue }
            let rest = String(guid.dropFirst(prefix.count))
            if FeedDate.parseAny(rest) != nil { return id.isEmpty ? guid : id }
        }
        return TextSanitizer.singleLine(guid)
    }
}

/// Why a file is not a newsboat cache Herald can read.
public struct NewsboatCacheError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) { (self.path, self.reason) = (path, reason) }

    public var description: String { "\(path) is not a newsboat cache: \(reason)" }
}
