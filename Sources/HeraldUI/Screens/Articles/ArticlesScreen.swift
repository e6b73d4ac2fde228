import HeraldCore
import HeraldConfig

/// An article list: a feed's, a virtual feed's (All articles, Unread, Starred), a tag's or a
/// query's, read in pages.
extension ArticleListModel: ListScreen {
    var kind: ScreenKind { .articles }
    var windowTitle: String? { list.title }
    var ownedEffects: Effects? { effects }

    func perform(_ action: Action, count: Int?, in app: ReaderApp) { app.performOnArticles(action, self, count: count) }

    func draw(into canvas: inout Canvas, in app: ReaderApp) {
        var view = ArticleListView(
            model: self, theme: app.theme, feedTitle: app.feedList.title(ofFeed:), keymap: app.keymap,
            highlighter: app.highlighter)
        if case .feed(let id) = list.source {
            view.feedError = app.feedList.feeds.first { $0.id == id }?.feed.lastError
        }
        view.draw(into: &canvas)
    }

    /// More rows may show: read them.
    func resized(in app: ReaderApp) { ensureLoaded(visible: app.bodyRows) }
}

extension ReaderApp {
    func performOnArticles(_ action: Action, _ model: ArticleListModel, count: Int?) {
        if move(&model.cursor, action, count: count, rows: model.count) {
            model.ensureLoaded(visible: bodyRows)
            return
        }
        if reloads.perform(action, feed: model.list.source.feedID) { return }
        switch action {
        case .open:
            if let count {
                guard count <= model.count, count > 0 else {
                    message = "No row \(count): the list has \(model.count)."
                    return
                }
                model.cursor.select(count - 1, count: model.count, visible: bodyRows)
                model.ensureLoaded(visible: bodyRows)
                if model.selected == nil {
                    openRow(count - 1, of: model)
                    return
                }
            }
            guard let summary = model.selected else {
                // Typed ahead of the list's first window: the row opens once it is read.
                if model.count > 0 { openRow(model.cursor.selected, of: model) }
                return
            }
            openArticle(summary)
        case .back: back()
        case .nextUnread: nextUnread(in: model, .forward)
        case .previousUnread: nextUnread(in: model, .backward)
        case .nextFeed, .previousFeed: nextFeed(action == .nextFeed ? .forward : .backward, from: model)
        case .toggleRead:
            guard let summary = model.selected else { return }
            writes.setRead(!summary.isRead, summary)
        case .toggleStar:
            guard let summary = model.selected else { return }
            writes.setStarred(!summary.isStarred, summary)
        case .openInBrowser, .copyURL, .showLinks, .play:
            guard let summary = model.selected else { return }
            withArticle(summary) { article, body in
                self.performOnLinks(of: article, body: body, action, count: count)
            }
        case .markListRead: writes.markListRead(model.list.source, list: model)
        case .markAllRead: writes.askToMarkAllRead()
        case .showTags: showTags()
        default: unavailable(action)
        }
    }

    /// Opens the article at a row outside the loaded window (`500 Enter`, or Enter typed
    /// before the list's first rows arrived), once read.
    private func openRow(_ row: Int, of model: ArticleListModel) {
        let source = model.list.source
        model.effects.run(.step, while: .onTop) { [repository] in
            await Result { try await repository.articles(in: source, page: .offset(row, limit: 1)).first }
        } then: { read in
            switch read {
            case .success(let article?):
                model.jump(to: article, at: row, visible: self.bodyRows)
                self.openArticle(article)
            case .success(nil): break
            case .failure(let error): self.message = "Could not read the list: \(error)"
            }
        }
    }

    /// Opens a list (a feed, a virtual feed, a tag) on a new article list screen.
    @discardableResult
    func openList(_ list: ArticleListSummary, replacing: Bool = false) -> ArticleListModel {
        let model = ArticleListModel(
            list: list, repository: repository, work: work, flags: flags, unreadOnly: !settings.showReadArticles,
            oldestFirst: settings.oldestFirst)
        if replacing, case .articles = screen { pop() }
        push(.articles(model))
        model.load(visible: bodyRows)
        let source = list.source
        work.start { [repository] in await repository.setLastOpenedList(source) }
        return model
    }
}
