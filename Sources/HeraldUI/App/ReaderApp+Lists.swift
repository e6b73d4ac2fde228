import HeraldCore
import HeraldConfig

/// What the list screens share (their own keys are in `Screens/`): the moving keys, and what
/// an action with nothing to act on says.
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

    /// An action of the table that has nothing to act on here (none today: every binding
    /// is handled on its screens; this keeps a new binding from failing silently).
    func unavailable(_ action: Action) {
        message = "\(action.rawValue) does nothing here — ? for help"
    }

}

extension ArticleSource {
    /// The feed of a feed's list; nil for a virtual feed.
    var feedID: FeedID? {
        if case .feed(let id) = self { id } else { nil }
    }
}
