import HeraldCore

/// Draws one feed's articles: marker, read mark, date, title.
@MainActor
public struct ArticleListView {
    public var model: ArticleListModel
    public var theme: Theme

    public func draw(into canvas: inout Canvas) {
        var (notice, noticeStyle) = ("", Style?.none)
        if model.isLoading && !model.isLoaded { notice = "loading…" }
        if let failure = model.failure { (notice, noticeStyle) = ("error: " + failure, theme.error) }
        let frame = ScreenFrame(
            title: "Herald · " + model.feed.feed.title,
            status: model.count == 0
                ? "no articles"
                : "\(model.cursor.selected + 1)/\(model.count) articles · \(model.unread) unread",
            notice: notice, noticeStyle: noticeStyle,
            hint: "Enter:open  N:read/unread  s:star  A:all read  /:search  r:reload  q:back",
            theme: theme)
        let rows = frame.draw(into: &canvas)

        let body = ListBody(
            failure: model.failure.map { "Could not read articles: \($0)" }, isLoaded: model.isLoaded,
            count: model.count, item: model.article(at:), cursor: model.cursor, theme: theme,
            empty: "This feed has no articles.")
        body.draw(into: &canvas, rows: rows) { article, y, canvas in
            Self.drawRow(article, y: y, theme: theme, into: &canvas)
        }
    }

    /// One article row from column 2: flags (unread `N`, starred `*`), date, title.
    static func drawRow(_ article: ArticleSummary, y: Int, theme: Theme, into canvas: inout Canvas) {
        if !article.isRead { canvas.write("N", x: 2, y: y, style: theme.unread) }
        if article.isStarred { canvas.write("*", x: 3, y: y, style: theme.marker) }
        canvas.write(theme.day(article.published), x: 5, y: y, style: theme.date)
        let x = 17
        canvas.write(
            TextLayout.truncate(article.title, toWidth: canvas.size.width - x),
            x: x, y: y, style: article.isRead ? theme.read : theme.unread)
    }
}
