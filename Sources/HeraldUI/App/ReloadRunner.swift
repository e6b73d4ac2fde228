public import HeraldCore
import HeraldConfig
import Foundation

/// Reloads from the open reader (`r`, `R`, the `reload-interval` timer, `reload-on-start`),
/// the search indexer after them, and `notify-command` when they bring new articles.
///
/// A reload runs in the background: the keys keep working, the status line shows its
/// progress, the feed list's counts follow as feeds are stored, and when it ends the counts
/// and the open lists are read again, each cursor staying on its article. The reload, its
/// progress, the indexer and the timer are the app's effects (`Effects`).
///
/// The timer (`set reload-interval MINUTES`) is one effect asleep on `clock` (`Task.sleep`
/// underneath: no polling, no CPU while it waits). When it wakes while a reload is under way
/// it starts none: it waits for the next turn.
@MainActor
public final class ReloadRunner {
    /// Reloads feeds; nil when the reader has no library (`--feeds DIR`).
    public var reloader: (any FeedReloading)?
    /// What the timer sleeps on (tests move it by hand).
    public var clock: any DebounceClock = LiveDebounceClock()
    /// The reload under way, if any, and how far it has got.
    private(set) var run: ReloadRun?
    /// The feeds this session's reloads read with errors (`!` lists them after the failed).
    private var readWithErrors: [ReloadFailure] = []
    /// The server account, when the last reload could not sync it (`!` lists it first).
    private var accountFailures: [ReloadFailure] = []
    /// The search indexer at work, if it is.
    private(set) var indexing: IndexingRun?
    private unowned let app: ReaderApp

    init(app: ReaderApp) {
        self.app = app
    }

    /// What stood failed when the reader opened (`FeedReloading.standingFailures`): `!` lists
    /// it until a reload with the account says otherwise.
    public func recall(accountFailures: [ReloadFailure]) {
        guard run == nil else { return }
        self.accountFailures = accountFailures
    }

    /// `r` reloads `feed` (the selected or open one), `R` every feed, `!` shows why feeds
    /// failed. True when the action was one of them.
    func perform(_ action: Action, feed: FeedID?) -> Bool {
        switch action {
        case .reload:
            guard let feed else {
                app.say("r reloads a feed: select one (R reloads every feed).")
                return true
            }
            // The reloader reads the feed at its address as the library has it now.
            guard let url = app.feedList.feeds.first(where: { $0.id == feed })?.feed.url else {
                app.say("This feed is no longer in the library.")
                return true
            }
            start(only: url)
        case .reloadAll:
            start(only: nil)
        case .showErrors:
            let (failed, broken) = problems
            if failed.isEmpty && broken.isEmpty {
                app.say("No feed failed to load, and none was read with errors.")
            } else {
                app.push(
                    .errors(
                        ReloadErrorsModel(
                            failures: failed + broken, accounts: accountFailures.count, readWithErrors: broken.count)))
            }
        default:
            return false
        }
        return true
    }

    /// The server account when the last reload could not sync it, the feeds whose last load
    /// failed, as the library remembers them (so `!` lists the feeds marked `!` after a
    /// restart too), then those this session's reloads read with errors (a broken document,
    /// stored as far as it could be read).
    public var problems: (failed: [ReloadFailure], readWithErrors: [ReloadFailure]) {
        let failed =
            accountFailures
            + app.feedList.feeds.compactMap { feed in
                feed.feed.lastError.map { ReloadFailure(url: feed.feed.url, title: feed.feed.title, reason: $0) }
            }
        let urls = Set(failed.map(\.url))
        return (failed, readWithErrors.filter { !urls.contains($0.url) })
    }

    /// Reloads in the background: the keys keep working, the status line shows progress,
    /// and when it ends the counts and the open list are refreshed, the cursor staying on
    /// the article it was on.
    func start(only feed: String?) {
        guard let reloader else {
            app.say("Nothing to reload: these feeds were read from files (--feeds).")
            return
        }
        guard run == nil else {
            app.say("A reload is already under way.")
            return
        }
        let run = ReloadRun(progress: ReloadProgress(done: 0, total: 0, failed: 0, newArticles: 0))
        self.run = run
        // Articles first seen from here on are this reload's (a second back: stored times are whole seconds).
        let since = Int64(Date().timeIntervalSince1970) - 1
        let (app, repository) = (self.app, app.repository)
        let progress = ProgressStream<ReloadProgress>()
        // The progress, in order, until the reload's end cancels it.
        app.effects.stream(.reloadProgress) { send in
            for await report in progress.reports { send(report) }
        } each: { report in
            let grew = report.newArticles > run.progress.newArticles
            run.progress = report
            app.onChange()
            if grew { self.showCountsDuringReload(run) }
        }
        app.effects.run(.reload) {
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
                if summary.newArticles > 0 { self.readPages(since: since) }
            case .failure(let error):
                self.endReload()
                app.say("Reload failed: \(error)")
                // What it stored before failing waits for the index all the same.
                self.startIndexing()
            }
        }
    }

    /// The reload is over: its progress and its readings of the counts are no longer shown
    /// (the end's own reading is the newer one).
    private func endReload() {
        run = nil
        app.effects.cancel(.reloadProgress)
        app.effects.cancel(.reloadCounts)
    }

    /// The feed list's counts follow a reload's new articles as feeds are stored, as
    /// newsboat's do, read at most once a second: feeds stored within the second after a
    /// reading are read a second after it (the end of the reload reads them again).
    func showCountsDuringReload(_ run: ReloadRun) {
        run.countsWanted = true
        guard !app.effects.isRunning(.reloadCounts) else { return }
        let (app, repository) = (self.app, app.repository)
        app.effects.stream(.reloadCounts) { send in
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
            app.showLibrary(feeds: counts.feeds, starred: counts.starred)
        }
    }

    private func finishReload(
        _ summary: ReloadSummary, only feed: String?, feeds: [FeedSummary], starred: ArticleCounts?
    ) {
        endReload()
        // A reload of one feed leaves what the others' last reload found.
        readWithErrors =
            (feed.map { url in readWithErrors.filter { $0.url != url } } ?? []) + summary.readWithErrors
        // Every reload syncs the account (when there is one).
        if summary.accounts > 0 { accountFailures = summary.accountFailures }
        app.showLibrary(feeds: feeds, starred: starred)
        reloadMessage(summary)
        notify(after: summary)
        startIndexing()
        // New articles may be the ones another device's flags wait for.
        app.sync.soon()
    }

    private func reloadMessage(_ summary: ReloadSummary) {
        let waiting = summary.waiting.isEmpty ? "" : ", \(summary.waiting.count) waiting"
        let broken =
            summary.readWithErrors.isEmpty ? "" : ", \(summary.readWithErrors.count) read with errors"
        // The key in force that lists why (`!` unless rebound).
        let why = app.keymap.key(for: .showErrors, on: .feeds)?.label ?? "!"
        let feedFailures = summary.failures.count
        let failed =
            feedFailures == 0 && summary.waiting.isEmpty && summary.readWithErrors.isEmpty
            ? ""
            : "\(feedFailures == 0 ? "" : ", \(feedFailures) failed")\(waiting)\(broken) (\(why): why)"
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
        // With a server account: what its sync did, after the feeds' figures (alone when
        // every feed is the account's).
        let accounts =
            summary.accountNotes.joined(separator: "; ")
            + (!summary.accountFailures.isEmpty && failed.isEmpty ? " (\(why): why)" : "")
        guard summary.feeds > 0 || summary.accounts == 0 else {
            app.say("\(slow)\(accounts)\(removed)\(failed)")
            return
        }
        // The account's new articles are in its note.
        let newHere = summary.newArticles - summary.accountNewArticles
        app.say(
            "\(slow)Reloaded \(summary.feeds) feed\(summary.feeds == 1 ? "" : "s"): \(newHere) new\(skipped)\(removed)\(failed)"
                + (accounts.isEmpty ? "" : "; \(accounts)"))
    }

    /// After a reload: the web pages of its new articles in feeds set to `full-article`, in
    /// the background (at most two of a host at once); the status line says what they gave.
    func readPages(since: Int64) {
        guard let pages = app.pages else { return }
        let fallback = app.settings.fullArticle
        let app = self.app
        app.effects.run(.pages) {
            try? await pages.fetchNewPages(since: since, fallback: fallback)
        } then: { counts in
            guard let counts, counts.whole + counts.failed > 0 else { return }
            app.say(
                "Read \(counts.whole) whole article\(counts.whole == 1 ? "" : "s") from their web pages"
                    + (counts.failed == 0 ? "" : "; \(counts.failed) gave none (the feed's text stays)"))
        }
    }

    /// Starts the indexer unless it is running; the status line says how many articles wait.
    func startIndexing() {
        guard let reloader, indexing == nil else { return }
        let run = IndexingRun()
        indexing = run
        let app = self.app
        app.feedList.holdsQueryCounts = true
        let progress = ProgressStream<Int>()
        app.effects.stream(.indexingProgress) { send in
            for await waiting in progress.reports { send(waiting) }
        } each: { waiting in
            run.waiting = waiting
            app.onChange()
        }
        app.effects.run(.indexing) {
            // A failure leaves the articles waiting: the next run (or a search) indexes them.
            try? await reloader.indexForSearch(progress: progress.report)
            progress.finish()
        } then: {
            app.effects.cancel(.indexingProgress)
            self.indexing = nil
            app.feedList.holdsQueryCounts = false
            app.feedList.countQueriesIfStale()
            app.onChange()
        }
    }

    /// Arms the timer when the settings ask for one and there is something to reload.
    func startTimer() {
        app.effects.cancel(.reloadTimer)
        guard app.settings.reloadInterval > 0, reloader != nil else { return }
        let interval = Duration.seconds(app.settings.reloadInterval * 60)
        let clock = self.clock
        // It waits for good: `settle()` does not wait for it, and it holds the runner weakly.
        app.effects.stream(.reloadTimer, settles: false) { send in
            while !Task.isCancelled {
                do { try await clock.sleep(for: interval) } catch { return }
                send(())
            }
        } each: { [weak self] in self?.timerFired() }
    }

    /// Stops the timer (the reader is closing; tests).
    public func stopTimer() {
        app.effects.cancel(.reloadTimer)
    }

    /// Whether the timer is armed.
    public var isTimerArmed: Bool { app.effects.isRunning(.reloadTimer) }

    private func timerFired() {
        guard run == nil else { return }
        start(only: nil)
        app.onChange()
    }

    /// Says when the timer reloads next (roughly: it counts from when it last fired), and
    /// runs `notify-command` when the reload brought new articles (its failure shows on the
    /// status line). One at a time: a run still going when the next reload ends is enough.
    func notify(after summary: ReloadSummary) {
        let app = self.app
        if isTimerArmed, let message = app.message {
            app.say(message + " · next reload in \(app.settings.reloadInterval) min")
        }
        guard let command = app.settings.notifyCommand, summary.newArticles > 0, !app.effects.isRunning(.notify),
            let programs = app.programs
        else { return }
        let (articles, feeds) = (summary.newArticles, summary.feedsWithNewArticles)
        app.effects.run(.notify) {
            await programs.notify(command, newArticles: articles, feeds: feeds)
        } then: { failure in
            if let failure { app.say(failure) }
        }
    }
}

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


/// The search indexer, in the background: a reload stores its new articles without their
/// search entries, and the reader has them indexed after each reload and at start (when a
/// `herald reload` left some), a small batch at a time, while the keys keep working.
@MainActor
final class IndexingRun {
    /// How many articles still wait for the index.
    var waiting = 0
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

/// Indexing at the right end of the status line, while no reload is shown there:
/// `indexing 8,214`.
enum IndexingIndicator {
    static func text(waiting: Int) -> String {
        var digits = String(waiting)
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + digits.suffix(3) + grouped
            digits.removeLast(3)
        }
        return "indexing " + digits + grouped
    }

    static func draw(waiting: Int, into canvas: inout Canvas, theme: Theme) {
        let row = canvas.size.height - 2
        guard row >= 1, waiting > 0 else { return }
        let text = text(waiting: waiting)
        let width = DisplayWidth.of(text)
        guard width + 2 < canvas.size.width else { return }
        canvas.write(text, x: canvas.size.width - width - 1, y: row, style: theme.status)
    }
}
