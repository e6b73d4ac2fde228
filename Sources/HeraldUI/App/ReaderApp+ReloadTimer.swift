import HeraldCore
import HeraldConfig

/// `set reload-interval MINUTES`: while the reader is open it reloads every feed on a timer;
/// `set notify-command CMD`: after a reload that brought new articles, CMD runs.
///
/// The timer is one task asleep on `reloadClock` (`Task.sleep` underneath: no polling, no
/// CPU while it waits). When it wakes while a reload is under way (`r`, `R`, or the last
/// one still running) it starts none: it waits for the next turn.
extension ReaderApp {
    /// Arms the timer when the settings ask for one and there is something to reload.
    func startReloadTimer() {
        effects.cancel(.reloadTimer)
        guard settings.reloadInterval > 0, reloader != nil else { return }
        let interval = Duration.seconds(settings.reloadInterval * 60)
        let clock = reloadClock
        // It waits for good: `settle()` does not wait for it, and it holds the app weakly.
        effects.stream(.reloadTimer, settles: false) { send in
            while !Task.isCancelled {
                do { try await clock.sleep(for: interval) } catch { return }
                send(())
            }
        } each: { [weak self] in self?.timerFired() }
    }

    /// Stops the timer (the reader is closing; tests).
    public func stopReloadTimer() {
        effects.cancel(.reloadTimer)
    }

    /// Whether the timer is armed.
    public var isReloadTimerArmed: Bool { effects.isRunning(.reloadTimer) }

    private func timerFired() {
        guard reload == nil else { return }
        startReload(only: nil)
        onChange()
    }

    /// Says when the timer reloads next (roughly: it counts from when it last fired), and
    /// runs `notify-command` when the reload brought new articles (its failure shows on the
    /// status line). One at a time: a run still going when the next reload ends is enough.
    func notify(after summary: ReloadSummary) {
        if isReloadTimerArmed, let message {
            self.message = message + " · next reload in \(settings.reloadInterval) min"
        }
        guard let command = settings.notifyCommand, summary.newArticles > 0, !effects.isRunning(.notify),
            let programs
        else { return }
        let (articles, feeds) = (summary.newArticles, summary.feedsWithNewArticles)
        effects.run(.notify) {
            await programs.notify(command, newArticles: articles, feeds: feeds)
        } then: { failure in
            if let failure { self.message = failure }
        }
    }
}
