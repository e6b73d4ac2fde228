import HeraldCore

/// Writes of flags (read, star, mark read, undo, the `:` command line's) one after another,
/// in the order the user made them, each tried again for as long as the library is busy.
///
/// Another program writing the library (`herald reload` from cron, a sync) may hold its
/// lock past SQLite's busy timeout (5 s). That is no reason to undo what the user did: the
/// change stays on screen, the status line says it waits, and the write is tried until it
/// is saved. In order, so that a star still waiting is never written after the unstar that
/// followed it.
extension ReaderApp {
    /// Runs `write` once every flag write started before it has ended, as pending work.
    func inOrder(_ write: @escaping @MainActor () async -> Void) {
        let previous = lastFlagWrite
        lastFlagWrite = work.start {
            await previous?.value
            await write()
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
                let result = try await operation(repository)
                if waited {
                    message = "Saved the \(what) (the library was busy)."
                    onChange()
                }
                return result
            } catch let error as any LibraryBusyError where error.isLibraryBusy {
                waited = true
                message =
                    "The library is busy (another program is writing): the \(what) is saved once it is free…"
                onChange()
                try? await clock.sleep(for: pause)
                pause = min(pause * 2, .seconds(2))
            }
        }
    }
}
