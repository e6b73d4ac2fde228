/// A cell that changed between two frames, at its position.
public struct CellChange: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var cell: Cell
}

extension Canvas {
    /// The cells of `self` that differ from `previous`, in row order.
    ///
    /// Continuation cells are never listed: drawing a wide grapheme covers its right half,
    /// and a continuation can only change when its first half changes. A wide grapheme
    /// replaced by narrow ones shows up as changes in both columns, so nothing stale is left.
    /// With no previous frame (or one of another size) every cell is a change.
    public func changes(since previous: Canvas?) -> [CellChange] {
        var changes: [CellChange] = []
        let comparable = previous?.size == size
        for y in 0..<size.height {
            let row = y * size.width
            for x in 0..<size.width {
                let cell = cells[row + x]
                if cell.isContinuation { continue }
                if comparable, let previous, previous.cells[row + x] == cell {
                    continue
                }
                changes.append(CellChange(x: x, y: y, cell: cell))
            }
        }
        return changes
    }

    /// Applies changes made by `changes(since:)` to a canvas of the same size.
    public mutating func apply(_ changes: [CellChange]) {
        for change in changes {
            var text = String(change.cell.grapheme)
            if text.isEmpty { text = " " }
            write(text, x: change.x, y: change.y, style: change.cell.style, maxWidth: Int(change.cell.width))
        }
    }
}
