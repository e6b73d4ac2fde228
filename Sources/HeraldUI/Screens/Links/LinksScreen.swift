import HeraldCore
import HeraldConfig

/// An article's links (`L`): its page, its media, the links of its text, its picture.
extension LinksModel: ListScreen {
    var kind: ScreenKind { .links }

    func perform(_ action: Action, count: Int?, in app: ReaderApp) { app.performOnLinks(action, self, count: count) }

    func draw(into canvas: inout Canvas, in app: ReaderApp) {
        LinksView(model: self, theme: app.theme, keymap: app.keymap).draw(into: &canvas)
    }
}

extension ReaderApp {
    func performOnLinks(_ action: Action, _ model: LinksModel, count: Int?) {
        if move(&model.cursor, action, count: count, rows: model.links.count) { return }
        switch action {
        case .open, .openInBrowser:
            if let count { model.cursor.select(count - 1, count: model.links.count, visible: bodyRows) }
            guard let link = model.selected else { return }
            open(link)
        case .copyURL:
            guard let link = model.selected else { return }
            copy(link.url)
        case .back: back()
        default: unavailable(action)
        }
    }
}
