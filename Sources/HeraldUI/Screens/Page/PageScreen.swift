import HeraldCore
import HeraldConfig

/// A page of text: the help (`?`), or the whole message of a failed feed.
extension PageModel: ReaderScreen {
    var kind: ScreenKind { .page }

    func draw(into canvas: inout Canvas, in app: ReaderApp) {
        PageView(model: self, theme: app.theme, keymap: app.keymap).draw(into: &canvas)
    }
}

extension PageModel {
    /// Carries out an action the keymap found for a key on this screen.
    func perform(_ action: Action, count: Int?, in app: ReaderApp) {
        let lines = self.lines(width: app.size.width).count
        let visible = app.bodyRows
        switch action {
        case .down: self.scroll(by: count ?? 1, lineCount: lines, visible: visible)
        case .up: self.scroll(by: -(count ?? 1), lineCount: lines, visible: visible)
        case .pageDown: self.scroll(by: visible, lineCount: lines, visible: visible)
        case .pageUp: self.scroll(by: -visible, lineCount: lines, visible: visible)
        case .top: self.top = 0
        case .bottom: self.scroll(by: lines, lineCount: lines, visible: visible)
        case .back: app.back()
        default: app.unavailable(action)
        }
    }
}

