import HeraldCore
import HeraldConfig

/// The search screen: the prompt takes text; the results take the list keys after Tab.
extension SearchModel: ReaderScreen {
    var kind: ScreenKind { focus == .query ? .search : .results }
    var windowTitle: String? { "search" }

    func perform(_ action: Action, count: Int?, in app: ReaderApp) { app.performOnSearch(action, self, count: count) }

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

extension ReaderApp {
    func performOnSearch(_ action: Action, _ model: SearchModel, count: Int?) {
        let rows = model.resultCount
        if move(&model.cursor, action, count: count, rows: rows, visible: searchRows) { return }
        switch action {
        case .open:
            if let count { model.cursor.select(count - 1, count: rows, visible: searchRows) }
            guard let hit = model.selected else { return }
            openArticle(hit.article, highlight: model.query)
        case .focusResults:
            if model.focus == .query, model.resultCount == 0 {
                message = "No results to move to yet."
            } else {
                model.focus = model.focus == .query ? .results : .query
            }
        case .search:
            model.focus = .query
        case .back: back()
        case .nextUnread: nextUnreadResult(model, .forward, opening: false)
        case .previousUnread: nextUnreadResult(model, .backward, opening: false)
        case .toggleRead:
            guard let hit = model.selected else { return }
            writes.setRead(!hit.article.isRead, hit.article)
        case .toggleStar:
            guard let hit = model.selected else { return }
            writes.setStarred(!hit.article.isStarred, hit.article)
        case .openInBrowser, .copyURL:
            guard let hit = model.selected else { return }
            withArticle(hit.article) { article, body in
                self.performOnLinks(of: article, body: body, action, count: count)
            }
        default: unavailable(action)
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
