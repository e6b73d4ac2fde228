import HeraldCore
import HeraldConfig

/// An article list: a feed's, a virtual feed's (All articles, Unread, Starred), a tag's or a
/// query's, read in pages.
extension ArticleListModel: ListScreen {
    var kind: ScreenKind { .articles }
    var windowTitle: String? { list.title }
    var ownedEffects: Effects? { effects }

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

extension ArticleListModel {
    /// Carries out an action the keymap found for a key on this screen.
    func perform(_ action: Action, count: Int?, in app: ReaderApp) {
        if app.move(&self.cursor, action, count: count, rows: self.count) {
            self.ensureLoaded(visible: app.bodyRows)
            return
        }
        if app.reloads.perform(action, feed: self.list.source.feedID) { return }
        switch action {
        case .open:
            if let count {
                guard count <= self.count, count > 0 else {
                    app.message = "No row \(count): the list has \(self.count)."
                    return
                }
                self.cursor.select(count - 1, count: self.count, visible: app.bodyRows)
                self.ensureLoaded(visible: app.bodyRows)
                if self.selected == nil {
                    app.openRow(count - 1, of: self)
                    return
                }
            }
            guard let summary = self.selected else {
                // Typed ahead of the list's first window: the row opens once it is read.
                if self.count > 0 { app.openRow(self.cursor.selected, of: self) }
                return
            }
            app.openArticle(summary)
        case .back: app.back()
        case .nextUnread: app.nextUnread(in: self, .forward)
        case .previousUnread: app.nextUnread(in: self, .backward)
        case .nextFeed, .previousFeed: app.nextFeed(action == .nextFeed ? .forward : .backward, from: self)
        case .toggleRead:
            guard let summary = self.selected else { return }
            app.writes.setRead(!summary.isRead, summary)
        case .toggleStar:
            guard let summary = self.selected else { return }
            app.writes.setStarred(!summary.isStarred, summary)
        case .openInBrowser, .copyURL, .showLinks, .play:
            guard let summary = self.selected else { return }
            app.withArticle(summary) { article, body in
                app.performOnLinks(of: article, body: body, action, count: count)
            }
        case .markListRead: app.writes.markListRead(self.list.source, title: self.list.title, list: self)
        case .markAllRead: app.writes.askToMarkAllRead()
        case .showTags: app.showTags()
        case .toggleShowRead:
            app.settings.showReadArticles.toggle()
            app.openList(self.list, replacing: true)
            app.message =
                app.settings.showReadArticles ? "Showing every article." : "Hiding the articles already read."
        default: app.unavailable(action)
        }
    }
}

extension ReaderApp {
    /// Opens the article at a row outside the loaded window (`500 Enter`, or Enter typed
    /// before the list's first rows arrived), once read.
    fileprivate func openRow(_ row: Int, of model: ArticleListModel) {
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
