import HeraldCore

/// The body every list screen shares: an error or empty message, or the visible window of
/// rows with the `>` marker on the selected one.
@MainActor
struct ListBody<Item: Sendable> {
    var state: ViewState<[Item]>
    var cursor: ListCursor
    var theme: Theme
    /// Shown when loading failed, before the error.
    var failure: String
    /// Shown when the list loaded empty.
    var empty: String

    /// Draws the body; `row` draws one item from column 2 on.
    func draw(into canvas: inout Canvas, rows: Range<Int>, row: (Item, _ y: Int, inout Canvas) -> Void) {
        if case .failed(let why) = state {
            ScreenFrame.message("\(failure): \(why)", style: theme.error, rows: rows, into: &canvas)
            return
        }
        let items = state.value ?? []
        if case .loaded = state, items.isEmpty {
            ScreenFrame.message(empty, style: theme.hint, rows: rows, into: &canvas)
            return
        }
        var cursor = cursor
        cursor.clamp(count: items.count, visible: rows.count)
        for (offset, y) in rows.enumerated() {
            let index = cursor.top + offset
            guard index < items.count else { break }
            if index == cursor.selected { canvas.write(">", x: 0, y: y, style: theme.marker) }
            row(items[index], y, &canvas)
        }
    }
}
