/// Which articles a list shows: one feed, or a virtual feed made of many.
///
/// Every source is read the same way, newest first in keyset pages, so the river of all
/// articles costs what one feed does.
public enum ArticleSource: Sendable, Hashable, CustomStringConvertible {
    /// One feed, by its id.
    case feed(FeedID)
    /// Every article of every feed (the river).
    case all
    /// Every unread article.
    case unread
    /// Every starred article.
    case starred
    /// The articles of every feed with this tag.
    case tag(String)
    /// The articles matching a query of the query language (a config `query` line, a `:`
    /// command), by its text: parsed where it is read, so the key is the text as written.
    case query(String)
    /// The unread articles of a list (`set show-read-articles no`).
    indirect case unreadOf(ArticleSource)
    /// A list read oldest first (`set article-sort oldest`): the same rows, the other way.
    indirect case oldestFirst(ArticleSource)

    /// The unread articles of this list: Unread for All articles, itself when already unread.
    public var unreadOnly: ArticleSource {
        switch self {
        case .all, .unread: .unread
        case .unreadOf: self
        case .oldestFirst(let list): .oldestFirst(list.unreadOnly)
        default: .unreadOf(self)
        }
    }

    /// A stable text form, for saving which list was open (`feed:URL`, `all`, `tag:NAME` …).
    public var key: String {
        switch self {
        case .feed(let id): "feed:" + id.rawValue
        case .all: "all"
        case .unread: "unread"
        case .starred: "starred"
        case .tag(let name): "tag:" + name
        case .query(let text): "query:" + text
        case .unreadOf(let list): "unread-of:" + list.key
        case .oldestFirst(let list): "oldest-first:" + list.key
        }
    }

    /// Reads `key` back.
    public init?(key: String) {
        switch key {
        case "all": self = .all
        case "unread": self = .unread
        case "starred": self = .starred
        case _ where key.hasPrefix("feed:"): self = .feed(FeedID(String(key.dropFirst(5))))
        case _ where key.hasPrefix("tag:"): self = .tag(String(key.dropFirst(4)))
        case _ where key.hasPrefix("query:"): self = .query(String(key.dropFirst(6)))
        case _ where key.hasPrefix("unread-of:"):
            guard let list = ArticleSource(key: String(key.dropFirst(10))) else { return nil }
            self = .unreadOf(list)
        case _ where key.hasPrefix("oldest-first:"):
            guard let list = ArticleSource(key: String(key.dropFirst(13))) else { return nil }
            self = .oldestFirst(list)
        default: return nil
        }
    }

    /// True for a query's list (or its unread articles).
    public var isQuery: Bool {
        switch self {
        case .query: true
        case .unreadOf(let list), .oldestFirst(let list): list.isQuery
        default: false
        }
    }

    /// The list whatever its order (its rows, counts and marks are the same either way).
    public var unordered: ArticleSource {
        if case .oldestFirst(let list) = self { list } else { self }
    }

    /// True for a list read oldest first.
    public var isOldestFirst: Bool {
        if case .oldestFirst = self { true } else { false }
    }

    /// True for a list made of many feeds (its rows name their feed).
    public var isVirtual: Bool {
        switch self {
        case .feed: false
        case .unreadOf(let list), .oldestFirst(let list): list.isVirtual
        default: true
        }
    }

    /// The list in the order it is read: oldest first, or as it is.
    public func ordered(oldestFirst: Bool) -> ArticleSource {
        oldestFirst ? .oldestFirst(self) : self
    }

    public var description: String { key }

    /// The same list with its feed named another way (the library saves a list by its feed's
    /// address, which outlives a library rebuilt from an import); nil when `rename` has no
    /// name for the feed.
    public func renamingFeed(_ rename: (FeedID) -> FeedID?) -> ArticleSource? {
        switch self {
        case .feed(let id): rename(id).map(ArticleSource.feed)
        case .unreadOf(let list): list.renamingFeed(rename).map(ArticleSource.unreadOf)
        case .oldestFirst(let list): list.renamingFeed(rename).map(ArticleSource.oldestFirst)
        case .all, .unread, .starred, .tag, .query: self
        }
    }
}

extension ArticlePage {
    /// The same window asked of the list read the other way: what a list shown oldest first
    /// asks its newest-first list for (the rows come back in that list's order, to reverse).
    /// An offset is counted from the other end, so it needs the list's length, `total`.
    public func reversed(total: Int) -> ArticlePage {
        switch self {
        case .first(let limit): .last(limit: limit)
        case .last(let limit): .first(limit: limit)
        case .after(let key, let limit): .before(key, limit: limit)
        case .before(let key, let limit): .after(key, limit: limit)
        case .offset(let offset, let limit):
            .offset(max(total - offset - limit, 0), limit: max(min(limit, total - offset), 0))
        }
    }

    /// Whether `reversed(total:)` needs the list's length.
    public var isOffset: Bool {
        if case .offset = self { true } else { false }
    }
}

/// A list the article list screen can open, with its counts: a feed, or a virtual feed.
public struct ArticleListSummary: Sendable, Hashable, Identifiable {
    public var source: ArticleSource
    public var title: String
    public var total: Int
    public var unread: Int
    public var id: ArticleSource { source }

    public init(source: ArticleSource, title: String, total: Int, unread: Int) {
        self.source = source
        self.title = title
        self.total = total
        self.unread = unread
    }
}

/// Counts of a set of articles.
public struct ArticleCounts: Sendable, Hashable {
    public var total: Int
    public var unread: Int

    public init(total: Int, unread: Int) {
        self.total = total
        self.unread = unread
    }
}

/// Which way to look along a list: down (towards older articles) or up.
public enum ListDirection: Sendable, Hashable {
    case forward, backward
}
