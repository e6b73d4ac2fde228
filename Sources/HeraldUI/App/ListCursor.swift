/// The selected row of a list and the first row shown, kept so the selection stays visible.
public struct ListCursor: Sendable, Hashable {
    public private(set) var selected = 0
    public private(set) var top = 0

    public init(selected: Int = 0, top: Int = 0) {
        self.selected = selected
        self.top = top
    }

    /// Moves the selection by `delta` rows, scrolling as little as possible.
    public mutating func move(by delta: Int, count: Int, visible: Int) {
        select(selected + delta, count: count, visible: visible)
    }

    /// Moves a page: the selection and the window move together, like newsboat and less.
    public mutating func page(by pages: Int, count: Int, visible: Int) {
        let step = max(visible, 1) * pages
        top += step
        select(selected + step, count: count, visible: visible)
    }

    public mutating func select(_ row: Int, count: Int, visible: Int) {
        selected = max(0, min(row, count - 1))
        clamp(count: count, visible: visible)
    }

    /// Keeps the selection inside the list and inside the window (after a resize, too).
    public mutating func clamp(count: Int, visible: Int) {
        let visible = max(visible, 1)
        selected = max(0, min(selected, count - 1))
        top = max(0, min(top, count - visible))
        if selected < top { top = selected }
        if selected >= top + visible { top = selected - visible + 1 }
    }
}
