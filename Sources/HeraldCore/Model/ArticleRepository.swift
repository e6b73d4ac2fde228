/// Where the reader's view models get feeds and articles from.
///
/// Implementations live off the main actor (an actor, or the database actor) and hand back
/// only `Sendable` values, so a view model awaits them without blocking the UI. Lists come
/// in windows (keyset pages), never whole, so their cost does not grow with the library.
public protocol ArticleRepository: Sendable {
    /// Every feed with its total and unread counts and its tags, in display order.
    func feedSummaries() async throws -> [FeedSummary]
    /// How many articles are starred, and how many of those are unread.
    func starredCounts() async throws -> ArticleCounts
    /// How many articles a list has, and how many of them are unread (what the feed list
    /// shows for a query; feeds and tags sum their feeds' counts instead).
    func counts(in source: ArticleSource) async throws -> ArticleCounts
    /// A window of a list's articles in list order (newest first).
    func articles(in source: ArticleSource, page: ArticlePage) async throws -> [ArticleSummary]
    /// How many articles come before `key` in the list (its row, counted from 0). Costs
    /// the rows before it: where a nearby row is known, `rows(between:and:in:)` is cheaper.
    func position(of key: ArticleSortKey, in source: ArticleSource) async throws -> Int
    /// How many articles lie strictly between two keys of the list, in either order.
    func rows(between a: ArticleSortKey, and b: ArticleSortKey, in source: ArticleSource) async throws -> Int
    /// The first unread article strictly after `key` in `direction` (from the list's start,
    /// or its end going backward, when `key` is nil).
    func firstUnread(
        in source: ArticleSource, after key: ArticleSortKey?, direction: ListDirection
    ) async throws -> ArticleSummary?
    /// One whole article.
    func article(id: String) async throws -> Article
    /// Marks an article read or unread.
    func setRead(_ isRead: Bool, articleID: String) async throws
    /// Stars or unstars an article.
    func setStarred(_ isStarred: Bool, articleID: String) async throws
    /// Marks every article of a list read (a feed, a tag, everything …).
    func markRead(in source: ArticleSource) async throws
    /// Sets a flag on these articles in one write; returns the ids whose flag changed.
    func setFlag(_ flag: ArticleFlag, _ value: Bool, articleIDs: [String]) async throws -> [String]
    /// Sets a flag on every article of a list that lacks it, in one write; returns their ids.
    func setFlag(_ flag: ArticleFlag, _ value: Bool, in source: ArticleSource) async throws -> [String]
    /// Full-text search, best match first, ties newest first. Honours task cancellation: a
    /// cancelled search throws `CancellationError` instead of finishing.
    func search(_ query: String, limit: Int) async throws -> [SearchHit]
    /// The list that was open when the reader last closed (to select it on the next start).
    func lastOpenedList() async -> ArticleSource?
    /// Remembers the list being read.
    func setLastOpenedList(_ source: ArticleSource?) async
    /// Whether another connection (another process) changed the library since the last
    /// time this was asked; false the first time, and for a repository no other can write.
    func changedElsewhere() async -> Bool
}

extension ArticleRepository {
    /// Nothing else writes an in-memory repository.
    public func changedElsewhere() async -> Bool { false }

    /// The row of `key`, counted from `known` (a key whose row is `row`) when one is given:
    /// the cost is the rows between them, not every row above.
    public func position(
        of key: ArticleSortKey, in source: ArticleSource, near known: (key: ArticleSortKey, row: Int)?
    ) async throws -> Int {
        guard let known else { return try await position(of: key, in: source) }
        if key == known.key { return known.row }
        let between = try await rows(between: known.key, and: key, in: source)
        // Keys compare newest first; a list read oldest first has them the other way.
        let below = source.isOldestFirst ? key < known.key : known.key < key
        return below ? known.row + between + 1 : known.row - between - 1
    }

    /// Counts a list by reading it in pages: what a repository without a cheaper way does.
    public func counts(in source: ArticleSource) async throws -> ArticleCounts {
        var counts = ArticleCounts(total: 0, unread: 0)
        var page = ArticlePage.first(limit: 500)
        while true {
            let rows = try await articles(in: source, page: page)
            counts.total += rows.count
            counts.unread += rows.count { !$0.isRead }
            guard rows.count == 500, let last = rows.last else { return counts }
            page = .after(last.sortKey, limit: 500)
        }
    }

    /// Marks every article of a feed read.
    public func markFeedRead(_ feedID: FeedID) async throws { try await markRead(in: .feed(feedID)) }
    /// Marks every article of every feed read.
    public func markAllRead() async throws { try await markRead(in: .all) }
    /// A window of one feed's articles.
    public func articles(inFeed feedID: FeedID, page: ArticlePage) async throws -> [ArticleSummary] {
        try await articles(in: .feed(feedID), page: page)
    }
}

/// Which window of a list to read. List order is newest first: by published time (undated
/// articles by when they were first seen), ties broken by id.
public enum ArticlePage: Sendable, Hashable {
    /// The first `limit` articles.
    case first(limit: Int)
    /// The `limit` articles that follow `key` in list order.
    case after(ArticleSortKey, limit: Int)
    /// The `limit` articles that precede `key` in list order (returned in list order).
    case before(ArticleSortKey, limit: Int)
    /// The last `limit` articles (returned in list order).
    case last(limit: Int)
    /// `limit` articles from position `offset` (for rare far jumps only: it costs O(offset)).
    case offset(Int, limit: Int)
}

/// Where an article sits in list order: what keyset paging compares.
public struct ArticleSortKey: Sendable, Hashable, Comparable {
    /// Seconds since 1970 of the publication (or first-seen) time.
    public var time: Int64
    /// A tie-breaker unique within the library.
    public var id: String

    public init(time: Int64, id: String) {
        self.time = time
        self.id = id
    }

    /// List order: newer first, then by id descending. `a < b` means a comes first.
    ///
    /// Ids that are numbers (the library's row ids) compare as numbers, as SQLite orders
    /// them ("129" after "55"); other ids compare as text.
    public static func < (a: ArticleSortKey, b: ArticleSortKey) -> Bool {
        if a.time != b.time { return a.time > b.time }
        if let x = Int64(a.id), let y = Int64(b.id) { return x > y }
        return a.id > b.id
    }
}

/// One search result: the article's row and where it comes from.
public struct SearchHit: Sendable, Hashable, Identifiable {
    public var article: ArticleSummary
    public var feedTitle: String
    public var id: String { article.id }

    public init(article: ArticleSummary, feedTitle: String) {
        self.article = article
        self.feedTitle = feedTitle
    }
}

/// Errors a repository reports in words a reader can act on.
public enum RepositoryError: Error, Sendable, Equatable, CustomStringConvertible {
    case noSuchFeed(String)
    case noSuchArticle(String)

    public var description: String {
        switch self {
        case .noSuchFeed(let id): "no feed \(id)"
        case .noSuchArticle(let id): "no article \(id)"
        }
    }
}

/// An error of a write that failed only because another program was writing the library at
/// the time (it held the lock past SQLite's busy timeout): the same write succeeds once that
/// program is done. The reader tries such a write again rather than undo the user's change.
public protocol LibraryBusyError: Error {
    /// True when the library was busy, and nothing else went wrong.
    var isLibraryBusy: Bool { get }
}
