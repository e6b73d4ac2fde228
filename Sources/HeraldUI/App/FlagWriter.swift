import HeraldCore
import HeraldConfig

/// Writes of read and starred flags, and `u`.
///
/// A change goes to the one store every screen reads (`ArticleFlags`) and the counts follow
/// at once; the repository is written in the background and a write that fails puts back
/// what the library kept (the screen never shows what the library does not hold), unless it
/// failed only because the library was busy.
///
/// Writes go one after another, in the order the user made them, each tried again for as
/// long as the library is busy. Another program writing the library (`herald reload` from
/// cron, a sync) may hold its lock past SQLite's busy timeout (5 s). That is no reason to
/// undo what the user did: the change stays on screen, the status line says it waits, and
/// the write is tried until it is saved. In order, so that a star still waiting is never
/// written after the unstar that followed it.
///
/// `u` takes the last change back through the same writes the change used (one transaction
/// on the database actor, however many articles), and so the bulk changes of the `:`
/// command line.
@MainActor
public final class FlagWriter {
    /// The changes of flags `u` takes back.
    var undoHistory = UndoHistory() {
        didSet {
            guard undoHistory.pendingWrites == 0, !writeWaiters.isEmpty else { return }
            for waiter in writeWaiters { waiter.resume() }
            writeWaiters = []
        }
    }
    /// Who waits in `finish()`.
    private var writeWaiters: [CheckedContinuation<Void, Never>] = []
    /// The last write of flags started: the next one waits for it.
    private var lastFlagWrite: Task<Void, Never>?
    private unowned let app: ReaderApp

    init(app: ReaderApp) {
        self.app = app
    }

    func setRead(_ isRead: Bool, _ summary: ArticleSummary) {
        let shown = app.flags.shown(summary)
        let id = summary.id
        countRead(isRead, shown)
        app.flags.change(.read, isRead, ids: [id])
        var after = shown
        after.isRead = isRead
        let change = UndoEntry(flag: .read, value: isRead, ids: shown.isRead == isRead ? [] : [id])
        write("read flag", change, kept: [id: shown.isRead], undo: { self.countRead(shown.isRead, after) }) {
            try await $0.setRead(isRead, articleID: id)
        }
    }

    /// The counts follow a read flag shown changing (the feed list's and the open lists').
    func countRead(_ isRead: Bool, _ shown: ArticleSummary) {
        guard shown.isRead != isRead else { return }
        for case .articles(let list) in app.stack { list.countRead(isRead, articleID: shown.id) }
        app.feedList.articleRead(isRead, shown)
    }

    func setStarred(_ isStarred: Bool, _ summary: ArticleSummary) {
        let shown = app.flags.shown(summary)
        let id = summary.id
        if shown.isStarred != isStarred { app.feedList.articleStarred(isStarred, shown) }
        app.flags.change(.starred, isStarred, ids: [id])
        app.message = isStarred ? "Starred." : "Unstarred."
        var after = shown
        after.isStarred = isStarred
        let change = UndoEntry(
            flag: .starred, value: isStarred, ids: shown.isStarred == isStarred ? [] : [id])
        let undo: @MainActor () -> Void = { [app] in
            if shown.isStarred != isStarred { app.feedList.articleStarred(shown.isStarred, after) }
        }
        write("star", change, kept: [id: shown.isStarred], undo: undo) {
            try await $0.setStarred(isStarred, articleID: id)
        }
    }

    /// `A`: every article of a list read; the counts are read again once it is written.
    /// All articles and Unread are everything: those ask first, as `C` does.
    /// `A`: the list's articles read; says how many once written (`title`: the list's name).
    func markListRead(_ source: ArticleSource, title: String, list: ArticleListModel?) {
        if source == .all || source == .unread {
            askToMarkAllRead()
        } else {
            markRead(source, title: title, list: list)
        }
    }

    func markRead(_ source: ArticleSource, title: String? = nil, list: ArticleListModel?) {
        // The rows on screen show read at once; the write says which articles it changed.
        var kept = list?.markAllRead() ?? [:]
        for case .articles(let open) in app.stack where open.list.source == source || source == .all {
            kept.merge(open.markAllRead()) { first, _ in first }
        }
        app.flags.change(.read, true, ids: kept.keys)
        app.feedList.listRead(source)
        undoHistory.pendingWrites += 1
        inOrder {
            defer { self.undoHistory.pendingWrites -= 1 }
            do {
                // Exactly the articles it marked, for undo.
                let ids = try await self.retryingWhileBusy("mark read") {
                    try await $0.setFlag(.read, true, in: source)
                }
                self.app.flags.saved(.read, ids: kept.keys)
                self.app.flags.hold(.read, true, ids: ids)
                self.undoHistory.record(UndoEntry(flag: .read, value: true, ids: ids))
                if let title { self.app.message = Self.markedMessage(ids.count, of: title, keymap: self.app.keymap) }
            } catch {
                self.app.flags.failed(.read, kept: kept)
                // Back to what the library holds: the lists' rows and counts read again.
                let feeds = (try? await self.app.repository.feedSummaries()) ?? []
                let starred = try? await self.app.repository.starredCounts()
                self.app.showLibrary(feeds: feeds, starred: starred)
                self.app.message = "Could not save the mark read (undone): \(error)"
                return
            }
            // The exact counts (a tag's feeds, the starred ones) once the write is done.
            self.app.feedList.load()
            self.app.sync.soon()
        }
    }

    /// What `A` says once written: how many articles of which list, and the key that undoes it.
    static func markedMessage(_ count: Int, of title: String, keymap: Keymap) -> String {
        let name = TextSanitizer.singleLine(title)
        guard count > 0 else { return "\(name) had no unread articles." }
        let undo = keymap.key(for: .undo, on: .feeds).map { " (\($0.label) undoes it)" } ?? ""
        return "Marked \(count) article\(count == 1 ? "" : "s") of \(name) read\(undo)."
    }

    func askToMarkAllRead() {
        guard app.settings.confirmMarkAll else {
            markRead(.all, list: nil)
            app.message = "All articles marked read."
            return
        }
        let question = "Mark every article of every feed read? (y/n)"
        app.confirmation = ReaderApp.Confirmation(question: question) { [weak self] in
            guard let self else { return }
            self.markRead(.all, list: nil)
            self.app.message = "All articles marked read."
        }
    }

    /// Writes through the repository in the background, after the writes before it; the
    /// screen already shows the change. A failure puts back the flags the library kept
    /// (`kept`, by id), undoes the counts (`undo`) and is reported on the status line, but a
    /// busy library is waited for; a success keeps `change` for `u`.
    func write(
        _ what: String, _ change: UndoEntry, kept: [String: Bool], undo: @escaping @MainActor () -> Void,
        _ operation: @escaping @Sendable (any ArticleRepository) async throws -> Void
    ) {
        undoHistory.pendingWrites += 1
        inOrder {
            defer { self.undoHistory.pendingWrites -= 1 }
            do {
                try await self.retryingWhileBusy(what, operation)
                self.app.flags.saved(change.flag, ids: kept.keys)
                self.undoHistory.record(change)
                self.app.sync.soon()
            } catch {
                undo()
                self.app.flags.failed(change.flag, kept: kept)
                self.app.message = "Could not save the \(what) (undone): \(error)"
            }
        }
    }


    /// Returns once every write of flags under way has ended: `N q` typed together quits
    /// with the read flag saved (the reader's loop has ended; its tasks still run).
    public func finish() async {
        while undoHistory.pendingWrites > 0 {
            await withCheckedContinuation { writeWaiters.append($0) }
        }
    }

    func undo() {
        guard undoHistory.pendingWrites == 0 else {
            app.message = "Still saving the last change: undo once it is saved."
            return
        }
        guard let entry = undoHistory.takeLast() else {
            app.message = "nothing to undo"
            return
        }
        undoHistory.pendingWrites += 1
        app.message = "undoing: \(entry.summary)…"
        inOrder {
            defer { self.undoHistory.pendingWrites -= 1 }
            do {
                _ = try await self.retryingWhileBusy("undo") {
                    try await $0.setFlag(entry.flag, !entry.value, articleIDs: entry.ids)
                }
            } catch {
                self.undoHistory.restore(entry)
                self.app.message = "Could not undo \(entry.summary): \(error)"
                return
            }
            self.app.sync.soon()
            await self.showFlags(entry.flag, !entry.value, ids: entry.ids)
            self.app.message = "undid: \(entry.summary)"
        }
    }

    /// Sets a flag on every article of a list that lacks it (`:mark-read` …), in one
    /// transaction; the screen follows once it is written, and `u` takes it back.
    func bulk(_ flag: ArticleFlag, _ value: Bool, _ write: BulkWrite) {
        undoHistory.pendingWrites += 1
        inOrder {
            defer { self.undoHistory.pendingWrites -= 1 }
            let entry: UndoEntry
            do {
                entry = UndoEntry(
                    flag: flag, value: value,
                    ids: try await self.retryingWhileBusy(write.what) { try await write.run($0) })
            } catch {
                self.app.message = "Could not save \(write.what): \(error)"
                return
            }
            self.undoHistory.record(entry)
            if !entry.ids.isEmpty { self.app.sync.soon() }
            await self.showFlags(flag, value, ids: entry.ids)
            let undo = self.app.keymap.key(for: .undo, on: self.app.screenKind).map { " (\($0.label) undoes)" } ?? ""
            self.app.message = entry.ids.isEmpty ? "No article to change in \(write.what)." : entry.summary + undo
        }
    }

    /// Shows a flag written to these articles: every screen at once (the store they read),
    /// then the counts and the open lists as the library now has them.
    func showFlags(_ flag: ArticleFlag, _ value: Bool, ids: [String]) async {
        guard !ids.isEmpty else { return }
        app.flags.hold(flag, value, ids: ids)
        guard let feeds = try? await app.repository.feedSummaries() else { return }
        app.showLibrary(feeds: feeds, starred: try? await app.repository.starredCounts())
    }


    /// Runs `write` once every flag write started before it has ended, as pending work.
    /// The write holds the app until it has ended: a reader closed with a write under way
    /// (its writer holds the app unowned) still saves it and shows nothing stale.
    func inOrder(_ write: @escaping @MainActor () async -> Void) {
        let previous = lastFlagWrite
        let app = self.app
        lastFlagWrite = app.work.start {
            await previous?.value
            await write()
            withExtendedLifetime(app) {}
        }
    }

    /// `operation` on the repository, tried again while the library is busy (after a
    /// pause of 0.25 s, doubling up to 2 s, on top of SQLite's own wait); the status line
    /// says what waits. Any other error is thrown.
    func retryingWhileBusy<T: Sendable>(
        _ what: String, _ operation: @escaping @Sendable (any ArticleRepository) async throws -> T
    ) async throws -> T {
        var pause = Duration.milliseconds(250)
        var waited = false
        while true {
            do {
                let result = try await operation(app.repository)
                if waited {
                    app.message = "Saved the \(what) (the library was busy)."
                    app.onChange()
                }
                return result
            } catch let error as any LibraryBusyError where error.isLibraryBusy {
                waited = true
                app.message =
                    "The library is busy (another program is writing): the \(what) is saved once it is free…"
                app.onChange()
                try? await app.clock.sleep(for: pause)
                pause = min(pause * 2, .seconds(2))
            }
        }
    }
}

/// A bulk write of the command line: what it is over (for messages) and how it is written.
/// It returns the ids of the articles whose flag changed, for undo.
struct BulkWrite: Sendable {
    var what: String
    var run: @Sendable (any ArticleRepository) async throws -> [String]
}