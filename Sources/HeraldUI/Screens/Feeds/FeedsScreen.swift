import HeraldCore
import HeraldConfig

/// The feed list: All articles, Unread, Starred, the query feeds, then the feeds, numbered.
/// The first screen; `q` here quits.
extension FeedListModel: ListScreen {
    var kind: ScreenKind { .feeds }
    var ownedEffects: Effects? { effects }

    func perform(_ action: Action, count: Int?, in app: ReaderApp) { app.performOnFeeds(action, count: count) }

    func draw(into canvas: inout Canvas, in app: ReaderApp) {
        FeedListView(model: self, theme: app.theme, keymap: app.keymap).draw(into: &canvas)
    }
}

extension ReaderApp {
    func performOnFeeds(_ action: Action, count: Int?) {
        let rows = feedList.rows.count
        // A number names a feed, as the numbers on screen do: `7 g` selects feed 7.
        if let count, action == .top || action == .bottom {
            selectFeed(count)
            return
        }
        if move(&feedList.cursor, action, count: count, rows: rows) { return }
        if reloads.perform(action, feed: feedList.selectedFeed?.id) { return }
        switch action {
        case .open:
            // A number names a feed: `7 Enter` opens the seventh feed.
            if let count, !selectFeed(count) { return }
            guard feedList.state.value != nil, let row = feedList.selected else {
                message = "The feeds are still loading."
                return
            }
            openList(row.list)
        case .nextUnread, .previousUnread:
            let direction: ListDirection = action == .nextUnread ? .forward : .backward
            guard let feed = feedList.feedWithUnread(from: feedList.selectedFeed?.id, direction) else {
                message = "No \(direction == .forward ? "later" : "earlier") feed has unread articles."
                return
            }
            feedList.select(.feed(feed.id), visible: bodyRows)
        case .markListRead:
            guard let row = feedList.selected else { return }
            writes.markListRead(row.list.source, list: nil)
        case .openInBrowser:
            guard let feed = feedList.selected?.feed else {
                message = "Select a feed to open its web site."
                return
            }
            guard let site = feed.siteURL, !site.isEmpty else {
                message = "\(feed.title) names no web site."
                return
            }
            open(ArticleLink(kind: .article, url: site))
        case .markAllRead: writes.askToMarkAllRead()
        case .showTags: showTags()
        case .quit: isFinished = true
        default: unavailable(action)
        }
    }

    /// Selects feed `number` (1 is the first, as numbered on screen); says so when there is
    /// no such feed.
    @discardableResult
    private func selectFeed(_ number: Int) -> Bool {
        guard feedList.feeds.indices.contains(number - 1) else {
            message = "No feed \(number): there are \(feedList.feeds.count)."
            return false
        }
        // Rows keep their numbers when sorted; a feed hidden by show-read-feeds has no row.
        guard let row = feedList.rows.firstIndex(where: { $0.number == number }) else {
            message =
                "Feed \(number) is hidden: it has no unread articles (set show-read-feeds yes shows it)."
            return false
        }
        feedList.cursor.select(row, count: feedList.rows.count, visible: bodyRows)
        return true
    }
}
