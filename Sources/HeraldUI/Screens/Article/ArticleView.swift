import HeraldCore
public import HeraldConfig

/// Draws an article: its fields, then the body wrapped to the width, scrolled.
@MainActor
public struct ArticleView {
    public var model: ArticleViewModel
    public var theme: Theme
    /// The keys in force, for the hint line.
    public var keymap: Keymap = .standard
    /// The config's `highlight article|all` lines (nil: none).
    public var highlighter: TextHighlighter?

    public func draw(into canvas: inout Canvas) {
        // The text's column: the window, or text-width columns at its left or centre.
        let (left, width) = theme.readingColumn(width: canvas.size.width)
        let lines = model.lines(width: width, theme: theme, highlighter: highlighter)
        let visible = max(canvas.size.height - ScreenFrame.chromeRows, 1)
        let top = max(0, min(model.top, lines.count - visible))
        let last = min(top + visible, lines.count)
        let percent = lines.count <= visible ? 100 : last * 100 / lines.count
        let (notice, noticeStyle) = model.state.notice(theme: theme)
        let frame = ScreenFrame(
            title: "Herald · " + (model.state.value?.feedTitle ?? "") + " · " + model.summary.title,
            status: lines.isEmpty ? "" : "lines \(top + 1)-\(last) of \(lines.count) · \(percent)%",
            notice: notice, noticeStyle: noticeStyle,
            hint: keymap.hint(for: .article),
            theme: theme)
        let rows = frame.draw(into: &canvas)

        if case .failed(let why) = model.state {
            ScreenFrame.message(
                "Could not read the article: \(why)", style: theme.error, rows: rows, into: &canvas)
            return
        }
        for (offset, y) in rows.enumerated() {
            let index = top + offset
            guard index < lines.count else { break }
            let line = lines[index]
            var x = left
            if let label = line.label {
                canvas.write(label, x: left, y: y, style: theme.label)
                x = left + ArticleLine.labelWidth
            }
            for span in line.spans {
                x += canvas.write(span.text, x: x, y: y, style: span.style)
            }
        }
    }
}
