import HeraldCore

/// Going on from an article through the list it was opened from: `n`/`p` (and Space at the
/// end) to the next or previous unread article, `J`/`K` to the next or previous one. The
/// viewer closes and the next article opens in its place, over the same list.
///
/// A step that asks the repository is an effect of the viewer that lives while it is on top
/// (`Effects`); the list under it cannot change while it is.
extension ReaderApp {
    /// `n`/`p` (and Space at the end) in the article view.
    func nextUnread(from viewer: ArticleViewModel, _ direction: ListDirection) {
        switch screenUnder {
        case .articles(let list)?:
            locateUnread(in: list, after: viewer.summary.sortKey, direction, for: viewer.effects) { found in
                self.pop()
                self.show(found, from: list)
                self.openArticle(found.article)
            }
        case .search(let search)?:
            nextUnreadResult(search, direction, opening: true)
        default:
            message = "No list to go on in."
        }
    }

    /// `J`/`K` in the article view: the next or previous article of the list under it.
    func nextArticle(from viewer: ArticleViewModel, _ direction: ListDirection) {
        switch screenUnder {
        case .articles(let list)?:
            let key = viewer.summary.sortKey
            let step = direction == .forward ? 1 : -1
            // A neighbour already in the list's window is opened at once.
            if let row = list.row(of: key), let next = list.article(at: row + step) {
                pop()
                list.jump(to: next, at: row + step, visible: bodyRows)
                openArticle(next)
                return
            }
            let source = list.readSource
            let known = list.row(of: key).map { (key: key, row: $0) }
            viewer.effects.run(.step, while: .onTop) { [repository] in
                await Result { () -> (article: ArticleSummary, position: Int)? in
                    let page: ArticlePage = direction == .forward ? .after(key, limit: 1) : .before(key, limit: 1)
                    guard let article = try await repository.articles(in: source, page: page).first else { return nil }
                    return (article, try await repository.position(of: article.sortKey, in: source, near: known))
                }
            } then: { read in
                switch read {
                case .success(let next?):
                    self.pop()
                    list.jump(to: next.article, at: next.position, visible: self.bodyRows)
                    self.openArticle(next.article)
                case .success(nil):
                    self.message = direction == .forward ? "This is the last article." : "This is the first article."
                case .failure(let error):
                    self.message = "Could not read the list: \(error)"
                }
            }
        case .search(let search)?:
            let index = search.cursor.selected + (direction == .forward ? 1 : -1)
            guard (0..<search.resultCount).contains(index) else {
                message = direction == .forward ? "This is the last result." : "This is the first result."
                return
            }
            search.cursor.select(index, count: search.resultCount, visible: searchRows)
            pop()
            openArticle(search.hit(at: index).article, highlight: search.query)
        default:
            message = "No list to go on in."
        }
    }
}
