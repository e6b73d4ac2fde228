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
    /// The tasks of the timer, the folder watch and the pause (plain tasks, not
    /// `PendingWork`: they wait for good, and `settle()` must not wait for them).
    var timer: Task<Void, Never>?
    var watch: Task<Void, Never>?
    var pause: Task<Void, Never>?
    /// Bumped when sync stops or restarts: a result from before is not shown.
    var round = 0
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
        let (clock, round) = (syncClock, syncSchedule.round)
        syncSchedule.timer = Task { [weak self] in
            while !Task.isCancelled {
                do { try await clock.sleep(for: Self.syncInterval) } catch { return }
                guard let self, round == self.syncSchedule.round else { return }
                self.syncSoon()
            }
        }
        let changes = sync.folderChanges()
        syncSchedule.watch = Task { [weak self] in
            for await _ in changes {
                guard let self, round == self.syncSchedule.round else { return }
                self.syncSoon()
            }
        }
        syncSoon()
    }

    /// Stops the timer and the folder watch; a sync under way finishes unseen.
    public func stopSyncing() {
        syncSchedule.round += 1
        for task in [syncSchedule.timer, syncSchedule.watch, syncSchedule.pause] { task?.cancel() }
        syncSchedule.timer = nil
        syncSchedule.watch = nil
        syncSchedule.pause = nil
        syncSchedule.wanted = false
        syncSchedule.pausing = false
        syncSchedule.running = false
    }

    /// Whether the reader syncs (the timer is armed).
    public var isSyncing: Bool { syncSchedule.timer != nil }

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
        let (clock, round) = (syncClock, schedule.round)
        schedule.pause = Task { [weak self] in
            do { try await clock.sleep(for: Self.syncSpacing) } catch { return }
            guard let self, round == self.syncSchedule.round else { return }
            self.syncSchedule.pausing = false
            self.startWantedSync()
        }
        work.start { [weak self] in
            let outcome: Result<LibrarySyncResult, any Error>
            do { outcome = .success(try await sync.sync()) } catch { outcome = .failure(error) }
            guard let self, round == self.syncSchedule.round else { return }
            self.syncSchedule.running = false
            await self.syncFinished(outcome)
            self.startWantedSync()
        }
    }

    /// Shows what a sync did: a problem or an error once (not at every sync that meets it
    /// again), and the changes another device made, on every screen that shows them.
    private func syncFinished(_ outcome: Result<LibrarySyncResult, any Error>) async {
        let result: LibrarySyncResult
        switch outcome {
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
            showOnScreen(change.flag, change.value, ids: Set(change.articleIDs))
        }
        if !result.isComplete { await rereadOpenArticles() }
        let feeds = try? await repository.feedSummaries()
        let starred = try? await repository.starredCounts()
        guard let feeds else { return }
        // Every feed unsubscribed on the other device: the list empties here too.
        if feeds.isEmpty { feedList.replace([], starred: starred) }
        showLibrary(feeds: feeds, starred: starred)
    }

    private func tell(_ problem: String, more: Int) {
        guard problem != syncSchedule.lastProblem else { return }
        syncSchedule.lastProblem = problem
        message = problem + (more > 0 ? " (and \(more) more)" : "")
    }

    /// The open articles' flags as the library has them (after a sync whose changes were
    /// too many to name).
    private func rereadOpenArticles() async {
        for case .article(let viewer) in stack {
            guard let fresh = try? await repository.article(id: viewer.summary.id).summary else { continue }
            viewer.summary.isRead = fresh.isRead
            viewer.summary.isStarred = fresh.isStarred
        }
    }
}
