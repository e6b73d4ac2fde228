import HeraldCore
public import HeraldConfig

/// Draws the search screen: the prompt with its caret, then the results (marker, unread and
/// star flags, date, feed, title with every matched query word highlighted).
@MainActor
public struct SearchView {
    public var model: SearchModel
    public var theme: Theme
    /// The keys in force, for the hint line.
    public var keymap: Keymap = .standard
    /// The config's `highlight` lines (nil: none).
    public var highlighter: TitleHighlighter?

    /// Columns of the feed title in a result row (when the screen is wide enough for it).
    static let feedWidth = 16
    /// Narrower than this, rows leave the feed out so the title keeps some room.
    static let feedColumnMinWidth = 60

    public init(
        model: SearchModel, theme: Theme, keymap: Keymap = .standard, highlighter: TitleHighlighter? = nil
    ) {
        self.model = model
        self.theme = theme
        self.keymap = keymap
        self.highlighter = highlighter
    }

    public func draw(into canvas: inout Canvas) {
        let frame = ScreenFrame(
            title: "Herald · Search", status: status,
            hint: model.focus == .query
                ? "type to search  " + keymap.hint(for: .search) : keymap.hint(for: .results),
            theme: theme)
        let rows = frame.draw(into: &canvas)
        guard let promptRow = rows.first else { return }
        if case .failed(let why) = model.status {
            StatusOverlay.draw("search failed: " + why, style: theme.error, into: &canvas, theme: theme)
        }
        drawPrompt(into: &canvas, y: promptRow)

        let results = (promptRow + 1)..<rows.upperBound
        if model.status == .idle {
            ScreenFrame.message(
                "Type to search every feed: titles, authors and text.", style: theme.hint, rows: results,
                into: &canvas)
            return
        }
        let query = model.query
        let body = ListBody(
            failure: nil, isLoaded: model.status == .done, count: model.resultCount,
            item: { model.hit(at: $0) }, cursor: model.cursor, theme: theme,
            empty: "Nothing matches “\(query)”.")
        body.draw(into: &canvas, rows: results) { hit, y, canvas in
            Self.drawRow(
                hit, query: query, y: y, theme: theme, highlight: highlighter?.style(for: hit.article.title),
                into: &canvas)
        }
    }

    /// The left part of the status line.
    var status: String {
        switch model.status {
        case .idle: ""
        case .searching: "searching…"
        case .failed: ""
        case .done:
            switch model.resultCount {
            case 0: "no results for “\(TextLayout.truncate(model.query, toWidth: 40))”"
            case let n:
                "\(model.cursor.selected + 1)/\(n) result\(n == 1 ? "" : "s")"
                    + (model.isCapped ? " · the best \(n); a longer query narrows them" : "")
                    + (model.focus == .results ? " · keys act on the results (Tab: back to the query)" : "")
            }
        }
    }

    /// `/ ` and the query, then the caret (a reverse-video cell). A query wider than the
    /// screen shows its end, where the typing is.
    func drawPrompt(into canvas: inout Canvas, y: Int) {
        let room = canvas.size.width - 3
        // The end of the query, where the typing is (`tail` reads only what fits).
        let (shown, cut) = TextLayout.tail(model.query, toWidth: room)
        var x = canvas.write("/ ", x: 0, y: y, style: theme.marker)
        if cut { x += canvas.write("…", x: x, y: y, style: theme.hint) }
        x += canvas.write(String(shown), x: x, y: y, style: theme.read)
        canvas.write(" ", x: x, y: y, style: theme.caret)
    }

    /// One result row from column 2: flags, date, feed title (padded), highlighted title.
    static func drawRow(
        _ hit: SearchHit, query: String, y: Int, theme: Theme, highlight: Style? = nil,
        into canvas: inout Canvas
    ) {
        let article = hit.article
        if !article.isRead { canvas.write("N", x: 2, y: y, style: theme.unread) }
        if article.isStarred { canvas.write("*", x: 3, y: y, style: theme.marker) }
        var x = 5 + canvas.write(theme.listDay(article.published), x: 5, y: y, style: theme.date) + 2
        if canvas.size.width >= feedColumnMinWidth {
            let feed = TextLayout.truncate(TextSanitizer.singleLine(hit.feedTitle), toWidth: feedWidth)
            canvas.write(feed, x: x, y: y, style: theme.read)
            x += feedWidth + 2
        }
        var style = article.isRead ? theme.read : theme.unread
        if let highlight { style = ArticleListView.highlighted(highlight, unread: !article.isRead) }
        drawHighlighted(
            TextSanitizer.singleLine(article.title), query: query, x: x, y: y,
            style: style, match: theme.match, into: &canvas)
    }

    /// Writes `text` cut to the right edge, with the graphemes that match a query word in
    /// `match` style.
    static func drawHighlighted(
        _ text: String, query: String, x: Int, y: Int, style: Style, match: Style, into canvas: inout Canvas
    ) {
        let ranges = SearchHighlight.ranges(of: query, in: text)
        let shown = TextLayout.truncate(text, toWidth: canvas.size.width - x)
        // The graphemes of `text` that are shown (a cut title ends with `…`, not highlighted).
        let kept = shown == text ? shown.count : shown.count - 1
        var column = x
        for (offset, grapheme) in shown.enumerated() {
            let highlighted = offset < kept && ranges.contains { $0.contains(offset) }
            column += canvas.write(String(grapheme), x: column, y: y, style: highlighted ? match : style)
        }
    }
}
