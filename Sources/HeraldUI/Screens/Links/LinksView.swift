import HeraldCore
public import HeraldConfig

/// Draws every link of an article: what it is (`article`, `[3]`, `podcast`), where it points,
/// and for media what the feed says of the file.
@MainActor
public struct LinksView {
    public var model: LinksModel
    public var theme: Theme
    /// The keys in force, for the hint line.
    public var keymap: Keymap = .standard

    public func draw(into canvas: inout Canvas) {
        let links = model.links
        let frame = ScreenFrame(
            title: "Herald · Links · " + model.title,
            status: "\(model.cursor.selected + 1)/\(links.count) links",
            hint: keymap.hint(for: .links), theme: theme)
        let rows = frame.draw(into: &canvas)
        let labelWidth = min(
            links.map { DisplayWidth.of($0.label) }.max() ?? 0, max(canvas.size.width / 3, 8))
        let body = ListBody(
            failure: nil, isLoaded: true, count: links.count, item: { links[$0] }, cursor: model.cursor,
            theme: theme, empty: "This article has no links.")
        body.draw(into: &canvas, rows: rows) { link, y, canvas in
            canvas.write(TextLayout.truncate(link.label, toWidth: labelWidth), x: 2, y: y, style: theme.label)
            let x = 2 + labelWidth + 2
            let used = canvas.write(link.url, x: x, y: y, style: theme.link)
            if !link.details.isEmpty { canvas.write(link.details, x: x + used + 1, y: y, style: theme.hint) }
        }
    }
}
