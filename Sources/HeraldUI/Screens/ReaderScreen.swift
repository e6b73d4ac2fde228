import HeraldConfig
import HeraldCore

/// A screen of the reader: its state, the keys it answers and how it draws, together in a
/// folder of `Screens/`. The app is a stack of them (`ReaderApp.Screen`): it hands the one on
/// top each action the keymap finds, asks it for each frame, and tells it when the terminal
/// changes size or when it leaves. A new screen is a folder with its model conforming to
/// this, a case of `ReaderApp.Screen`, and its keys in `ActionTable`.
@MainActor
protocol ReaderScreen: AnyObject {
    /// The screen as the action table names it: which keys it takes, and its help.
    var kind: ScreenKind { get }
    /// What the window title names while it is open; nil for "Herald" alone.
    var windowTitle: String? { get }
    /// Carries out an action the keymap found for a key on this screen.
    func perform(_ action: Action, count: Int?, in app: ReaderApp)
    /// Draws the whole screen (title, body, status and hint lines) into the canvas.
    func draw(into canvas: inout Canvas, in app: ReaderApp)
    /// The terminal changed size (for any screen of the stack, not only the one on top).
    func resized(in app: ReaderApp)
    /// The screen left the stack (its effects are cancelled too).
    func leave()
    /// The work the screen has started (`Effects`): the app cancels what acts on the stack
    /// when another screen covers this one, and everything when it leaves.
    var ownedEffects: Effects? { get }
    /// The list a click selects in: its cursor, the screen row of its first visible row, and
    /// how many rows show; nil where a click selects nothing.
    func clickableRows(in app: ReaderApp) -> (cursor: ListCursor, firstRow: Int, visible: Int)?
}

extension ReaderScreen {
    var windowTitle: String? { nil }
    func resized(in app: ReaderApp) {}
    func leave() {}
    var ownedEffects: Effects? { nil }
    func clickableRows(in app: ReaderApp) -> (cursor: ListCursor, firstRow: Int, visible: Int)? { nil }
}

/// A screen that is one list under its title row (the feeds, an article list, the tags, the
/// links, the errors): a click selects in it.
protocol ListScreen: ReaderScreen {
    var cursor: ListCursor { get }
}

extension ListScreen {
    func clickableRows(in app: ReaderApp) -> (cursor: ListCursor, firstRow: Int, visible: Int)? {
        (cursor, 1, app.bodyRows)
    }
}

extension ReaderApp.Screen {
    /// The screen's state, keys and drawing: the one switch over the kinds of screen.
    var model: any ReaderScreen {
        switch self {
        case .feeds(let model): model
        case .articles(let model): model
        case .article(let model): model
        case .search(let model): model
        case .links(let model): model
        case .tags(let model): model
        case .errors(let model): model
        case .page(let model): model
        case .downloads(let model): model
        }
    }
}
