import Foundation

/// An `ArticleRepository` held in memory: for tests, and for reading feed files directly.
public actor InMemoryArticleRepository: ArticleRepository {
    private var storage: Storage
    private var lastOpened: ArticleSource?

    public init(feeds: [(Feed, [Article])] = []) {
        var storage = Storage()
        for (feed, articles) in feeds { storage.insert(feed, articles) }
        self.storage = storage
    }

    /// Adds (or replaces) a feed with its articles.
    public func add(_ feed: Feed, articles: [Article]) {
        storage.insert(feed, articles)
    }

    /// Records why a feed failed to load (nil: it loaded), as a library does after a reload.
    public func setFeedError(_ feedID: FeedID, _ error: String?) {
        guard let index = storage.feeds.firstIndex(where: { $0.id == feedID }) else { return }
        storage.feeds[index].lastError = error
    }

    /// Every feed with its articles, in list order (for importing into a store).
    public func contents() -> [(Feed, [Article])] {
        storage.feeds.map { ($0, storage.articlesByFeed[$0.id] ?? []) }
    }

    public func feedSummaries() -> [FeedSummary] {
        storage.feeds.map { feed in
            let articles = storage.articlesByFeed[feed.id] ?? []
            return FeedSummary(
                feed: feed, total: articles.count,
                unread: articles.reduce(0) { $0 + ($1.summary.isRead ? 0 : 1) })
        }
    }

    public func starredCounts() -> ArticleCounts {
        let starred = storage.feeds.flatMap { storage.articlesByFeed[$0.id] ?? [] }.filter(
            \.summary.isStarred)
        return ArticleCounts(total: starred.count, unread: starred.filter { !$0.summary.isRead }.count)
    }

    public func articles(in source: ArticleSource, page: ArticlePage) throws -> [ArticleSummary] {
        if case .oldestFirst(let list) = source {
            let total = page.isOffset ? try self.list(list).count : 0
            return try articles(in: list, page: page.reversed(total: total)).reversed()
        }
        let articles = try list(source)
        let keys = articles.map(\.sortKey)
        let range: Range<Int>
        switch page {
        case .first(let limit):
            range = 0..<min(limit, keys.count)
        case .after(let key, let limit):
            let start = keys.firstIndex { key < $0 } ?? keys.count
            range = start..<min(start + limit, keys.count)
        case .before(let key, let limit):
            let end = keys.firstIndex { !($0 < key) } ?? keys.count
            range = max(0, end - limit)..<end
        case .last(let limit):
            range = max(0, keys.count - limit)..<keys.count
        case .offset(let offset, let limit):
            let start = min(max(offset, 0), keys.count)
            range = start..<min(start + limit, keys.count)
        }
        return Array(articles[range])
    }

    public func position(of key: ArticleSortKey, in source: ArticleSource) throws -> Int {
        if case .oldestFirst(let list) = source {
            return try self.list(list).filter { key < $0.sortKey }.count
        }
        return try list(source).filter { $0.sortKey < key }.count
    }

    public func rows(between a: ArticleSortKey, and b: ArticleSortKey, in source: ArticleSource) throws -> Int
    {
        let (low, high) = a < b ? (a, b) : (b, a)
        return try list(source).filter { low < $0.sortKey && $0.sortKey < high }.count
    }

    public func firstUnread(
        in source: ArticleSource, after key: ArticleSortKey?, direction: ListDirection
    ) throws -> ArticleSummary? {
        if case .oldestFirst(let list) = source {
            return try firstUnread(
                in: list, after: key, direction: direction == .forward ? .backward : .forward)
        }
        let articles = try list(source).filter { !$0.isRead }
        switch direction {
        case .forward: return articles.first { key == nil || key! < $0.sortKey }
        case .backward: return articles.last { key == nil || $0.sortKey < key! }
        }
    }

    /// The rows of a list, in list order.
    private func list(_ source: ArticleSource) throws -> [ArticleSummary] {
        if case .oldestFirst(let list) = source { return try self.list(list).reversed() }
        if case .unreadOf(let list) = source { return try self.list(list).filter { !$0.isRead } }
        if case .feed(let feedID) = source {
            guard let articles = storage.articlesByFeed[feedID] else {
                throw RepositoryError.noSuchFeed(feedID.rawValue)
            }
            return articles.map(\.summary)
        }
        if case .query(let text) = source { return try matching(ArticleQuery.parse(text)) }
        let feeds = storage.feeds.filter { feed in
            if case .tag(let name) = source { return feed.tags.contains(name) }
            return true
        }
        let rows = feeds.flatMap { storage.articlesByFeed[$0.id] ?? [] }.map(\.summary).filter { summary in
            switch source {
            case .unread: !summary.isRead
            case .starred: summary.isStarred
            default: true
            }
        }
        return rows.sorted { $0.sortKey < $1.sortKey }
    }

    /// The rows matching a query, evaluated article by article as filters are, in one run of
    /// regular expressions (`RegexBudget`).
    private func matching(_ query: ArticleQuery) throws -> [ArticleSummary] {
        let now = Int64(Date().timeIntervalSince1970)
        let rows = try RegexBudget.scoped {
            try storage.feeds.flatMap { feed in
                try matching(query, in: feed, now: now)
            }
        }
        return rows.sorted { $0.sortKey < $1.sortKey }
    }

    private func matching(_ query: ArticleQuery, in feed: Feed, now: Int64) throws -> [ArticleSummary] {
        try (storage.articlesByFeed[feed.id] ?? []).filter { article in
            try query.matches(
                QueryFields(
                    title: article.summary.title, author: article.summary.author, text: article.text,
                    feedTitle: feed.title, feedURL: feed.url, tags: feed.tags,
                    isRead: article.summary.isRead,
                    isStarred: article.summary.isStarred, hasEnclosure: !article.enclosures.isEmpty,
                    time: article.summary.sortTime), now: now)
        }.map(\.summary)
    }

    public func article(id: String) throws -> Article {
        guard let (feedID, index) = storage.locate(id) else { throw RepositoryError.noSuchArticle(id) }
        return storage.articlesByFeed[feedID]![index]
    }

    public func setRead(_ isRead: Bool, articleID: String) throws {
        try update(articleID) { $0.isRead = isRead }
    }

    public func setStarred(_ isStarred: Bool, articleID: String) throws {
        try update(articleID) { $0.isStarred = isStarred }
    }

    public func markRead(in source: ArticleSource) throws {
        let ids = try list(source).map(\.id)
        for id in ids { try update(id) { $0.isRead = true } }
    }

    public func lastOpenedList() -> ArticleSource? { lastOpened }

    public func setLastOpenedList(_ source: ArticleSource?) { lastOpened = source }

    /// A plain scan: every word must occur (case and diacritics ignored) in the title,
    /// author or text; title matches rank first. Good enough for tests and small libraries.
    public func search(_ query: String, limit: Int) throws -> [SearchHit] {
        let words = query.split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return [] }
        let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
        var titleHits: [SearchHit] = []
        var otherHits: [SearchHit] = []
        for feed in storage.feeds {
            try Task.checkCancellation()
            for article in storage.articlesByFeed[feed.id] ?? [] {
                let title = article.summary.title
                let haystack = [title, article.summary.author ?? "", article.text]
                guard
                    words.allSatisfy({ word in
                        haystack.contains { $0.range(of: word, options: options) != nil }
                    })
                else { continue }
                let hit = SearchHit(article: article.summary, feedTitle: feed.title)
                if words.allSatisfy({ title.range(of: $0, options: options) != nil }) {
                    titleHits.append(hit)
                } else {
                    otherHits.append(hit)
                }
            }
        }
        // Equal rank: newest first.
        let newestFirst: (SearchHit, SearchHit) -> Bool = { $0.article.sortKey < $1.article.sortKey }
        return Array((titleHits.sorted(by: newestFirst) + otherHits.sorted(by: newestFirst)).prefix(limit))
    }

    private func update(_ articleID: String, _ change: (inout ArticleSummary) -> Void) throws {
        guard let (feedID, index) = storage.locate(articleID) else {
            throw RepositoryError.noSuchArticle(articleID)
        }
        change(&storage.articlesByFeed[feedID]![index].summary)
    }

    private struct Storage {
        var feeds: [Feed] = []
        var articlesByFeed: [FeedID: [Article]] = [:]
        var feedOfArticle: [String: FeedID] = [:]

        /// Feeds keep their insertion order; articles are kept in list order.
        mutating func insert(_ feed: Feed, _ articles: [Article]) {
            if let index = feeds.firstIndex(where: { $0.id == feed.id }) {
                feeds[index] = feed
            } else {
                feeds.append(feed)
            }
            let sorted = articles.sorted { $0.summary.sortKey < $1.summary.sortKey }
            articlesByFeed[feed.id] = sorted
            for article in sorted { feedOfArticle[article.id] = feed.id }
        }

        func locate(_ articleID: String) -> (FeedID, Int)? {
            guard let feedID = feedOfArticle[articleID],
                let index = articlesByFeed[feedID]?.firstIndex(where: { $0.id == articleID })
            else { return nil }
            return (feedID, index)
        }
    }
}
