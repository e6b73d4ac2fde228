import HeraldCore

/// Draws the feed list: a marker on the selected row, unread/total counts, the title.
@MainActor
public struct FeedListView {
    public var model: FeedListModel
    public var theme: Theme

    public func draw(into canvas: inout Canvas) {
        let feeds = model.feeds
        let unread = feeds.reduce(0) { $0 + $1.unread }
        let total = feeds.reduce(0) { $0 + $1.total }
        var (notice, noticeStyle) = model.state.notice(theme: theme)
        if notice.isEmpty, let error = model.selected?.feed.lastError {
            (notice, noticeStyle) = ("error: " + error, theme.error)
        }
        let frame = ScreenFrame(
            title: "Herald · Feeds",
            status: feeds.isEmpty
                ? "no feeds"
                : "\(model.cursor.selected + 1)/\(feeds.count) feeds · \(unread) unread of \(total)",
            notice: notice, noticeStyle: noticeStyle,
            hint: "Enter:open  A:feed read  C:all read  /:search  r/R:reload  E:errors  q:quit",
            theme: theme)
        let rows = frame.draw(into: &canvas)

        let countWidth = feeds.map { DisplayWidth.of(Self.counts($0)) }.max() ?? 0
        var failure: String?
        if case .failed(let why) = model.state { failure = "Could not read feeds: \(why)" }
        let body = ListBody(
            failure: failure, isLoaded: model.state.value != nil, count: feeds.count,
            item: { feeds[$0] }, cursor: model.cursor, theme: theme, empty: "No feeds yet.")
        body.draw(into: &canvas, rows: rows) { feed, y, canvas in
            let counts = Self.counts(feed)
            let pad = String(repeating: " ", count: countWidth - DisplayWidth.of(counts))
            var x = 2
            if feed.feed.lastError != nil {
                x += canvas.write("!", x: x, y: y, style: theme.error)
                x += canvas.write(String(pad.dropFirst()) + counts, x: x, y: y, style: theme.counts)
            } else {
                x += canvas.write(pad + counts, x: x, y: y, style: theme.counts)
            }
            canvas.write(
                TextLayout.truncate(feed.feed.title, toWidth: canvas.size.width - x - 2),
                x: x + 2, y: y, style: feed.unread > 0 ? theme.unread : theme.read)
        }
    }

    static func counts(_ feed: FeedSummary) -> String { "(\(feed.unread)/\(feed.total))" }
}
