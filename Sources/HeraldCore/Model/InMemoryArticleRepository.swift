import Foundation

/// An `ArticleRepository` held in memory: for tests, and for reading feed files directly.
public actor InMemoryArticleRepository: ArticleRepository {
    private var storage: Storage

    public init(feeds: [(Feed, [Article])] = []) {
        var storage = Storage()
        for (feed, articles) in feeds { storage.insert(feed, articles) }
        self.storage = storage
    }

    /// Adds (or replaces) a feed with its articles.
    public func add(_ feed: Feed, articles: [Article]) {
        storage.insert(feed, articles)
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

    public func articles(inFeed feedID: String, page: ArticlePage) throws -> [ArticleSummary] {
        guard let articles = storage.articlesByFeed[feedID] else {
            throw RepositoryError.noSuchFeed(feedID)
        }
        let keys = articles.map(\.summary.sortKey)
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
        return articles[range].map(\.summary)
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

    public func markFeedRead(_ feedID: String) throws {
        guard storage.articlesByFeed[feedID] != nil else { throw RepositoryError.noSuchFeed(feedID) }
        for index in storage.articlesByFeed[feedID]!.indices {
            storage.articlesByFeed[feedID]![index].summary.isRead = true
        }
    }

    public func markAllRead() {
        for feed in storage.feeds { try? markFeedRead(feed.id) }
    }

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
                guard words.allSatisfy({ word in haystack.contains { $0.range(of: word, options: options) != nil } })
                else { continue }
                let hit = SearchHit(article: article.summary, feedTitle: feed.title)
                if words.allSatisfy({ title.range(of: $0, options: options) != nil }) {
                    titleHits.append(hit)
                } else {
                    otherHits.append(hit)
                }
            }
        }
        return Array((titleHits + otherHits).prefix(limit))
    }

    private func update(_ articleID: String, _ change: (inout ArticleSummary) -> Void) throws {
        guard let (feedID, index) = storage.locate(articleID) else {
            throw RepositoryError.noSuchArticle(articleID)
        }
        change(&storage.articlesByFeed[feedID]![index].summary)
    }

    private struct Storage {
        var feeds: [Feed] = []
        var articlesByFeed: [String: [Article]] = [:]
        var feedOfArticle: [String: String] = [:]

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

        func locate(_ articleID: String) -> (String, Int)? {
            guard let feedID = feedOfArticle[articleID],
                let index = articlesByFeed[feedID]?.firstIndex(where: { $0.id == articleID })
            else { return nil }
            return (feedID, index)
        }
    }
}
