public import HeraldCore

/// The feed list: every feed with its unread and total counts.
@MainActor
public final class FeedListModel {
    public private(set) var state: ViewState<[FeedSummary]> = .idle
    public var cursor = ListCursor()
    private let repository: any ArticleRepository

    public init(repository: any ArticleRepository) {
        self.repository = repository
    }

    public var feeds: [FeedSummary] { state.value ?? [] }
    public var selected: FeedSummary? {
        feeds.indices.contains(cursor.selected) ? feeds[cursor.selected] : nil
    }

    /// Loads the feeds off the main actor; the selection stays on the same feed.
    public func load(in work: PendingWork) {
        if state.value == nil { state = .loading }
        let keep = selected?.id
        work.start { [repository] in
            do {
                let feeds = try await repository.feedSummaries()
                self.state = .loaded(feeds)
                if let keep, let index = feeds.firstIndex(where: { $0.id == keep }) {
                    self.cursor = ListCursor(selected: index, top: self.cursor.top)
                }
            } catch {
                self.state = .failed("\(error)")
            }
        }
    }

    /// Fresh counts (after a reload): the selection stays on the same feed.
    public func replace(_ feeds: [FeedSummary]) {
        let keep = selected?.id
        state = .loaded(feeds)
        if let keep, let index = feeds.firstIndex(where: { $0.id == keep }) {
            cursor = ListCursor(selected: index, top: cursor.top)
        }
    }

    /// A feed marked read: its unread count drops to zero without a reload.
    public func feedRead(_ feedID: String) {
        guard case .loaded(var feeds) = state,
            let index = feeds.firstIndex(where: { $0.id == feedID })
        else { return }
        feeds[index].unread = 0
        state = .loaded(feeds)
    }

    /// Counts follow reading without a reload.
    public func articleRead(_ isRead: Bool, inFeed feedID: String) {
        guard case .loaded(var feeds) = state,
            let index = feeds.firstIndex(where: { $0.id == feedID })
        else { return }
        feeds[index].unread = max(0, feeds[index].unread + (isRead ? -1 : 1))
        state = .loaded(feeds)
    }
}
