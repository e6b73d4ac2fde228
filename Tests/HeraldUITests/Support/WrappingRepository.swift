import HeraldCore

/// A test repository that changes one or two behaviours of an in-memory library and passes
/// everything else through: conformers implement what they change, nothing more.
protocol WrappingRepository: ArticleRepository {
    var inner: InMemoryArticleRepository { get }
}

extension WrappingRepository {
    func feedSummaries() async throws -> [FeedSummary] { await inner.feedSummaries() }
    func articles(inFeed feedID: String, page: ArticlePage) async throws -> [ArticleSummary] {
        try await inner.articles(inFeed: feedID, page: page)
    }
    func article(id: String) async throws -> Article { try await inner.article(id: id) }
    func setRead(_ isRead: Bool, articleID: String) async throws {
        try await inner.setRead(isRead, articleID: articleID)
    }
    func setStarred(_ isStarred: Bool, articleID: String) async throws {
        try await inner.setStarred(isStarred, articleID: articleID)
    }
    func markFeedRead(_ feedID: String) async throws { try await inner.markFeedRead(feedID) }
    func markAllRead() async throws { await inner.markAllRead() }
    func search(_ query: String, limit: Int) async throws -> [SearchHit] {
        try await inner.search(query, limit: limit)
    }
}
