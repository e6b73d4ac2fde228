import HeraldCore

extension ReaderApp {
    /// Shows what the library holds: the counts, and the open lists' rows read again (after
    /// a reload, or after a write that failed and left the screen ahead of the library).
    func showLibrary(feeds: [FeedSummary], starred: ArticleCounts?) {
        if !feeds.isEmpty { feedList.replace(feeds, starred: starred) }
        for screen in stack {
            // A query's list follows its own count (`queryCounted`), which comes later.
            guard case .articles(let list) = screen, !list.list.source.isQuery else { continue }
            let fresh =
                feedList.rows.first { $0.list.source == list.list.source }?.list
                ?? feedList.tags.first { $0.source == list.list.source }
            guard let fresh else { continue }
            list.refresh(total: fresh.total, unread: fresh.unread, visible: bodyRows)
        }
    }
}
