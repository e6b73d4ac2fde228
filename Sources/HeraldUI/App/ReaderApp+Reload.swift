public import HeraldCore
import HeraldConfig

/// A reload started from the reader, and how far it has got.
@MainActor
final class ReloadRun {
    var progress: ReloadProgress
    /// When the feed list's counts were last read during the reload, and whether feeds were
    /// stored since (`showCountsDuringReload`).
    var countsRead: ContinuousClock.Instant?
    var countsWanted = false
    init(progress: ReloadProgress) { self.progress = progress }
}

extension ReaderApp {
    /// `r` reloads `feed` (the selected or open one), `R` every feed, `E` shows why feeds
    /// failed. True when the action was one of them.
    func performReload(_ action: Action, feed: FeedID?) -> Bool {
        switch action {
        case .reload:
            guard let feed else {
                message = "r reloads a feed: select one (R reloads every feed)."
                return true
            }
            // The reloader reads the feed at its address as the library has it now.
            guard let url = feedList.feeds.first(where: { $0.id == feed })?.feed.url else {
                message = "This feed is no longer in the library."
                return true
            }
            startReload(only: url)
        case .reloadAll:
            startReload(only: nil)
        case .showErrors:
            let (failed, broken) = reloadProblems
            if failed.isEmpty && broken.isEmpty {
                message = "No feed failed to load, and none was read with errors."
            } else {
                push(
                    .errors(ReloadErrorsModel(failures: failed + broken, readWithErrors: broken.count)))
            }
        default:
            return false
        }
        return true
    }

    /// The feeds whose last load failed, as the library remembers them (so `E` lists the
    /// feeds marked `!` after a restart too), then those this session's reloads read with
    /// errors (a broken document, stored as far as it could be read).
    public var reloadProblems: (failed: [ReloadFailure], readWithErrors: [ReloadFailure]) {
        let failed = feedList.feeds.compactMap { feed in
            feed.feed.lastError.map { ReloadFailure(url: feed.feed.url, title: feed.feed.title, reason: $0) }
        }
        let urls = Set(failed.map(\.url))
        return (failed, readWithErrors.filter { !urls.contains($0.url) })
    }

    /// Reloads in the background: the keys keep working, the status line shows progress,
    /// and when it ends the counts and the open list are refreshed, the cursor staying on
    /// the article it was on.
    func startReload(only feed: String?) {
        guard let reloader else {
            message = "Nothing to reload: these feeds were read from files (--feeds)."
            return
        }
        guard reload == nil else {
            message = "A reload is already under way."
            return
        }
        let run = ReloadRun(progress: ReloadProgress(done: 0, total: 0, failed: 0, newArticles: 0))
        reload = run
        let repository = self.repository
        let progress = ProgressStream<ReloadProgress>()
        // The progress, in order, until the reload's end cancels it.
        effects.stream(.reloadProgress) { send in
            for await report in progress.reports { send(report) }
        } each: { report in
            let grew = report.newArticles > run.progress.newArticles
            run.progress = report
            self.onChange()
            if grew { self.showCountsDuringReload(run) }
        }
        effects.run(.reload) {
            defer { progress.finish() }
            return await Result {
                let summary = try await reloader.reloadFeeds(only: feed, progress: progress.report)
                let feeds = (try? await repository.feedSummaries()) ?? []
                return (summary, feeds, try? await repository.starredCounts())
            }
        } then: { outcome in
            switch outcome {
            case .success(let (summary, feeds, starred)):
                self.finishReload(summary, only: feed, feeds: feeds, starred: starred)
            case .failure(let error):
                self.endReload()
                self.message = "Reload failed: \(error)"
                // What it stored before failing waits for the index all the same.
                self.startIndexing()
            }
        }
    }

    /// The reload is over: its progress and its readings of the counts are no longer shown
    /// (the end's own reading is the newer one).
    private func endReload() {
        reload = nil
        effects.cancel(.reloadProgress)
        effects.cancel(.reloadCounts)
    }

    /// The feed list's counts follow a reload's new articles as feeds are stored, as
    /// newsboat's do, read at most once a second: feeds stored within the second after a
    /// reading are read a second after it (the end of the reload reads them again).
    func showCountsDuringReload(_ run: ReloadRun) {
        run.countsWanted = true
        guard !effects.isRunning(.reloadCounts) else { return }
        let repository = self.repository
        effects.stream(.reloadCounts) { send in
            while run.countsWanted {
                if let last = run.countsRead {
                    let wait = last + .seconds(1) - ContinuousClock.now
                    if wait > .zero { try? await Task.sleep(for: wait) }
                }
                // The reload's end cancels this: its own reading is the newer one.
                if Task.isCancelled { return }
                (run.countsWanted, run.countsRead) = (false, .now)
                let feeds = (try? await repository.feedSummaries()) ?? []
                send((feeds, try? await repository.starredCounts()))
            }
        } each: { (counts: (feeds: [FeedSummary], starred: ArticleCounts?)) in
            self.showLibrary(feeds: counts.feeds, starred: counts.starred)
        }
    }

    private func finishReload(
        _ summary: ReloadSummary, only feed: String?, feeds: [FeedSummary], starred: ArticleCounts?
    ) {
        endReload()
        // A reload of one feed leaves what the others' last reload found.
        readWithErrors =
            (feed.map { url in readWithErrors.filter { $0.url != url } } ?? []) + summary.readWithErrors
        showLibrary(feeds: feeds, starred: starred)
        reloadMessage(summary)
        notify(after: summary)
        startIndexing()
        // New articles may be the ones another device's flags wait for.
        syncSoon()
    }

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

    private func reloadMessage(_ summary: ReloadSummary) {
        let waiting = summary.waiting.isEmpty ? "" : ", \(summary.waiting.count) waiting"
        let broken =
            summary.readWithErrors.isEmpty ? "" : ", \(summary.readWithErrors.count) read with errors"
        let failed =
            summary.failures.isEmpty && summary.waiting.isEmpty && summary.readWithErrors.isEmpty
            ? ""
            : "\(summary.failures.isEmpty ? "" : ", \(summary.failures.count) failed")\(waiting)\(broken) (E: why)"
        // Feeds a setting kept from this reload (per-feed settings).
        let skipped =
            (summary.notDue == 0 ? "" : ", \(summary.notDue) not due")
            + (summary.disabled == 0 ? "" : ", \(summary.disabled) disabled")
        // Deletes that were not the user's own key are counted.
        let removed =
            (summary.removedByFilters == 0 ? "" : ", \(summary.removedByFilters) removed by filters")
            + (summary.removedArticles == 0 ? "" : ", \(summary.removedArticles) removed by retention")
        // A filter left out is worth more than the counts: it comes first.
        let slow = summary.slowFilters.map { "filter /\($0)/ too slow, left out; " }.joined()
        message =
            "\(slow)Reloaded \(summary.feeds) feed\(summary.feeds == 1 ? "" : "s"): \(summary.newArticles) new\(skipped)\(removed)\(failed)"
    }
}

/// Reload progress at the right end of the status line: `reloading 12/200 [#####   ] 3 failed`.
enum ReloadIndicator {
    static func draw(_ progress: ReloadProgress, into canvas: inout Canvas, theme: Theme) {
        let row = canvas.size.height - 2
        guard row >= 1 else { return }
        let barWidth = 10
        let filled = progress.total == 0 ? 0 : progress.done * barWidth / progress.total
        var text =
            "reloading \(progress.done)/\(progress.total) ["
            + String(repeating: "#", count: filled) + String(repeating: " ", count: barWidth - filled) + "]"
        if progress.failed > 0 { text += " \(progress.failed) failed" }
        let width = DisplayWidth.of(text)
        guard width + 2 < canvas.size.width else { return }
        canvas.write(
            text, x: canvas.size.width - width - 1, y: row,
            style: progress.failed > 0 ? theme.error : theme.status)
    }
}
