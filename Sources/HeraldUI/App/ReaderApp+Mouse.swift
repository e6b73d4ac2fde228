import HeraldConfig
/// The mouse: the wheel scrolls (three rows, or three lines of an article), a click on a
/// list's row selects it, a double click opens it. Everything goes through the same actions
/// as the keys, so a click does what `j`/`k` to that row would.
extension ReaderApp {
    func mouse(_ event: MouseEvent) {
        guard confirmation == nil else { return }
        switch event.kind {
        case .wheelUp: perform(.up, count: 3)
        case .wheelDown: perform(.down, count: 3)
        case .click, .doubleClick:
            guard let (cursor, firstRow, visible) = screen.model.clickableRows(in: self), event.y >= firstRow,
                event.y < firstRow + visible
            else { return }
            let target = cursor.top + event.y - firstRow
            let delta = target - cursor.selected
            if delta > 0 { perform(.down, count: delta) }
            if delta < 0 { perform(.up, count: -delta) }
            if event.kind == .doubleClick { perform(.open, count: nil) }
        }
    }
}
