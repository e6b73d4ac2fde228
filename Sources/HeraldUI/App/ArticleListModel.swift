public import HeraldCore

/// The articles of one feed, newest first.
@MainActor
public final class ArticleListModel {
    public let feed: FeedSummary
    public private(set) var state: ViewState<[ArticleSummary]> = .idle
    public var cursor = ListCursor()
    private let repository: any ArticleRepository

    public init(feed: FeedSummary, repository: any ArticleRepository) {
        self.feed = feed
        self.repository = repository
    }

    public var articles: [ArticleSummary] { state.value ?? [] }
    public var selected: ArticleSummary? {
        articles.indices.contains(cursor.selected) ? articles[cursor.selected] : nil
    }
    public var unreadCount: Int { articles.reduce(0) { $0 + ($1.isRead ? 0 : 1) } }

    public func load(in work: PendingWork) {
        state = .loading
        let feedID = feed.id
        work.start { [repository] in
            do {
                self.state = .loaded(try await repository.articles(inFeed: feedID))
            } catch {
                self.state = .failed("\(error)")
            }
        }
    }

    /// Reflects a read flag change in the visible list.
    public func setRead(_ isRead: Bool, articleID: String) {
        guard case .loaded(var articles) = state,
            let index = articles.firstIndex(where: { $0.id == articleID })
        else { return }
        articles[index].isRead = isRead
        state = .loaded(articles)
    }
}
