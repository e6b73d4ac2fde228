import HeraldCore
import HeraldConfig

/// A page of text: the help (`?`), or the whole message of a failed feed.
extension PageModel: ReaderScreen {
    var kind: ScreenKind { .page }

    func perform(_ action: Action, count: Int?, in app: ReaderApp) { app.performOnPage(action, self, count: count) }

    func draw(into canvas: inout Canvas, in app: ReaderApp) {
        PageView(model: self, theme: app.theme, keymap: app.keymap).draw(into: &canvas)
    }
}

extension ReaderApp {
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
}
