import HeraldCore
public import HeraldConfig

/// Draws the feed list: the virtual feeds (All articles, Unread, Starred, the queries), then every feed
/// numbered, with `!` when its last load failed (`-` when it is disabled), unread/total
/// counts and the title.
@MainActor
public struct FeedListView {
    public var model: FeedListModel
    public var theme: Theme
    /// The keys in force, for the hint line.
    public var keymap: Keymap = .standard

    public func draw(into canvas: inout Canvas) {
        let feeds = model.feeds
        let rows = model.rows
        let unread = feeds.reduce(0) { $0 + $1.unread }
        let total = feeds.reduce(0) { $0 + $1.total }
        var (notice, noticeStyle) = model.state.notice(theme: theme)
        if notice.isEmpty, let error = model.selected?.feed?.lastError {
            (notice, noticeStyle) = ("error: " + error + " (E)", theme.error)
        }
        let position =
            model.selected?.number.map { "\($0)/\(feeds.count) feeds" } ?? model.selected?.list.title ?? ""
        let frame = ScreenFrame(
            title: "Herald · Feeds",
            status: feeds.isEmpty ? "no feeds" : "\(position) · \(unread) unread of \(total)",
            notice: notice, noticeStyle: noticeStyle,
            hint: keymap.hint(for: .feeds), theme: theme)
        let body = frame.draw(into: &canvas)

        let countWidth = rows.map { DisplayWidth.of(Self.counts($0)) }.max() ?? 0
        let numberWidth = String(feeds.count).count
        var failure: String?
        if case .failed(let why) = model.state { failure = "Could not read feeds: \(why)" }
        let list = ListBody(
            failure: failure, isLoaded: model.state.value != nil, count: rows.count,
            item: { rows[$0] }, cursor: model.cursor, theme: theme, empty: "No feeds yet.")
        list.draw(into: &canvas, rows: body) { row, y, canvas in
            if let format = theme.feedListFormat {
                return Self.drawRow(row, format: format, y: y, theme: theme, into: &canvas)
            }
            let number = row.number.map(String.init) ?? ""
            var x = 2 + numberWidth - number.count
            canvas.write(number, x: x, y: y, style: theme.read)
            x = 2 + numberWidth + 1
            if row.feed?.lastError != nil {
                canvas.write("!", x: x, y: y, style: theme.error)
            } else if row.feed?.disabled == true {
                canvas.write("-", x: x, y: y, style: theme.read)
            }
            x += 1
            let counts = Self.counts(row)
            x += countWidth - DisplayWidth.of(counts)
            // Counts plain, like the number: each coloured field costs the terminal a colour
            // change and a reset whenever the selection bar leaves the row.
            x += canvas.write(counts, x: x, y: y, style: theme.read)
            // A disabled feed (a per-feed setting) is drawn as read, marked `-` and named so.
            let disabled = row.feed?.disabled == true
            canvas.write(
                TextLayout.truncate(
                    row.list.title + (disabled ? " (disabled)" : ""), toWidth: canvas.size.width - x - 2),
                x: x + 2, y: y, style: row.list.unread > 0 && !disabled ? theme.unread : theme.read)
        }
    }

    /// A row in the config's `feedlist-format`, from column 2 to the right edge: plain, the
    /// title (`%t`) bold while the feed has unread articles (and is not disabled), the
    /// state (`%S`) in the error style when the last reload failed.
    static func drawRow(
        _ row: FeedListRow, format: ListFormat, y: Int, theme: Theme, into canvas: inout Canvas
    ) {
        let disabled = row.feed?.disabled == true
        let failed = row.feed?.lastError != nil
        let pieces = format.render(width: canvas.size.width - 2) { field in
            switch field {
            case "i": row.number.map(String.init) ?? ""
            case "n": row.list.unread > 0 ? "N" : " "
            case "u": counts(row)
            case "U": row.isCounting ? "…" : String(row.list.unread)
            case "c": row.isCounting ? "…" : String(row.list.total)
            case "t": TextSanitizer.singleLine(row.list.title)
            case "T": TextSanitizer.singleLine(row.feed?.tags.first ?? "")
            case "l": TextSanitizer.singleLine(row.feed?.siteURL ?? "")
            case "L": TextSanitizer.singleLine(row.feed?.url ?? "")
            case "S": failed ? "!" : disabled ? "-" : " "
            default: ""
            }
        }
        var x = 2
        for piece in pieces {
            let style =
                switch piece.field {
                case "t": row.list.unread > 0 && !disabled ? theme.unread : theme.read
                case "S" where failed: theme.error
                default: theme.read
                }
            x += canvas.write(piece.text, x: x, y: y, style: style)
        }
    }

    static func counts(_ row: FeedListRow) -> String {
        row.isCounting ? "(…)" : counts(row.list)
    }

    static func counts(_ list: ArticleListSummary) -> String { "(\(list.unread)/\(list.total))" }
}
