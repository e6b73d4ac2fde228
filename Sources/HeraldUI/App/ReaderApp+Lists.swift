import HeraldCore
import HeraldConfig

/// The list screens: the feed list, an article list, the tags, the links and the errors.
extension ReaderApp {
    /// The moving keys every list shares, with a count (`5 j`, `7 g`); true when the action
    /// was one of them.
    func move(_ cursor: inout ListCursor, _ action: Action, count: Int?, rows: Int, visible: Int? = nil)
        -> Bool
    {
        let visible = visible ?? bodyRows
        switch action {
        case .down: cursor.move(by: count ?? 1, count: rows, visible: visible)
        case .up: cursor.move(by: -(count ?? 1), count: rows, visible: visible)
        case .pageDown: cursor.page(by: count ?? 1, count: rows, visible: visible)
        case .pageUp: cursor.page(by: -(count ?? 1), count: rows, visible: visible)
        case .top: cursor.select((count ?? 1) - 1, count: rows, visible: visible)
        case .bottom: cursor.select(count.map { $0 - 1 } ?? rows - 1, count: rows, visible: visible)
        default: return false
        }
        return true
    }

    func performOnFeeds(_ action: Action, count: Int?) {
        let rows = feedList.rows.count
        // A number names a feed, as the numbers on screen do: `7 g` selects feed 7.
        if let count, action == .top || action == .bottom {
            selectFeed(count)
            return
        }
        if move(&feedList.cursor, action, count: count, rows: rows) { return }
        if performReload(action, feed: feedList.selectedFeed?.id) { return }
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
            markListRead(row.list.source, list: nil)
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
        case .markAllRead: askToMarkAllRead()
        case .showTags: showTags()
        case .quit: isFinished = true
        default: unavailable(action)
        }
    }

    func performOnArticles(_ action: Action, _ model: ArticleListModel, count: Int?) {
        if move(&model.cursor, action, count: count, rows: model.count) {
            model.ensureLoaded(visible: bodyRows, in: work)
            return
        }
        if performReload(action, feed: model.list.source.feedID) { return }
        switch action {
        case .open:
            if let count {
                guard count <= model.count, count > 0 else {
                    message = "No row \(count): the list has \(model.count)."
                    return
                }
                model.cursor.select(count - 1, count: model.count, visible: bodyRows)
                model.ensureLoaded(visible: bodyRows, in: work)
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
        case .nextUnread: nextUnread(.forward)
        case .previousUnread: nextUnread(.backward)
        case .nextFeed, .previousFeed: nextFeed(action == .nextFeed ? .forward : .backward, from: model)
        case .toggleRead:
            guard let summary = model.selected else { return }
            setRead(!summary.isRead, summary)
        case .toggleStar:
            guard let summary = model.selected else { return }
            setStarred(!summary.isStarred, summary)
        case .openInBrowser, .copyURL, .showLinks, .play:
            guard let summary = model.selected else { return }
            withArticle(summary) { article, body in
                self.performOnLinks(of: article, body: body, action, count: count)
            }
        case .markListRead: markListRead(model.list.source, list: model)
        case .markAllRead: askToMarkAllRead()
        case .showTags: showTags()
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

    /// Opens the article at a row outside the loaded window (`500 Enter`, or Enter typed
    /// before the list's first rows arrived), once read.
    private func openRow(_ row: Int, of model: ArticleListModel) {
        let source = model.list.source
        work.start { [repository] in
            do {
                guard
                    let article = try await repository.articles(in: source, page: .offset(row, limit: 1))
                        .first,
                    case .articles(let current) = self.screen, current === model
                else { return }
                model.jump(to: article, at: row, visible: self.bodyRows, in: self.work)
                self.openArticle(article)
            } catch {
                self.message = "Could not read the list: \(error)"
            }
        }
    }

    func performOnTags(_ action: Action, _ model: TagListModel, count: Int?) {
        if move(&model.cursor, action, count: count, rows: model.tags.count) { return }
        switch action {
        case .open:
            if let count { model.cursor.select(count - 1, count: model.tags.count, visible: bodyRows) }
            guard let tag = model.selected else { return }
            openList(tag)
        case .back: back()
        default: unavailable(action)
        }
    }

    func performOnLinks(_ action: Action, _ model: LinksModel, count: Int?) {
        if move(&model.cursor, action, count: count, rows: model.links.count) { return }
        switch action {
        case .open, .openInBrowser:
            if let count { model.cursor.select(count - 1, count: model.links.count, visible: bodyRows) }
            guard let link = model.selected else { return }
            open(link)
        case .copyURL:
            guard let link = model.selected else { return }
            copy(link.url)
        case .back: back()
        default: unavailable(action)
        }
    }

    func performOnErrors(_ action: Action, _ model: ReloadErrorsModel, count: Int?) {
        if move(&model.cursor, action, count: count, rows: model.failures.count) { return }
        switch action {
        case .open:
            if let count { model.cursor.select(count - 1, count: model.failures.count, visible: bodyRows) }
            guard let failure = model.selected else { return }
            stack.append(
                .page(
                    PageModel(
                        title: "Error · " + failure.title,
                        paragraphs: [
                            .init("Feed:", failure.title), .init("URL:", failure.url),
                            .init("Error:", failure.reason, role: .error),
                        ], labelWidth: 8)))
        case .back: back()
        default: unavailable(action)
        }
    }

    func performOnPage(_ action: Action, _ model: PageModel, count: Int?) {
        let lines = model.lines(width: size.width).count
        let visible = bodyRows
        switch action {
        case .down: model.scroll(by: count ?? 1, lineCount: lines, visible: visible)
        case .up: model.scroll(by: -(count ?? 1), lineCount: lines, visible: visible)
        case .pageDown: model.scroll(by: visible, lineCount: lines, visible: visible)
        case .pageUp: model.scroll(by: -visible, lineCount: lines, visible: visible)
        case .top: model.top = 0
        case .bottom: model.scroll(by: lines, lineCount: lines, visible: visible)
        case .back: back()
        default: unavailable(action)
        }
    }

    /// An action of the table that has nothing to act on here (none today: every binding
    /// is handled on its screens; this keeps a new binding from failing silently).
    func unavailable(_ action: Action) {
        message = "\(action.rawValue) does nothing here — ? for help"
    }

    /// Opens a list (a feed, a virtual feed, a tag) on a new article list screen.
    @discardableResult
    func openList(_ list: ArticleListSummary, replacing: Bool = false) -> ArticleListModel {
        let model = ArticleListModel(
            list: list, repository: repository, unreadOnly: !settings.showReadArticles,
            oldestFirst: settings.oldestFirst)
        if replacing, case .articles = screen { stack.removeLast() }
        stack.append(.articles(model))
        model.load(visible: bodyRows, in: work)
        let source = list.source
        work.start { [repository] in await repository.setLastOpenedList(source) }
        return model
    }

    func showTags() {
        let tags = feedList.tags
        guard !tags.isEmpty else {
            message =
                "No feed has a tag yet: herald add URL --tag NAME, or import an OPML or urls file with tags."
            return
        }
        stack.append(.tags(TagListModel(tags: tags)))
    }
}

extension ArticleSource {
    /// The feed of a feed's list; nil for a virtual feed.
    var feedID: String? {
        if case .feed(let id) = self { id } else { nil }
    }
}
