import HeraldCore

/// `u`: the last change of read or starred flags taken back, through the same writes the
/// change used (one transaction on the database actor, however many articles); and the
/// bulk changes of the `:` command line, which undo takes back the same way.
extension ReaderApp {
    /// Returns once every write of flags under way has ended: `N q` typed together quits
    /// with the read flag saved (the reader's loop has ended; its tasks still run).
    public func finishWrites() async {
        while undoHistory.pendingWrites > 0 {
            await withCheckedContinuation { writeWaiters.append($0) }
        }
    }

    func undo() {
        guard undoHistory.pendingWrites == 0 else {
            message = "Still saving the last change: undo once it is saved."
            return
        }
        guard let entry = undoHistory.takeLast() else {
            message = "nothing to undo"
            return
        }
        undoHistory.pendingWrites += 1
        message = "undoing: \(entry.summary)…"
        inOrder {
            defer { self.undoHistory.pendingWrites -= 1 }
            do {
                _ = try await self.retryingWhileBusy("undo") {
                    try await $0.setFlag(entry.flag, !entry.value, articleIDs: entry.ids)
                }
            } catch {
                self.undoHistory.restore(entry)
                self.message = "Could not undo \(entry.summary): \(error)"
                return
            }
            self.syncSoon()
            await self.showFlags(entry.flag, !entry.value, ids: entry.ids)
            self.message = "undid: \(entry.summary)"
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
                self.message = "Could not save \(write.what): \(error)"
                return
            }
            self.undoHistory.record(entry)
            if !entry.ids.isEmpty { self.syncSoon() }
            await self.showFlags(flag, value, ids: entry.ids)
            let undo = self.keymap.key(for: .undo, on: self.screenKind).map { " (\($0.label) undoes)" } ?? ""
            self.message = entry.ids.isEmpty ? "No article to change in \(write.what)." : entry.summary + undo
        }
    }

    /// Shows a flag written to these articles: every screen at once (the store they read),
    /// then the counts and the open lists as the library now has them.
    func showFlags(_ flag: ArticleFlag, _ value: Bool, ids: [String]) async {
        guard !ids.isEmpty else { return }
        flags.hold(flag, value, ids: ids)
        guard let feeds = try? await repository.feedSummaries() else { return }
        showLibrary(feeds: feeds, starred: try? await repository.starredCounts())
    }
}

/// A bulk write of the command line: what it is over (for messages) and how it is written.
/// It returns the ids of the articles whose flag changed, for undo.
struct BulkWrite: Sendable {
    var what: String
    var run: @Sendable (any ArticleRepository) async throws -> [String]
}
