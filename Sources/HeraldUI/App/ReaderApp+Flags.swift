import HeraldCore

/// Read and starred flags: the change goes to the one store every screen reads
/// (`ArticleFlags`) and the counts follow at once; the repository is written in the
/// background, in order, and a write that fails puts back what the library kept (the screen
/// never shows what the library does not hold), unless it failed only because the library
/// was busy: that one is tried again until it is saved (`ReaderApp+WriteOrder`).
extension ReaderApp {
    func setRead(_ isRead: Bool, _ summary: ArticleSummary) {
        let shown = flags.shown(summary)
        let id = summary.id
        countRead(isRead, shown)
        flags.change(.read, isRead, ids: [id])
        var after = shown
        after.isRead = isRead
        let change = UndoEntry(flag: .read, value: isRead, ids: shown.isRead == isRead ? [] : [id])
        write("read flag", change, kept: [id: shown.isRead], undo: { $0.countRead(shown.isRead, after) }) {
            try await $0.setRead(isRead, articleID: id)
        }
    }

    /// The counts follow a read flag shown changing (the feed list's and the open lists').
    func countRead(_ isRead: Bool, _ shown: ArticleSummary) {
        guard shown.isRead != isRead else { return }
        for case .articles(let list) in stack { list.countRead(isRead, articleID: shown.id) }
        feedList.articleRead(isRead, shown)
    }

    func setStarred(_ isStarred: Bool, _ summary: ArticleSummary) {
        let shown = flags.shown(summary)
        let id = summary.id
        if shown.isStarred != isStarred { feedList.articleStarred(isStarred, shown) }
        flags.change(.starred, isStarred, ids: [id])
        message = isStarred ? "Starred." : "Unstarred."
        var after = shown
        after.isStarred = isStarred
        let change = UndoEntry(
            flag: .starred, value: isStarred, ids: shown.isStarred == isStarred ? [] : [id])
        let undo: @MainActor (ReaderApp) -> Void = { app in
            if shown.isStarred != isStarred { app.feedList.articleStarred(shown.isStarred, after) }
        }
        write("star", change, kept: [id: shown.isStarred], undo: undo) {
            try await $0.setStarred(isStarred, articleID: id)
        }
    }

    /// `A`: every article of a list read; the counts are read again once it is written.
    /// All articles and Unread are everything: those ask first, as `C` does.
    func markListRead(_ source: ArticleSource, list: ArticleListModel?) {
        if source == .all || source == .unread {
            askToMarkAllRead()
        } else {
            markRead(source, list: list)
        }
    }

    func markRead(_ source: ArticleSource, list: ArticleListModel?) {
        // The rows on screen show read at once; the write says which articles it changed.
        var kept = list?.markAllRead() ?? [:]
        for case .articles(let open) in stack where open.list.source == source || source == .all {
            kept.merge(open.markAllRead()) { first, _ in first }
        }
        flags.change(.read, true, ids: kept.keys)
        feedList.listRead(source)
        undoHistory.pendingWrites += 1
        inOrder {
            defer { self.undoHistory.pendingWrites -= 1 }
            do {
                // Exactly the articles it marked, for undo.
                let ids = try await self.retryingWhileBusy("mark read") {
                    try await $0.setFlag(.read, true, in: source)
                }
                self.flags.saved(.read, ids: kept.keys)
                self.flags.hold(.read, true, ids: ids)
                self.undoHistory.record(UndoEntry(flag: .read, value: true, ids: ids))
            } catch {
                self.flags.failed(.read, kept: kept)
                // Back to what the library holds: the lists' rows and counts read again.
                let feeds = (try? await self.repository.feedSummaries()) ?? []
                let starred = try? await self.repository.starredCounts()
                self.showLibrary(feeds: feeds, starred: starred)
                self.message = "Could not save the mark read (undone): \(error)"
                return
            }
            // The exact counts (a tag's feeds, the starred ones) once the write is done.
            self.feedList.load()
            self.syncSoon()
        }
    }

    func askToMarkAllRead() {
        guard settings.confirmMarkAll else {
            markRead(.all, list: nil)
            message = "All articles marked read."
            return
        }
        confirmation = Confirmation(question: "Mark every article of every feed read? (y/n)") { [weak self] in
            guard let self else { return }
            self.markRead(.all, list: nil)
            self.message = "All articles marked read."
        }
    }

    /// Writes through the repository in the background, after the writes before it; the
    /// screen already shows the change. A failure puts back the flags the library kept
    /// (`kept`, by id), undoes the counts (`undo`) and is reported on the status line, but a
    /// busy library is waited for; a success keeps `change` for `u`.
    func write(
        _ what: String, _ change: UndoEntry, kept: [String: Bool], undo: @escaping @MainActor (ReaderApp) -> Void,
        _ operation: @escaping @Sendable (any ArticleRepository) async throws -> Void
    ) {
        undoHistory.pendingWrites += 1
        inOrder {
            defer { self.undoHistory.pendingWrites -= 1 }
            do {
                try await self.retryingWhileBusy(what, operation)
                self.flags.saved(change.flag, ids: kept.keys)
                self.undoHistory.record(change)
                self.syncSoon()
            } catch {
                undo(self)
                self.flags.failed(change.flag, kept: kept)
                self.message = "Could not save the \(what) (undone): \(error)"
            }
        }
    }
}
