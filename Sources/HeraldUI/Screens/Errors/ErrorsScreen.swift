import HeraldCore
import HeraldConfig

/// Why feeds failed, or were read with errors (`E`); Enter shows the whole message.
extension ReloadErrorsModel: ListScreen {
    var kind: ScreenKind { .errors }

    func perform(_ action: Action, count: Int?, in app: ReaderApp) { app.performOnErrors(action, self, count: count) }

    func draw(into canvas: inout Canvas, in app: ReaderApp) {
        ReloadErrorsView(model: self, theme: app.theme, keymap: app.keymap).draw(into: &canvas)
    }
}

extension ReaderApp {
    func performOnErrors(_ action: Action, _ model: ReloadErrorsModel, count: Int?) {
        if move(&model.cursor, action, count: count, rows: model.failures.count) { return }
        switch action {
        case .open:
            if let count { model.cursor.select(count - 1, count: model.failures.count, visible: bodyRows) }
            guard let failure = model.selected else { return }
            push(
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
}
