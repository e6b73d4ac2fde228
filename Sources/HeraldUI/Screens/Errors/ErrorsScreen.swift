import HeraldCore
import HeraldConfig

/// Why feeds failed, or were read with errors (`!`); Enter shows the whole message.
extension ReloadErrorsModel: ListScreen {
    var kind: ScreenKind { .errors }

    func draw(into canvas: inout Canvas, in app: ReaderApp) {
        ReloadErrorsView(model: self, theme: app.theme, keymap: app.keymap).draw(into: &canvas)
    }
}

extension ReloadErrorsModel {
    /// Carries out an action the keymap found for a key on this screen.
    func perform(_ action: Action, count: Int?, in app: ReaderApp) {
        if app.move(&self.cursor, action, count: count, rows: self.failures.count) { return }
        switch action {
        case .open:
            if let count { self.cursor.select(count - 1, count: self.failures.count, visible: app.bodyRows) }
            guard let failure = self.selected else { return }
            app.push(
                .page(
                    PageModel(
                        title: "Error · " + failure.title,
                        paragraphs: [
                            .init("Feed:", failure.title), .init("URL:", failure.url),
                            .init("Error:", failure.reason, role: .error),
                        ], labelWidth: 8)))
        case .back: app.back()
        default: app.unavailable(action)
        }
    }
}

