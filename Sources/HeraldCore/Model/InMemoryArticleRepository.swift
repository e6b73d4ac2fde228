/// An `ArticleRepository` held in memory: for tests and for reading feed files directly.
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

    public func feedSummaries() -> [FeedSummary] {
        storage.feeds.map { feed in
            let articles = storage.articlesByFeed[feed.id] ?? []
            return FeedSummary(
                feed: feed, total: articles.count,
                unread: articles.reduce(0) { $0 + ($1.summary.isRead ? 0 : 1) })
        }
    }

    public func articles(inFeed feedID: String) throws -> [ArticleSummary] {
        guard let articles = storage.articlesByFeed[feedID] else {
            throw RepositoryError.noSuchFeed(feedID)
        }
        return articles.map(\.summary)
    }

    public func article(id: String) throws -> Article {
        guard let (feedID, index) = storage.locate(id) else { throw RepositoryError.noSuchArticle(id) }
        return storage.articlesByFeed[feedID]![index]
    }

    public func setRead(_ isRead: Bool, articleID: String) throws {
        guard let (feedID, index) = storage.locate(articleID) else {
            throw RepositoryError.noSuchArticle(articleID)
        }
        storage.articlesByFeed[feedID]![index].summary.isRead = isRead
    }

    private struct Storage {
        var feeds: [Feed] = []
        var articlesByFeed: [String: [Article]] = [:]
        var feedOfArticle: [String: String] = [:]

        /// Feeds keep their insertion order; articles are kept newest first, undated last.
        mutating func insert(_ feed: Feed, _ articles: [Article]) {
            if let index = feeds.firstIndex(where: { $0.id == feed.id }) {
                feeds[index] = feed
            } else {
                feeds.append(feed)
            }
            let sorted = articles.sorted { a, b in
                switch (a.summary.published, b.summary.published) {
                case let (x?, y?): x > y
                case (_?, nil): true
                default: false
                }
            }
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
