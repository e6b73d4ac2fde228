import HeraldCore
import HeraldConfig

/// The search screen: the prompt takes text; the results take the list keys after Tab.
extension SearchModel: ReaderScreen {
    var kind: ScreenKind { focus == .query ? .search : .results }
    var windowTitle: String? { "search" }

    func draw(into canvas: inout Canvas, in app: ReaderApp) {
        SearchView(model: self, theme: app.theme, keymap: app.keymap, highlighter: app.highlighter).draw(
            into: &canvas)
    }

    func resized(in app: ReaderApp) { clamp(visible: app.searchRows) }

    var ownedEffects: Effects? { effects }

    /// The results take clicks once Tab has moved to them (the prompt is the first row).
    func clickableRows(in app: ReaderApp) -> (cursor: ListCursor, firstRow: Int, visible: Int)? {
        focus == .results ? (cursor, 2, app.searchRows) : nil
    }
}

extension SearchModel {
    /// Carries out an action the keymap found for a key on this screen.
    func perform(_ action: Action, count: Int?, in app: ReaderApp) {
        let rows = self.resultCount
        if app.move(&self.cursor, action, count: count, rows: rows, visible: app.searchRows) { return }
        switch action {
        case .open:
            if let count { self.cursor.select(count - 1, count: rows, visible: app.searchRows) }
            guard let hit = self.selected else { return }
            app.openArticle(hit.article, highlight: self.query)
        case .focusResults:
            if self.focus == .query, self.resultCount == 0 {
                app.message = "No results to move to yet."
            } else {
                self.focus = self.focus == .query ? .results : .query
            }
        case .search:
            self.focus = .query
        case .back: app.back()
        case .nextUnread: app.nextUnreadResult(self, .forward, opening: false)
        case .previousUnread: app.nextUnreadResult(self, .backward, opening: false)
        case .toggleRead:
            guard let hit = self.selected else { return }
            app.writes.setRead(!hit.article.isRead, hit.article)
        case .toggleStar:
            guard let hit = self.selected else { return }
            app.writes.setStarred(!hit.article.isStarred, hit.article)
        case .openInBrowser, .copyURL:
            guard let hit = self.selected else { return }
            app.withArticle(hit.article) { article, body in
                app.performOnLinks(of: article, body: body, action, count: count)
            }
        default: app.unavailable(action)
        }
    }
}

extension ReaderApp {
    /// `n`/`p` over search results: the next unread result after the selected one (from an
    /// article opened from search, it opens in the article's place).
    func nextUnreadResult(_ search: SearchModel, _ direction: ListDirection, opening: Bool) {
        let hits = search.hits
        let start = search.cursor.selected
        let indices =
            direction == .forward
            ? Array(hits.indices.filter { $0 > start }) : Array(hits.indices.filter { $0 < start }.reversed())
        guard let index = indices.first(where: { !hits[$0].article.isRead }) else {
            message = direction == .forward ? "No more unread results." : "No earlier unread result."
            return
        }
        search.cursor.select(index, count: hits.count, visible: searchRows)
        if opening {
            pop()
            openArticle(hits[index].article, highlight: search.query)
        }
    }
}
