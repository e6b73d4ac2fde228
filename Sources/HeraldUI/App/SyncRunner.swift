public import HeraldCore

/// Sync while the reader is open (`set sync-dir`): on start (once the feed list is up, so
/// the first screen never waits for it), after every change the user makes (flags,
/// mark-all, undo, a reload's results), every `interval`, and when another device's files
/// change in the folder. Syncs never overlap and start at most once per `spacing`: changes
/// in a burst share one. The sync itself runs on the database actor (`LibrarySyncing`); the
/// main actor only hears its result, and the screens follow what it changed without a key.
///
/// Its timer, watch, pause and sync are the app's effects (`Effects`), cancelled by `stop`.
@MainActor
public final class SyncRunner {
    /// How often the timer syncs (a folder on a network file system tells inotify nothing).
    public static let interval = Duration.seconds(60)
    /// The least time between the starts of two syncs.
    public static let spacing = Duration.seconds(1)

    /// What syncs the library with the other devices; nil: no sync.
    public var library: (any LibrarySyncing)?
    /// What the timer and the pauses sleep on (tests move it by hand).
    public var clock: any DebounceClock = LiveDebounceClock()
    /// Syncs started this session (tests, the status line).
    public private(set) var started = 0

    private unowned let app: ReaderApp
    /// A sync is under way.
    private var running = false
    /// A sync was asked for and waits for the one running, or the pause after the last.
    private var wanted = false
    /// Less than `spacing` has passed since the last sync started.
    private var pausing = false
    /// The last problem shown, so one that every sync meets is said once.
    private var lastProblem: String?

    init(app: ReaderApp) {
        self.app = app
    }

    /// Whether the reader syncs (the timer is armed).
    public var isRunning: Bool { app.effects.isRunning(.syncTimer) }

    /// A sync is under way, or one waits (a change made within the last second): what the
    /// reader does before it exits.
    public var waits: Bool { running || wanted }

    /// Starts syncing when there is something to sync with: the timer, the folder watch
    /// and a first sync. Calling it again (`:set sync-dir`) starts over.
    func start() {
        stop()
        guard let library else { return }
        let clock = self.clock
        // The timer and the watch wait for good: `settle()` does not wait for them, and they
        // hold the runner weakly (a closed reader's timer does not keep it).
        app.effects.stream(.syncTimer, settles: false) { send in
            while !Task.isCancelled {
                do { try await clock.sleep(for: Self.interval) } catch { return }
                send(())
            }
        } each: { [weak self] in self?.soon() }
        let changes = library.folderChanges()
        app.effects.stream(.syncWatch, settles: false) { send in
            for await _ in changes { send(()) }
        } each: { [weak self] in self?.soon() }
        soon()
    }

    /// Stops the timer and the folder watch; a sync under way finishes unseen.
    public func stop() {
        for name in [Effects.Name.syncTimer, .syncWatch, .syncPause, .sync] { app.effects.cancel(name) }
        wanted = false
        pausing = false
        running = false
    }

    /// Asks for a sync: now if none is running and the last started `spacing` ago or more,
    /// else once both are over (many asks in between make one sync).
    func soon() {
        guard library != nil else { return }
        wanted = true
        startWanted()
    }

    private func startWanted() {
        guard wanted, !running, !pausing, let library else { return }
        wanted = false
        running = true
        pausing = true
        started += 1
        let clock = self.clock
        app.effects.run(.syncPause, settles: false) {
            (try? await clock.sleep(for: Self.spacing)) != nil
        } then: { [weak self] slept in
            guard let self, slept else { return }
            self.pausing = false
            self.startWanted()
        }
        let (app, repository) = (self.app, app.repository)
        app.effects.run(.sync) {
            let outcome = await Result { try await library.sync() }
            // What the screens will show of it, read before it is shown.
            guard case .success(let result) = outcome, result.changedLibrary else {
                return Seen(outcome: outcome)
            }
            var seen = Seen(outcome: outcome)
            // The open articles as the library has them, after a sync whose changes were too
            // many to name (the lists are read again below).
            if !result.isComplete {
                seen.stamp = app.flags.now
                for case .article(let viewer) in app.stack {
                    if let fresh = try? await repository.article(id: viewer.summary.id).summary {
                        seen.articles.append(fresh)
                    }
                }
            }
            seen.feeds = try? await repository.feedSummaries()
            seen.starred = try? await repository.starredCounts()
            return seen
        } then: { seen in
            self.running = false
            self.finished(seen)
            self.startWanted()
        }
    }

    /// A sync's outcome, and what the library holds after it (when it changed the library).
    private struct Seen {
        var outcome: Result<LibrarySyncResult, any Error>
        /// The open articles as the library had them at `stamp` (`ArticleFlags.now`).
        var articles: [ArticleSummary] = []
        var stamp = 0
        var feeds: [FeedSummary]?
        var starred: ArticleCounts?
    }

    /// Shows what a sync did: a problem or an error once (not at every sync that meets it
    /// again), and the changes another device made, on every screen that shows them.
    private func finished(_ seen: Seen) {
        let result: LibrarySyncResult
        switch seen.outcome {
        case .success(let done): result = done
        case .failure(let error):
            tell("sync failed: \(error)", more: 0)
            return
        }
        if let first = result.problems.first {
            tell("sync: \(first)", more: result.problems.count - 1)
        } else {
            lastProblem = nil
        }
        guard result.changedLibrary else { return }
        for change in result.flags {
            app.flags.hold(change.flag, change.value, ids: change.articleIDs)
        }
        app.flags.learn(seen.articles, readAt: seen.stamp)
        guard let feeds = seen.feeds else { return }
        // Every feed unsubscribed on the other device: the list empties here too.
        if feeds.isEmpty { app.feedList.replace([], starred: seen.starred) }
        app.showLibrary(feeds: feeds, starred: seen.starred)
    }

    private func tell(_ problem: String, more: Int) {
        guard problem != lastProblem else { return }
        lastProblem = problem
        app.say(problem + (more > 0 ? " (and \(more) more)" : ""))
    }
}
