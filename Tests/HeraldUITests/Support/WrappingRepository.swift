import HeraldCore

/// A test repository that changes one or two behaviours of an in-memory library and passes
/// everything else through: conformers implement what they change, nothing more.
protocol WrappingRepository: ArticleRepository {
    var inner: InMemoryArticleRepository { get }
}

extension WrappingRepository {
    func feedSummaries() async throws -> [FeedSummary] { await inner.feedSummaries() }
    func starredCounts() async throws -> ArticleCounts { await inner.starredCounts() }
    func articles(in source: ArticleSource, page: ArticlePage) async throws -> [ArticleSummary] {
        try await inner.articles(in: source, page: page)
    }
    func position(of key: ArticleSortKey, in source: ArticleSource) async throws -> Int {
        try await inner.position(of: key, in: source)
    }
    func rows(between a: ArticleSortKey, and b: ArticleSortKey, in source: ArticleSource) async throws -> Int
    {
        try await inner.rows(between: a, and: b, in: source)
    }
    func firstUnread(in source: ArticleSource, after key: ArticleSortKey?, direction: ListDirection)
        async throws
        -> ArticleSummary?
    {
        try await inner.firstUnread(in: source, after: key, direction: direction)
    }
    func article(id: String) async throws -> Article { try await inner.article(id: id) }
    func setRead(_ isRead: Bool, articleID: String) async throws {
        try await inner.setRead(isRead, articleID: articleID)
    }
    func setStarred(_ isStarred: Bool, articleID: String) async throws {
        try await inner.setStarred(isStarred, articleID: articleID)
    }
    func markRead(in source: ArticleSource) async throws { try await inner.markRead(in: source) }
    func search(_ query: String, limit: Int) async throws -> [SearchHit] {
        try await inner.search(query, limit: limit)
    }
    func lastOpenedList() async -> ArticleSource? { await inner.lastOpenedList() }
    func setLastOpenedList(_ source: ArticleSource?) async { await inner.setLastOpenedList(source) }
}
