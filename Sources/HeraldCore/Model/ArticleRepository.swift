/// Where the reader's view models get feeds and articles from.
///
/// Implementations live off the main actor (an actor, or the database actor later) and hand
/// back only `Sendable` values, so a view model awaits them without blocking the UI.
public protocol ArticleRepository: Sendable {
    /// Every feed with its total and unread counts, in display order.
    func feedSummaries() async throws -> [FeedSummary]
    /// The articles of one feed, newest first.
    func articles(inFeed feedID: String) async throws -> [ArticleSummary]
    /// One whole article.
    func article(id: String) async throws -> Article
    /// Marks an article read or unread.
    func setRead(_ isRead: Bool, articleID: String) async throws
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
