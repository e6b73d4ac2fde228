import HeraldCore
import HeraldConfig

/// An article's links (`L`): its page, its media, the links of its text, its picture.
extension LinksModel: ListScreen {
    var kind: ScreenKind { .links }

    func draw(into canvas: inout Canvas, in app: ReaderApp) {
        LinksView(model: self, theme: app.theme, keymap: app.keymap).draw(into: &canvas)
    }
}

extension LinksModel {
    /// Carries out an action the keymap found for a key on this screen.
    func perform(_ action: Action, count: Int?, in app: ReaderApp) {
        if app.move(&self.cursor, action, count: count, rows: self.links.count) { return }
        switch action {
        case .open, .openInBrowser:
            if let count { self.cursor.select(count - 1, count: self.links.count, visible: app.bodyRows) }
            guard let link = self.selected else { return }
            app.open(link)
        case .copyURL:
            guard let link = self.selected else { return }
            app.copy(link.url)
        case .back: app.back()
        default: app.unavailable(action)
        }
    }
}

