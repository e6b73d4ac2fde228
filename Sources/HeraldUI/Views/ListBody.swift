import HeraldCore
import HeraldConfig

/// The body every list screen shares: an error or empty message, or the visible window of
/// rows with the selection bar (and a `>`, for terminals without reverse video) on the
/// selected one. Rows whose item is not loaded yet (a window
/// still on its way from the database) show a placeholder.
@MainActor
struct ListBody<Item> {
    /// Why the list could not be read, if it could not.
    var failure: String?
    /// True once the list is known (loaded, or loading with a known count).
    var isLoaded: Bool
    var count: Int
    var item: (Int) -> Item?
    var cursor: ListCursor
    var theme: Theme
    /// Shown when the list loaded empty.
    var empty: String

    /// Draws the body; `row` draws one item from column 2 on.
    func draw(into canvas: inout Canvas, rows: Range<Int>, row: (Item, _ y: Int, inout Canvas) -> Void) {
        draw(into: &canvas, rows: rows) { item, _, y, canvas in row(item, y, &canvas) }
    }

    /// Draws the body; `row` draws one item, given its index in the list, from column 2 on.
    func draw(
        into canvas: inout Canvas, rows: Range<Int>, row: (Item, _ index: Int, _ y: Int, inout Canvas) -> Void
    ) {
        if let failure {
            ScreenFrame.message(failure, style: theme.error, rows: rows, into: &canvas)
            return
        }
        if isLoaded, count == 0 {
            ScreenFrame.message(empty, style: theme.hint, rows: rows, into: &canvas)
            return
        }
        var cursor = cursor
        cursor.clamp(count: count, visible: rows.count)
        for (offset, y) in rows.enumerated() {
            let index = cursor.top + offset
            guard index < count else { break }
            if index == cursor.selected { canvas.write(">", x: 0, y: y, style: theme.marker) }
            if let item = item(index) {
                row(item, index, y, &canvas)
            } else {
                canvas.write("…", x: 2, y: y, style: theme.hint)
            }
            if index == cursor.selected, !theme.arrowCursor { canvas.restyle(row: y, theme.selected) }
        }
    }
}
