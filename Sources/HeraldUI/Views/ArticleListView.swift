import HeraldCore

/// Draws one feed's articles: marker, read mark, date, title.
@MainActor
public struct ArticleListView {
    public var model: ArticleListModel
    public var theme: Theme

    public func draw(into canvas: inout Canvas) {
        let articles = model.articles
        let (notice, noticeStyle) = model.state.notice(theme: theme)
        let frame = ScreenFrame(
            title: "Herald · " + model.feed.feed.title,
            status: articles.isEmpty
                ? "no articles"
                : "\(model.cursor.selected + 1)/\(articles.count) articles · \(model.unreadCount) unread",
            notice: notice, noticeStyle: noticeStyle,
            hint: "Enter:open  N:toggle read  j/k:move  g/G:first/last  q:back",
            theme: theme)
        let rows = frame.draw(into: &canvas)

        let body = ListBody(
            state: model.state, cursor: model.cursor, theme: theme,
            failure: "Could not read articles", empty: "This feed has no articles.")
        body.draw(into: &canvas, rows: rows) { article, y, canvas in
            if !article.isRead { canvas.write("N", x: 2, y: y, style: theme.unread) }
            canvas.write(theme.day(article.published), x: 4, y: y, style: theme.date)
            let x = 16
            canvas.write(
                TextLayout.truncate(article.title, toWidth: canvas.size.width - x - 1),
                x: x, y: y, style: article.isRead ? theme.read : theme.unread)
        }
    }
}
