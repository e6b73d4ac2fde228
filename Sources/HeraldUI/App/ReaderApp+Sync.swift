import HeraldCore

/// When the open reader syncs (`set sync-dir`), and what is left of each sync's run.
@MainActor
final class SyncSchedule {
    /// A sync is under way.
    var running = false
    /// A sync was asked for and waits for the one running, or the pause after the last.
    var wanted = false
    /// Less than `ReaderApp.syncSpacing` has passed since the last sync started.
    var pausing = false
    /// The last problem shown, so one that every sync meets is said once.
    var lastProblem: String?
    /// Syncs started so far (tests, the status line).
    var started = 0
}

/// Sync while the reader is open: on start (once the feed list is up, so the first screen
/// never waits for it), after every change the user makes (flags, mark-all, undo, a
/// reload's results), every `syncInterval`, and when another device's files change in the
/// folder. Syncs never overlap and start at most once per `syncSpacing`: changes in a burst
/// share one. The sync itself runs on the database actor (`LibrarySyncing`); the main actor
/// only hears its result, and the screen follows what it changed without a key.
extension ReaderApp {
    /// How often the timer syncs (a folder on a network file system tells inotify nothing).
    public static let syncInterval = Duration.seconds(60)
    /// The least time between the starts of two syncs.
    public static let syncSpacing = Duration.seconds(1)

    /// Starts syncing when there is something to sync with: the timer, the folder watch
    /// and a first sync. Calling it again (`:set sync-dir`) starts over.
    func startSyncing() {
        stopSyncing()
        guard let sync = librarySync else { return }
        let clock = syncClock
        // The timer and the watch wait for good: `settle()` does not wait for them, and they
        // hold the app weakly (a closed reader's timer does not keep it).
        effects.stream(.syncTimer, settles: false) { send in
            while !Task.isCancelled {
                do { try await clock.sleep(for: Self.syncInterval) } catch { return }
                send(())
            }
        } each: { [weak self] in self?.syncSoon() }
        let changes = sync.folderChanges()
        effects.stream(.syncWatch, settles: false) { send in
            for await _ in changes { send(()) }
        } each: { [weak self] in self?.syncSoon() }
        syncSoon()
    }

    /// Stops the timer and the folder watch; a sync under way finishes unseen.
    public func stopSyncing() {
        for name in [Effects.Name.syncTimer, .syncWatch, .syncPause, .sync] { effects.cancel(name) }
        syncSchedule.wanted = false
        syncSchedule.pausing = false
        syncSchedule.running = false
    }

    /// Whether the reader syncs (the timer is armed).
    public var isSyncing: Bool { effects.isRunning(.syncTimer) }

    /// Syncs started this session.
    public var syncsStarted: Int { syncSchedule.started }

    /// A sync is under way, or one waits (a change made within the last second): what the
    /// reader does before it exits.
    public var syncWaits: Bool { syncSchedule.running || syncSchedule.wanted }

    /// Asks for a sync: now if none is running and the last started `syncSpacing` ago or
    /// more, else once both are over (many asks in between make one sync).
    func syncSoon() {
        guard librarySync != nil else { return }
        syncSchedule.wanted = true
        startWantedSync()
    }

    private func startWantedSync() {
        let schedule = syncSchedule
        guard schedule.wanted, !schedule.running, !schedule.pausing, let sync = librarySync else { return }
        schedule.wanted = false
        schedule.running = true
        schedule.pausing = true
        schedule.started += 1
        let clock = syncClock
        effects.run(.syncPause, settles: false) {
            (try? await clock.sleep(for: Self.syncSpacing)) != nil
        } then: { [weak self] slept in
            guard let self, slept else { return }
            self.syncSchedule.pausing = false
            self.startWantedSync()
        }
        let repository = self.repository
        effects.run(.sync) {
            let outcome = await Result { try await sync.sync() }
            // What the screens will show of it, read before it is shown.
            guard case .success(let result) = outcome, result.changedLibrary else {
                return SyncSeen(outcome: outcome)
            }
            var seen = SyncSeen(outcome: outcome)
            // The open articles as the library has them, after a sync whose changes were too
            // many to name (the lists are read again below).
            if !result.isComplete {
                seen.stamp = self.flags.now
                for case .article(let viewer) in self.stack {
                    if let fresh = try? await repository.article(id: viewer.summary.id).summary {
                        seen.articles.append(fresh)
                    }
                }
            }
            seen.feeds = try? await repository.feedSummaries()
            seen.starred = try? await repository.starredCounts()
            return seen
        } then: { seen in
            self.syncSchedule.running = false
            self.syncFinished(seen)
            self.startWantedSync()
        }
    }

    /// A sync's outcome, and what the library holds after it (when it changed the library).
    private struct SyncSeen {
        var outcome: Result<LibrarySyncResult, any Error>
        /// The open articles as the library had them at `stamp` (`ArticleFlags.now`).
        var articles: [ArticleSummary] = []
        var stamp = 0
        var feeds: [FeedSummary]?
        var starred: ArticleCounts?
    }

    /// Shows what a sync did: a problem or an error once (not at every sync that meets it
    /// again), and the changes another device made, on every screen that shows them.
    private func syncFinished(_ seen: SyncSeen) {
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
            syncSchedule.lastProblem = nil
        }
        guard result.changedLibrary else { return }
        for change in result.flags {
            flags.hold(change.flag, change.value, ids: change.articleIDs)
        }
        flags.learn(seen.articles, readAt: seen.stamp)
        guard let feeds = seen.feeds else { return }
        // Every feed unsubscribed on the other device: the list empties here too.
        if feeds.isEmpty { feedList.replace([], starred: seen.starred) }
        showLibrary(feeds: feeds, starred: seen.starred)
    }

    private func tell(_ problem: String, more: Int) {
        guard problem != syncSchedule.lastProblem else { return }
        syncSchedule.lastProblem = problem
        message = problem + (more > 0 ? " (and \(more) more)" : "")
    }
}
