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

    /// Follows the library's file: when another process wrote it (`herald add`, a `herald
    /// reload` from cron, another reader), the counts, the feeds and the open lists show it
    /// without a key. A burst of writes is looked at once, half a second after it starts;
    /// during this reader's own reload nothing is looked at (the reload shows its end).
    public func watchLibrary(_ changes: AsyncStream<Void>) {
        // What the library is now: changes from here on are news.
        work.start { [repository] in _ = await repository.changedElsewhere() }
        effects.stream(.libraryWatch, settles: false) { send in
            for await _ in changes { send(()) }
        } each: { [weak self] in self?.libraryTouched() }
    }

    private func libraryTouched() {
        guard !effects.isRunning(.libraryCheck), reloads.run == nil else { return }
        let (clock, repository) = (self.clock, self.repository)
        effects.run(.libraryCheck) {
            do { try await clock.sleep(for: .milliseconds(500)) } catch { return nil }
            guard await repository.changedElsewhere() else { return nil }
            return (try? await repository.feedSummaries(), try? await repository.starredCounts())
        } then: { (seen: ([FeedSummary]?, ArticleCounts?)?) in
            guard let (feeds, starred) = seen, let feeds else { return }
            if feeds.isEmpty { self.feedList.replace([], starred: starred) }
            self.showLibrary(feeds: feeds, starred: starred)
            self.feedList.countQueriesIfStale()
        }
    }
}
