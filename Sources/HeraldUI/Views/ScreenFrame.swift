import HeraldCore
public import HeraldConfig

/// The chrome every screen shares: a header row, the body, a status line and a key hint.
public struct ScreenFrame {
    /// Rows the chrome takes from the body.
    public static let chromeRows = 3

    public var title: String
    /// Left part of the status line (position, counts).
    public var status: String
    /// Right part of the status line (loading, errors).
    public var notice: String = ""
    public var noticeStyle: Style?
    public var hint: String
    public var theme: Theme

    /// Draws the chrome and returns the rows the body may use.
    @discardableResult
    public func draw(into canvas: inout Canvas) -> Range<Int> {
        let size = canvas.size
        guard size.height > 0, size.width > 0 else { return 0..<0 }
        canvas.fill(row: 0, style: theme.header)
        canvas.write(" " + title, x: 0, y: 0, style: theme.header)
        if size.height >= 3 {
            let row = size.height - 2
            canvas.fill(row: row, style: theme.status)
            let used = canvas.write(" " + status, x: 0, y: row, style: theme.status)
            if !notice.isEmpty {
                let room = size.width - used - 2
                let text = TextLayout.truncate(notice, toWidth: room)
                let width = DisplayWidth.of(text)
                canvas.write(
                    text, x: size.width - width - 1, y: row, style: noticeStyle ?? theme.status)
            }
        }
        if size.height >= 2 {
            canvas.write(
                TextLayout.truncate(hint, toWidth: size.width), x: 0, y: size.height - 1, style: theme.hint)
        }
        let bodyEnd = size.height >= 3 ? size.height - 2 : size.height
        return min(1, bodyEnd)..<bodyEnd
    }

    /// A message in the middle of the body (loading, empty, error).
    static func message(_ text: String, style: Style, rows: Range<Int>, into canvas: inout Canvas) {
        guard !rows.isEmpty else { return }
        let line = TextLayout.truncate(text, toWidth: canvas.size.width - 2)
        let x = max((canvas.size.width - DisplayWidth.of(line)) / 2, 0)
        canvas.write(line, x: x, y: rows.lowerBound + (rows.count - 1) / 2, style: style)
    }
}

extension ViewState {
    /// The status notice for a state that is not loaded.
    func notice(theme: Theme) -> (String, Style?) {
        switch self {
        case .idle, .loaded: ("", nil)
        case .loading: ("loading…", nil)
        case .failed(let why): ("error: " + why, theme.error)
        }
    }
}
