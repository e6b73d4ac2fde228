import HeraldCore

/// Read and starred flags: every screen that shows the article and the counts follow at
/// once; the repository is written in the background, in order, and a write that fails is
/// undone on screen (the screen never shows what the library does not hold), unless it
/// failed only because the library was busy: that one is tried again until it is saved
/// (`ReaderApp+WriteOrder`).
extension ReaderApp {
    func setRead(_ isRead: Bool, _ summary: ArticleSummary) {
        showRead(isRead, summary)
        let id = summary.id
        var shown = summary
        shown.isRead = isRead
        let change = UndoEntry(flag: .read, value: isRead, ids: summary.isRead == isRead ? [] : [id])
        write("read flag", change, undo: { $0.showRead(summary.isRead, shown) }) {
            try await $0.setRead(isRead, articleID: id)
        }
    }

    func showRead(_ isRead: Bool, _ summary: ArticleSummary) {
        for screen in stack { screen.model.show(.read, isRead, ids: [summary.id]) }
        // The counts change once, whatever number of lists show the article.
        if summary.isRead != isRead { feedList.articleRead(isRead, summary) }
    }

    func setStarred(_ isStarred: Bool, _ summary: ArticleSummary) {
        showStarred(isStarred, summary)
        message = isStarred ? "Starred." : "Unstarred."
        let id = summary.id
        var shown = summary
        shown.isStarred = isStarred
        let change = UndoEntry(
            flag: .starred, value: isStarred, ids: summary.isStarred == isStarred ? [] : [id])
        write("star", change, undo: { $0.showStarred(summary.isStarred, shown) }) {
            try await $0.setStarred(isStarred, articleID: id)
        }
    }

    func showStarred(_ isStarred: Bool, _ summary: ArticleSummary) {
        for screen in stack { screen.model.show(.starred, isStarred, ids: [summary.id]) }
        if summary.isStarred != isStarred { feedList.articleStarred(isStarred, summary) }
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
        list?.markAllRead()
        for screen in stack {
            if case .articles(let open) = screen, open.list.source == source || source == .all {
                open.markAllRead()
            }
        }
        feedList.listRead(source)
        undoHistory.pendingWrites += 1
        inOrder {
            defer { self.undoHistory.pendingWrites -= 1 }
            do {
                // Exactly the articles it marked, for undo.
                let ids = try await self.retryingWhileBusy("mark read") {
                    try await $0.setFlag(.read, true, in: source)
                }
                self.undoHistory.record(UndoEntry(flag: .read, value: true, ids: ids))
            } catch {
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
    /// screen already shows the change. A failure is undone on screen (`undo`) and reported
    /// on the status line, but a busy library is waited for; a success keeps `change` for `u`.
    func write(
        _ what: String, _ change: UndoEntry, undo: @escaping @MainActor (ReaderApp) -> Void,
        _ operation: @escaping @Sendable (any ArticleRepository) async throws -> Void
    ) {
        undoHistory.pendingWrites += 1
        inOrder {
            defer { self.undoHistory.pendingWrites -= 1 }
            do {
                try await self.retryingWhileBusy(what, operation)
                self.undoHistory.record(change)
                self.syncSoon()
            } catch {
                undo(self)
                self.message = "Could not save the \(what) (undone): \(error)"
            }
        }
    }
}
