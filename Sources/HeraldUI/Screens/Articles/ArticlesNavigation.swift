import HeraldCore

/// Walking an article list through what is new: `n`/`p` (next/previous unread, on to the
/// next feed with unread articles) and `J`/`K` (the next or previous feed's list in place).
///
/// A step that asks the repository (the list's window may not hold the article) is an effect
/// of the screen it started from that lives while that screen is on top (`Effects`): a key
/// that opened another screen meanwhile wins, and the step is dropped.
extension ReaderApp {
    /// Where an unread article was found: the list it belongs to, the article, its row.
    struct Found {
        var list: ArticleListSummary
        var article: ArticleSummary
        var position: Int
    }

    /// The screen under the top one.
    var screenUnder: Screen? { stack.count >= 2 ? stack[stack.count - 2] : nil }

    /// `n`/`p` in an article list.
    func nextUnread(in list: ArticleListModel, _ direction: ListDirection) {
        // Like newsboat, n in a list opens the article; an unread selected row is the first
        // one it opens.
        if direction == .forward, let selected = list.selected, !selected.isRead {
            openArticle(selected)
            return
        }
        locateUnread(in: list, after: list.selected?.sortKey, direction, for: list.effects) { found in
            self.show(found, from: list)
            self.openArticle(found.article)
        }
    }

    /// Finds the next unread article of a list, or (for a feed) of the next feed with unread
    /// articles, and hands it to `found` as an effect of `owner` (the screen on top); says so
    /// when there is none.
    func locateUnread(
        in list: ArticleListModel, after key: ArticleSortKey?, _ direction: ListDirection,
        for owner: Effects, found: @escaping @MainActor (Found) -> Void
    ) {
        let source = list.readSource
        let summary = list.list
        // Rows are counted from the article we start from, when the list knows its row.
        let known = key.flatMap { key in list.row(of: key).map { (key: key, row: $0) } }
        owner.run(.step, while: .onTop) { [repository] () -> Result<Found?, any Error> in
            await Result {
                if let article = try await repository.firstUnread(in: source, after: key, direction: direction) {
                    let position = try await repository.position(of: article.sortKey, in: source, near: known)
                    return Found(list: summary, article: article, position: position)
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
                        return Found(list: next.list, article: article, position: position)
                    }
                    from = next.id
                }
                return nil
            }
        } then: { outcome in
            switch outcome {
            case .success(let article?): found(article)
            case .success(nil):
                self.message = direction == .forward ? "No more unread articles." : "No earlier unread article."
            case .failure(let error): self.message = "Could not look for unread articles: \(error)"
            }
        }
    }

    /// Puts a found article under the cursor of its list: the open list, or the next feed's
    /// list in its place (the feed list follows).
    func show(_ found: Found, from list: ArticleListModel) {
        var target = list
        if found.list.source != list.list.source {
            target = openList(found.list, replacing: true)
            feedList.select(found.list.source, visible: bodyRows)
            message = "On to \(found.list.title)"
        }
        target.jump(to: found.article, at: found.position, visible: bodyRows)
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
