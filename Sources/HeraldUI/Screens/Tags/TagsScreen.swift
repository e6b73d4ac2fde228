import HeraldCore
import HeraldConfig

/// The tags (`t`): every tag with its counts; Enter opens the articles of its feeds.
extension TagListModel: ListScreen {
    var kind: ScreenKind { .tags }

    func perform(_ action: Action, count: Int?, in app: ReaderApp) { app.performOnTags(action, self, count: count) }

    func draw(into canvas: inout Canvas, in app: ReaderApp) {
        TagListView(model: self, theme: app.theme, keymap: app.keymap).draw(into: &canvas)
    }
}

extension ReaderApp {
    func performOnTags(_ action: Action, _ model: TagListModel, count: Int?) {
        if move(&model.cursor, action, count: count, rows: model.tags.count) { return }
        switch action {
        case .open:
            if let count { model.cursor.select(count - 1, count: model.tags.count, visible: bodyRows) }
            guard let tag = model.selected else { return }
            openList(tag)
        case .back: back()
        default: unavailable(action)
        }
    }

    func showTags() {
        let tags = feedList.tags
        guard !tags.isEmpty else {
            message =
                "No feed has a tag yet: herald add URL --tag NAME, or import an OPML or urls file with tags."
            return
        }
        push(.tags(TagListModel(tags: tags)))
    }
}
