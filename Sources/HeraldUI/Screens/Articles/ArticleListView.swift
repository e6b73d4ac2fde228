public import HeraldCore
public import HeraldConfig

/// Draws a list's articles: flags, date, (for a virtual feed, the feed), title.
@MainActor
public struct ArticleListView {
    public var model: ArticleListModel
    public var theme: Theme
    /// The title of a feed by its id, for the feed column of virtual feeds.
    public var feedTitle: (FeedID) -> String = { $0.rawValue }
    /// The keys in force, for the hint line.
    public var keymap: Keymap = .standard
    /// The config's `highlight` lines (nil: none).
    public var highlighter: TitleHighlighter?
    /// Why the feed's last reload failed, when it did (the list then says so).
    public var feedError: String?

    /// Columns of the feed title in a virtual feed's rows (when the screen is wide enough).
    static let feedWidth = 16

    public func draw(into canvas: inout Canvas) {
        var (notice, noticeStyle) = ("", Style?.none)
        if model.isLoading && !model.isLoaded { notice = "loading…" }
        if let failure = model.failure { (notice, noticeStyle) = ("error: " + failure, theme.error) }
        if notice.isEmpty, let feedError {
            (notice, noticeStyle) = (
                "last reload failed: " + TextSanitizer.singleLine(feedError), theme.error
            )
        }
        let frame = ScreenFrame(
            title: "Herald · " + model.list.title,
            status: model.count == 0
                ? "no articles"
                : "\(model.cursor.selected + 1)/\(model.count) articles · \(model.unread) unread",
            notice: notice, noticeStyle: noticeStyle,
            hint: keymap.hint(for: .articles), theme: theme)
        let rows = frame.draw(into: &canvas)

        let showFeed = model.list.source.isVirtual && canvas.size.width >= SearchView.feedColumnMinWidth
        let body = ListBody(
            failure: model.failure.map { "Could not read articles: \($0)" }, isLoaded: model.isLoaded,
            count: model.count, item: model.article(at:), cursor: model.cursor, theme: theme,
            empty: model.list.source.isVirtual
                ? "No articles here."
                : feedError == nil
                    ? "This feed has no articles."
                    : "This feed has no articles: its last reload failed (\(TextSanitizer.singleLine(feedError ?? "")))."
        )
        let showsFeed = model.list.source.isVirtual
        body.draw(into: &canvas, rows: rows) { article, index, y, canvas in
            let highlight = highlighter?.style(for: article.title)
            if canvas.size.width < Self.narrowWidth {
                Self.drawNarrowRow(article, y: y, theme: theme, highlight: highlight, into: &canvas)
            } else if let format = theme.articleListFormat {
                Self.drawRow(
                    article, format: format, number: index + 1,
                    feed: showsFeed ? feedTitle(article.feedID) : "", y: y, theme: theme,
                    highlight: highlight, into: &canvas)
            } else {
                Self.drawRow(
                    article, feed: showFeed ? feedTitle(article.feedID) : nil, y: y, theme: theme,
                    highlight: highlight, into: &canvas)
            }
        }
    }

    /// Below this width a row is its flags and title: the date and the feed go first, so
    /// the title is what stays readable (whatever `articlelist-format` says).
    static let narrowWidth = 40

    /// A row of a window narrower than `narrowWidth`: flags, then the title.
    static func drawNarrowRow(
        _ article: ArticleSummary, y: Int, theme: Theme, highlight: Style?, into canvas: inout Canvas
    ) {
        let style = article.isRead ? theme.read : theme.unread
        let x = 2 + canvas.write(flags(article) + " ", x: 2, y: y, style: style)
        canvas.write(
            TextLayout.truncate(article.title, toWidth: canvas.size.width - x), x: x, y: y,
            style: highlight.map { Self.highlighted($0, unread: !article.isRead) } ?? style)
    }

    /// `N` when unread, `*` when starred (a space for each otherwise).
    static func flags(_ article: ArticleSummary) -> String {
        (article.isRead ? " " : "N") + (article.isStarred ? "*" : " ")
    }

    /// A row in the config's `articlelist-format`, from column 2 to the right edge: the row
    /// in the read or unread style, its title (`%t`) in the highlight's when one matches.
    /// `feed` is the feed's title in lists of many feeds, empty in a feed's own (`%T`).
    static func drawRow(
        _ article: ArticleSummary, format: ListFormat, number: Int, feed: String, y: Int, theme: Theme,
        highlight: Style?, into canvas: inout Canvas
    ) {
        let style = article.isRead ? theme.read : theme.unread
        let titleStyle = highlight.map { Self.highlighted($0, unread: !article.isRead) } ?? style
        let pieces = format.render(width: canvas.size.width - 2) { field in
            switch field {
            case "i": String(number)
            case "f": flags(article)
            case "n": article.isRead ? " " : "N"
            case "D": theme.listDay(article.published)
            case "t": article.title
            case "a": TextSanitizer.singleLine(article.author ?? "")
            case "T": TextSanitizer.singleLine(feed)
            default: ""
            }
        }
        var x = 2
        for piece in pieces {
            x += canvas.write(piece.text, x: x, y: y, style: piece.field == "t" ? titleStyle : style)
        }
    }

    /// One article row from column 2: flags (unread `N`, starred `*`), date, the feed when
    /// given, title; an unread row is bold from end to end, like newsboat's, so the row is one
    /// run of one style (a terminal pays for every change of style when the bar moves).
    /// The date column follows the date format, every date of it the same width.
    static func drawRow(
        _ article: ArticleSummary, feed: String? = nil, y: Int, theme: Theme, highlight: Style? = nil,
        into canvas: inout Canvas
    ) {
        let style = article.isRead ? theme.read : theme.unread
        canvas.write(flags(article) + " " + theme.listDay(article.published), x: 2, y: y, style: style)
        var x = 2 + 3 + theme.listDateWidth + 2
        if let feed {
            canvas.write(
                TextLayout.truncate(TextSanitizer.singleLine(feed), toWidth: feedWidth), x: x, y: y,
                style: style)
            x += feedWidth + 2
        }
        canvas.write(
            TextLayout.truncate(article.title, toWidth: canvas.size.width - x), x: x, y: y,
            style: highlight.map { Self.highlighted($0, unread: !article.isRead) } ?? style)
    }

    /// A highlighted title's style: the highlight's, bold when the article is unread.
    static func highlighted(_ highlight: Style, unread: Bool) -> Style {
        var style = highlight
        if unread { style.bold = true }
        return style
    }
}
