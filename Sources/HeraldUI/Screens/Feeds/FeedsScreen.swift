import HeraldCore
import HeraldConfig

/// The feed list: All articles, Unread, Starred, the query feeds, then the feeds, numbered.
/// The first screen; `q` here quits.
extension FeedListModel: ListScreen {
    var kind: ScreenKind { .feeds }
    var ownedEffects: Effects? { effects }

    func draw(into canvas: inout Canvas, in app: ReaderApp) {
        FeedListView(model: self, theme: app.theme, keymap: app.keymap).draw(into: &canvas)
    }
}

extension FeedListModel {
    /// Carries out an action the keymap found for a key on this screen.
    func perform(_ action: Action, count: Int?, in app: ReaderApp) {
        let rowCount = self.rows.count
        // A number names a feed, as the numbers on screen do: `7 g` selects feed 7.
        if let count, action == .top || action == .bottom {
            app.selectFeed(count)
            return
        }
        if app.move(&cursor, action, count: count, rows: rowCount) { return }
        if app.reloads.perform(action, feed: selectedFeed?.id) { return }
        switch action {
        case .open:
            // A number names a feed: `7 Enter` opens the seventh feed.
            if let count, !app.selectFeed(count) { return }
            guard state.value != nil, let row = selected else {
                app.message = "The feeds are still loading."
                return
            }
            app.openList(row.list)
        case .nextUnread, .previousUnread:
            let direction: ListDirection = action == .nextUnread ? .forward : .backward
            guard let feed = feedWithUnread(from: selectedFeed?.id, direction) else {
                app.message = "No \(direction == .forward ? "later" : "earlier") feed has unread articles."
                return
            }
            select(.feed(feed.id), visible: app.bodyRows)
        case .markListRead:
            guard let row = selected else { return }
            app.writes.markListRead(row.list.source, title: row.list.title, list: nil)
        case .openInBrowser:
            guard let feed = selected?.feed else {
                app.message = "Select a feed to open its web site."
                return
            }
            guard let site = feed.siteURL, !site.isEmpty else {
                app.message = "\(feed.title) names no web site."
                return
            }
            app.open(ArticleLink(kind: .article, url: site))
        case .markAllRead: app.writes.askToMarkAllRead()
        case .showTags: app.showTags()
        case .toggleShowRead:
            app.settings.showReadFeeds.toggle()
            app.applyDisplaySettings()
            app.message = app.settings.showReadFeeds ? "Showing every feed." : "Hiding the feeds with nothing unread."
        case .quit: app.isFinished = true
        default: app.unavailable(action)
        }
    }
}

extension ReaderApp {
    /// Selects feed `number` (1 is the first, as numbered on screen); says so when there is
    /// no such feed.
    @discardableResult
    fileprivate func selectFeed(_ number: Int) -> Bool {
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

    /// `:goto TEXT`: the next feed after the selected one whose title holds the text (any
    /// case), selected on the feed list.
    func gotoFeed(containing text: String) {
        let rows = feedList.rows
        let start = feedList.cursor.selected
        let order = rows.indices.map { (start + 1 + $0) % max(rows.count, 1) }
        guard let row = order.first(where: { rows[$0].feed?.title.localizedCaseInsensitiveContains(text) ?? false })
        else {
            message = "No feed's title holds \(text)."
            return
        }
        while stack.count > 1 { pop() }
        feedList.cursor.select(row, count: rows.count, visible: bodyRows)
    }
}
