import HeraldConfig
import HeraldCore

/// newsboat's `g` (sort) and `G` (rev-sort) on the feed list and the article lists: Herald's
/// orders are `feed-sort` and `article-sort`, set for the session as `:set` sets them.
extension ReaderApp {
    func sort(reversed: Bool) {
        switch screen {
        case .feeds:
            let orders: [(key: Character, word: String, sort: FeedSort)] = [
                ("a", "added", .config), ("t", "title", .title), ("u", "unread", .unread),
            ]
            var choices: [Character: @MainActor () -> Void] = [:]
            for order in orders {
                choices[order.key] = { [weak self] in
                    guard let self else { return }
                    self.run("set feed-sort \(order.sort.rawValue)")
                    self.feedList.reversed = reversed
                    self.message = "Feeds by \(order.word)\(reversed ? ", reversed" : "") (for this session: set feed-sort keeps it)."
                }
            }
            confirmation = Confirmation(
                question: "\(reversed ? "Reverse-sort" : "Sort") the feeds by (a)dded order, (t)itle, (u)nread articles?",
                action: {}, choices: choices)
        case .articles(let list):
            let reopen = { [weak self] (oldest: Bool) in
                guard let self else { return }
                self.run("set article-sort \(oldest ? "oldest" : "newest")")
                _ = self.openList(list.list, replacing: true)
                self.message = "Articles \(oldest ? "oldest" : "newest") first (for this session: set article-sort keeps it)."
            }
            if reversed {
                reopen(!settings.oldestFirst)
            } else {
                confirmation = Confirmation(
                    question: "Sort the articles (n)ewest first, (o)ldest first?", action: {},
                    choices: ["n": { reopen(false) }, "o": { reopen(true) }])
            }
        default:
            message = "Only the feed list and the article lists sort."
        }
    }
}
