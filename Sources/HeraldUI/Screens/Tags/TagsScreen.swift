import HeraldCore
import HeraldConfig

/// The tags (`t`): every tag with its counts; Enter opens the articles of its feeds.
extension TagListModel: ListScreen {
    var kind: ScreenKind { .tags }

    func draw(into canvas: inout Canvas, in app: ReaderApp) {
        TagListView(model: self, theme: app.theme, keymap: app.keymap).draw(into: &canvas)
    }
}

extension TagListModel {
    /// Carries out an action the keymap found for a key on this screen.
    func perform(_ action: Action, count: Int?, in app: ReaderApp) {
        if app.move(&self.cursor, action, count: count, rows: self.tags.count) { return }
        switch action {
        case .open:
            if let count { self.cursor.select(count - 1, count: self.tags.count, visible: app.bodyRows) }
            guard let tag = self.selected else { return }
            app.openList(tag)
        case .back: app.back()
        default: app.unavailable(action)
        }
    }
}

extension ReaderApp {
    func showTags() {
        let tags = feedList.tags
        guard !tags.isEmpty else {
            message =
                "No feed has a tag yet: herald add URL --tag NAME, or import an OPML or urls file with tags."
            return
        }
        push(.tags(TagListModel(tags: tags)))
    }

    /// `:tag NAME`: the articles of the feeds with the tag.
    func openTag(_ name: String) {
        guard let tag = feedList.tags.first(where: { $0.title == name }) else {
            let known = feedList.tags.map(\.title).prefix(8).joined(separator: ", ")
            message = "No feed has the tag \(name)" + (known.isEmpty ? "." : " (tags: \(known)).")
            return
        }
        openList(tag)
    }
}
