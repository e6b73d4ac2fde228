import HeraldCore
public import HeraldConfig

/// Draws every tag with the unread and total counts of its feeds.
@MainActor
public struct TagListView {
    public var model: TagListModel
    public var theme: Theme
    /// The keys in force, for the hint line.
    public var keymap: Keymap = .standard

    public func draw(into canvas: inout Canvas) {
        let tags = model.tags
        let frame = ScreenFrame(
            title: "Herald · Tags",
            status: "\(model.cursor.selected + 1)/\(tags.count) tags",
            hint: keymap.hint(for: .tags), theme: theme)
        let rows = frame.draw(into: &canvas)
        let countWidth = tags.map { DisplayWidth.of(FeedListView.counts($0)) }.max() ?? 0
        let body = ListBody(
            failure: nil, isLoaded: true, count: tags.count, item: { tags[$0] }, cursor: model.cursor,
            theme: theme,
            empty: "No tags.")
        body.draw(into: &canvas, rows: rows) { tag, y, canvas in
            let counts = FeedListView.counts(tag)
            let pad = String(repeating: " ", count: countWidth - DisplayWidth.of(counts))
            let x = 2 + canvas.write(pad + counts, x: 2, y: y, style: theme.read)
            canvas.write(tag.title, x: x + 2, y: y, style: tag.unread > 0 ? theme.unread : theme.read)
        }
    }
}
