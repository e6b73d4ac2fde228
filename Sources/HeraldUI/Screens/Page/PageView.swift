import HeraldCore
public import HeraldConfig

/// Draws a page of text (the help, an error message): labels in a left column, wrapped text
/// beside them, scrolled.
@MainActor
public struct PageView {
    public var model: PageModel
    public var theme: Theme
    /// The keys in force, for the hint line.
    public var keymap: Keymap = .standard

    public func draw(into canvas: inout Canvas) {
        let lines = model.lines(width: canvas.size.width)
        let visible = max(canvas.size.height - ScreenFrame.chromeRows, 1)
        let top = max(0, min(model.top, lines.count - visible))
        let last = min(top + visible, lines.count)
        let frame = ScreenFrame(
            title: "Herald · " + model.title,
            status: lines.count <= visible ? "" : "lines \(top + 1)-\(last) of \(lines.count)",
            hint: keymap.hint(for: .page), theme: theme)
        let rows = frame.draw(into: &canvas)
        let column = min(model.labelWidth, max(canvas.size.width / 3, 0))
        for (offset, y) in rows.enumerated() {
            let index = top + offset
            guard index < lines.count else { break }
            let line = lines[index]
            let style: Style =
                switch line.role {
                case .heading: theme.heading
                case .text: theme.read
                case .note: theme.hint
                case .error: theme.error
                }
            if !line.label.isEmpty {
                canvas.write(
                    TextLayout.truncate(line.label, toWidth: max(column - 1, 1)), x: 1, y: y,
                    style: theme.label)
            }
            let x = line.label.isEmpty && line.role != .text ? 1 : column + 1
            canvas.write(line.text, x: x, y: y, style: style)
        }
    }
}
