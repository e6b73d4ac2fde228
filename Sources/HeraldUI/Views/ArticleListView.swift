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

        if case .failed(let why) = model.state {
            ScreenFrame.message("Could not read articles: \(why)", style: theme.error, rows: rows, into: &canvas)
            return
        }
        if case .loaded = model.state, articles.isEmpty {
            ScreenFrame.message("This feed has no articles.", style: theme.hint, rows: rows, into: &canvas)
            return
        }
        var cursor = model.cursor
        cursor.clamp(count: articles.count, visible: rows.count)
        for (offset, y) in rows.enumerated() {
            let index = cursor.top + offset
            guard index < articles.count else { break }
            let article = articles[index]
            if index == cursor.selected { canvas.write(">", x: 0, y: y, style: theme.marker) }
            if !article.isRead { canvas.write("N", x: 2, y: y, style: theme.unread) }
            canvas.write(theme.day(article.published), x: 4, y: y, style: theme.date)
            let x = 16
            canvas.write(
                TextLayout.truncate(article.title, toWidth: canvas.size.width - x - 1),
                x: x, y: y, style: article.isRead ? theme.read : theme.unread)
        }
    }
}
