import HeraldCore

/// Walking through what is new: `n`/`p` (next/previous unread, on to the next feed), `J`/`K`
/// (next/previous article in the article view, next/previous feed in a list), and Space at
/// the end of an article.
///
/// Each step asks the repository (the list's window may not hold the article), then acts
/// only if the screen it started from is still on top: a key pressed meanwhile wins. The
/// screen is compared by identity with a reference held by the step (an identifier alone
/// could name a newer screen allocated where a closed one was).
extension ReaderApp {
    /// Where an unread article was found: the list it belongs to, the article, its row.
    struct Found {
        var list: ArticleListSummary
        var article: ArticleSummary
        var position: Int
    }

    func nextUnread(_ direction: ListDirection) {
        switch screen {
        case .articles(let list):
            // Like newsboat, n in a list opens the article; an unread selected row is the
            // first one it opens.
            if direction == .forward, let selected = list.selected, !selected.isRead {
                openArticle(selected)
                return
            }
            locateUnread(in: list, after: list.selected?.sortKey, direction) { found in
                guard case .articles(let current) = self.screen, current === list else { return }
                self.show(found, from: current)
                self.openArticle(found.article)
            }
        case .article(let viewer):
            switch screenUnder {
            case .articles(let list)?:
                locateUnread(in: list, after: viewer.summary.sortKey, direction) { found in
                    guard case .article(let current) = self.screen, current === viewer,
                        case .articles(let under)? = self.screenUnder, under === list
                    else { return }
                    self.stack.removeLast()
                    self.show(found, from: list)
                    self.openArticle(found.article)
                }
            case .search(let search)?:
                nextUnreadResult(search, direction, opening: true)
            default:
                message = "No list to go on in."
            }
        case .search(let search):
            nextUnreadResult(search, direction, opening: false)
        default:
            break
        }
    }

    /// The screen under the top one.
    var screenUnder: Screen? { stack.count >= 2 ? stack[stack.count - 2] : nil }

    /// Finds the next unread article of a list, or (for a feed) of the next feed with unread
    /// articles, and hands it to `found`; says so when there is none.
    private func locateUnread(
        in list: ArticleListModel, after key: ArticleSortKey?, _ direction: ListDirection,
        found: @escaping @MainActor (Found) -> Void
    ) {
        let source = list.readSource
        let summary = list.list
        // Rows are counted from the article we start from, when the list knows its row.
        let known = key.flatMap { key in list.row(of: key).map { (key: key, row: $0) } }
        work.start { [repository] in
            do {
                if let article = try await repository.firstUnread(
                    in: source, after: key, direction: direction)
                {
                    let position = try await repository.position(of: article.sortKey, in: source, near: known)
                    return found(Found(list: summary, article: article, position: position))
                }
                // A feed's list goes on to the next feed with unread articles (by the feed
                // list's counts; a count that was stale is skipped).
                var from = summary.source.feedID
                while from != nil, let next = self.feedList.feedWithUnread(from: from, direction) {
                    // Read as the next list will show it (unread only or every row, its order).
                    let feed = ArticleSource.feed(next.id)
                    let nextSource = (self.settings.showReadArticles ? feed : feed.unreadOnly).ordered(
                        oldestFirst: self.settings.oldestFirst)
                    if let article = try await repository.firstUnread(
                        in: nextSource, after: nil, direction: direction)
                    {
                        let position = try await repository.position(of: article.sortKey, in: nextSource)
                        return found(Found(list: next.list, article: article, position: position))
                    }
                    from = next.id
                }
                self.message =
                    direction == .forward ? "No more unread articles." : "No earlier unread article."
            } catch {
                self.message = "Could not look for unread articles: \(error)"
            }
        }
    }

    /// Puts a found article under the cursor of its list: the open list, or the next feed's
    /// list in its place (the feed list follows).
    private func show(_ found: Found, from list: ArticleListModel) {
        var target = list
        if found.list.source != list.list.source {
            target = openList(found.list, replacing: true)
            feedList.select(found.list.source, visible: bodyRows)
            message = "On to \(found.list.title)"
        }
        target.jump(to: found.article, at: found.position, visible: bodyRows, in: work)
    }

    /// `n`/`p` over search results: the next unread result after the selected one.
    private func nextUnreadResult(_ search: SearchModel, _ direction: ListDirection, opening: Bool) {
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
            stack.removeLast()
            openArticle(hits[index].article, highlight: search.query)
        }
    }

    /// `J`/`K` in the article view: the next or previous article of the list under it.
    func nextArticle(_ direction: ListDirection) {
        guard case .article(let viewer) = screen else { return }
        switch screenUnder {
        case .articles(let list)?:
            let key = viewer.summary.sortKey
            // A neighbour already in the list's window is opened at once.
            if let row = list.row(of: key),
                let next = list.article(at: row + (direction == .forward ? 1 : -1))
            {
                stack.removeLast()
                list.jump(to: next, at: row + (direction == .forward ? 1 : -1), visible: bodyRows, in: work)
                openArticle(next)
                return
            }
            let source = list.readSource
            let known = list.row(of: key).map { (key: key, row: $0) }
            work.start { [repository] in
                do {
                    let page: ArticlePage =
                        direction == .forward ? .after(key, limit: 1) : .before(key, limit: 1)
                    guard let article = try await repository.articles(in: source, page: page).first else {
                        self.message =
                            direction == .forward ? "This is the last article." : "This is the first article."
                        return
                    }
                    let position = try await repository.position(of: article.sortKey, in: source, near: known)
                    guard case .article(let current) = self.screen, current === viewer,
                        case .articles(let under)? = self.screenUnder, under === list
                    else { return }
                    self.stack.removeLast()
                    list.jump(to: article, at: position, visible: self.bodyRows, in: self.work)
                    self.openArticle(article)
                } catch {
                    self.message = "Could not read the list: \(error)"
                }
            }
        case .search(let search)?:
            let index = search.cursor.selected + (direction == .forward ? 1 : -1)
            guard search.hits.indices.contains(index) else {
                message = direction == .forward ? "This is the last result." : "This is the first result."
                return
            }
            search.cursor.select(index, count: search.hits.count, visible: searchRows)
            stack.removeLast()
            openArticle(search.hits[index].article, highlight: search.query)
        default:
            message = "No list to go on in."
        }
    }

    /// `J`/`K` in an article list: the next or previous row of the feed list, opened in its
    /// place.
    func nextFeed(_ direction: ListDirection, from list: ArticleListModel) {
        let rows = feedList.rows
        guard let index = rows.firstIndex(where: { $0.list.source == list.list.source }) else {
            message = "This list is not on the feed list (J/K move between its rows)."
            return
        }
        let next = index + (direction == .forward ? 1 : -1)
        guard rows.indices.contains(next) else {
            message = direction == .forward ? "This is the last feed." : "This is the first feed."
            return
        }
        feedList.cursor.select(next, count: rows.count, visible: bodyRows)
        openList(rows[next].list, replacing: true)
    }
}
