public import Foundation

/// A feed's identity: the library's number for the feed (its address may change, as a
/// permanent redirect changes it, and the feed stays the same), or, for feeds read from
/// files (`--feeds DIR`) and in tests, its address itself.
public struct FeedID: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// The library's row number for the feed.
    public init(row: Int64) { self.rawValue = String(row) }
    /// Literals name feeds in tests and fixtures.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The library's row number, when the id is one.
    public var row: Int64? { Int64(rawValue) }
    public var description: String { rawValue }
}

/// A subscribed feed as the reader shows it.
public struct Feed: Sendable, Hashable, Identifiable {
    /// The feed's identity (see `FeedID`).
    public var id: FeedID
    /// Where the feed is read from: its URL, or a file's path.
    public var url: String
    public var title: String
    public var siteURL: String?
    /// Why the last attempt to read this feed failed, if it did.
    public var lastError: String?
    /// The user's tags for the feed (from `herald add --tag`, OPML folders, `urls` files).
    public var tags: [String]
    /// Not reloaded (the per-feed setting `disabled yes`).
    public var disabled = false

    public init(
        id: FeedID, url: String, title: String, siteURL: String? = nil, lastError: String? = nil,
        tags: [String] = []
    ) {
        self.id = id
        self.url = url
        self.title = title
        self.siteURL = siteURL
        self.lastError = lastError
        self.tags = tags
    }

    /// A feed whose address is its identity (read from a file, or made in a test).
    public init(
        url: String, title: String, siteURL: String? = nil, lastError: String? = nil, tags: [String] = []
    ) {
        self.init(id: FeedID(url), url: url, title: title, siteURL: siteURL, lastError: lastError, tags: tags)
    }
}

/// A feed with its article counts, one row of the feed list.
public struct FeedSummary: Sendable, Hashable, Identifiable {
    public var feed: Feed
    public var total: Int
    public var unread: Int
    public var id: FeedID { feed.id }

    public init(feed: Feed, total: Int, unread: Int) {
        self.feed = feed
        self.total = total
        self.unread = unread
    }

    /// The feed as a list the article list screen can open.
    public var list: ArticleListSummary {
        ArticleListSummary(source: .feed(feed.id), title: feed.title, total: total, unread: unread)
    }
}

/// One row of an article list: what is needed to draw it, without the body.
public struct ArticleSummary: Sendable, Hashable, Identifiable {
    public var id: String
    public var feedID: FeedID
    public var title: String
    public var author: String?
    public var published: Date?
    public var isRead: Bool
    public var isStarred: Bool
    /// Seconds since 1970 that place the article in list order: published, else first seen.
    public var sortTime: Int64

    public init(
        id: String, feedID: FeedID, title: String, author: String? = nil,
        published: Date? = nil, isRead: Bool = false, isStarred: Bool = false,
        sortTime: Int64? = nil
    ) {
        self.id = id
        self.feedID = feedID
        self.title = title
        self.author = author
        self.published = published
        self.isRead = isRead
        self.isStarred = isStarred
        self.sortTime = sortTime ?? published.flatMap(FeedDate.seconds) ?? 0
    }

    /// Where this article sits in list order.
    public var sortKey: ArticleSortKey { ArticleSortKey(time: sortTime, id: id) }
}

/// A whole article, as the article view shows it.
public struct Article: Sendable, Hashable, Identifiable {
    public var summary: ArticleSummary
    public var feedTitle: String
    public var link: String?
    /// The body as plain text: paragraphs separated by blank lines.
    public var text: String
    /// The body as the feed gave it, when that was HTML (the article view draws it rich).
    public var html: String?
    /// Media files attached to the article (podcast audio, video).
    public var enclosures: [Enclosure]
    /// The article's own picture, if the feed names one.
    public var image: String?
    /// The whole article read from its web page, or why it could not be (nil: never fetched).
    public var full: FullArticle?
    public var id: String { summary.id }

    /// The text the reader shows: the page's article when fetched and chosen, else the feed's.
    public var shownText: String { showsFullArticle ? full?.text ?? text : text }
    public var shownHTML: String? { showsFullArticle ? full?.html : html }
    public var showsFullArticle: Bool { full?.state == .whole && full?.shown == true }

    /// Where the text shown comes from, once the article's page was fetched (nil before):
    /// the article view's `Text:` line, and `herald show`'s.
    public var textSource: String? {
        guard let full else { return nil }
        let page = full.page == link ? "its web page" : full.page
        switch (full.state, full.shown) {
        case (.whole, true): return "the whole article, from \(page) (x: the feed's text)"
        case (.whole, false): return "the feed's (x: the whole article, from \(page))"
        case (.failed, _): return "the feed's; its page gave none: \(full.note ?? "no article")"
        }
    }

    public init(
        summary: ArticleSummary, feedTitle: String, link: String?, text: String, html: String? = nil,
        enclosures: [Enclosure] = [], image: String? = nil
    ) {
        self.summary = summary
        self.feedTitle = feedTitle
        self.link = link
        self.text = text
        self.html = html
        self.enclosures = enclosures
        self.image = image
    }
}
