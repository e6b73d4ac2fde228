public import HeraldCore

/// A reload started from the reader, and how far it has got.
@MainActor
final class ReloadRun {
    var progress: ReloadProgress
    init(progress: ReloadProgress) { self.progress = progress }
}

extension ReaderApp {
    /// `r` reloads `feed` (the selected or open one), `R` every feed, `E` shows why feeds
    /// failed last time. True when the key was one of them.
    func handleReloadKeys(_ key: Key, feed: String?) -> Bool {
        switch key {
        case .character("r"):
            guard let feed else { return true }
            startReload(only: feed)
        case .character("R"):
            startReload(only: nil)
        case .character("E"):
            if reloadFailures.isEmpty {
                message = "No feed failed in the last reload."
            } else {
                stack.append(.errors(ReloadErrorsModel(failures: reloadFailures)))
            }
        default:
            return false
        }
        return true
    }

    /// Reloads in the background: the keys keep working, the status line shows progress,
    /// and when it ends the counts and the open list are refreshed, the cursor staying on
    /// the article it was on.
    func startReload(only feed: String?) {
        guard let reloader else {
            message = "Nothing to reload: these feeds were read from files (--feeds)."
            return
        }
        guard reload == nil else {
            message = "A reload is already under way."
            return
        }
        let run = ReloadRun(progress: ReloadProgress(done: 0, total: 0, failed: 0, newArticles: 0))
        reload = run
        let repository = self.repository
        work.start { [weak self] in
            let summary: ReloadSummary
            do {
                summary = try await reloader.reloadFeeds(only: feed) { progress in
                    Task { @MainActor in
                        guard progress.done >= run.progress.done else { return }
                        run.progress = progress
                        self?.onChange()
                    }
                }
            } catch {
                self?.reload = nil
                self?.message = "Reload failed: \(error)"
                return
            }
            let feeds = (try? await repository.feedSummaries()) ?? []
            guard let self else { return }
            self.finishReload(summary, feeds: feeds, only: feed)
        }
    }

    private func finishReload(_ summary: ReloadSummary, feeds: [FeedSummary], only feed: String?) {
        reload = nil
        if feed == nil {
            reloadFailures = summary.failures
        } else {
            reloadFailures.removeAll { $0.url == feed }
            reloadFailures += summary.failures
        }
        if !feeds.isEmpty { feedList.replace(feeds) }
        for screen in stack {
            guard case .articles(let list) = screen, let fresh = feeds.first(where: { $0.id == list.feed.id })
            else { continue }
            list.refresh(total: fresh.total, unread: fresh.unread, visible: bodyRows, in: work)
        }
        let failed = summary.failures.isEmpty ? "" : ", \(summary.failures.count) failed (E: why)"
        message = "Reloaded \(summary.feeds) feed\(summary.feeds == 1 ? "" : "s"): \(summary.newArticles) new\(failed)"
    }

    func handleErrors(_ key: Key, _ model: ReloadErrorsModel) {
        if moveCursor(&model.cursor, key, count: model.failures.count) { return }
        switch key {
        case .character("q"), .character("h"), .left, .escape, .character("E"): stack.removeLast()
        default: break
        }
    }
}

/// The failures of the last reload, one per row.
@MainActor
public final class ReloadErrorsModel {
    public let failures: [ReloadFailure]
    public var cursor = ListCursor()
    init(failures: [ReloadFailure]) { self.failures = failures }
}

/// Draws the failed feeds: title, address, and why.
@MainActor
struct ReloadErrorsView {
    var model: ReloadErrorsModel
    var theme: Theme

    func draw(into canvas: inout Canvas) {
        let frame = ScreenFrame(
            title: "Herald · Reload errors",
            status: "\(model.failures.count) feed\(model.failures.count == 1 ? "" : "s") failed",
            hint: "j/k:move  q:back", theme: theme)
        let rows = frame.draw(into: &canvas)
        let failures = model.failures
        let body = ListBody(
            failure: nil, isLoaded: true, count: failures.count, item: { failures[$0] }, cursor: model.cursor,
            theme: theme, empty: "No feed failed.")
        body.draw(into: &canvas, rows: rows) { failure, y, canvas in
            let width = canvas.size.width
            let title = TextLayout.truncate(failure.title, toWidth: max(width / 3, 8))
            let used = canvas.write(title, x: 2, y: y, style: theme.unread)
            canvas.write(
                TextLayout.truncate(failure.reason, toWidth: max(width - used - 5, 1)), x: used + 4, y: y,
                style: theme.error)
        }
    }
}

/// Reload progress at the right end of the status line: `reloading 12/200 [#####   ] 3 failed`.
enum ReloadIndicator {
    static func draw(_ progress: ReloadProgress, into canvas: inout Canvas, theme: Theme) {
        let row = canvas.size.height - 2
        guard row >= 1 else { return }
        let barWidth = 10
        let filled = progress.total == 0 ? 0 : progress.done * barWidth / progress.total
        var text = "reloading \(progress.done)/\(progress.total) ["
            + String(repeating: "#", count: filled) + String(repeating: " ", count: barWidth - filled) + "]"
        if progress.failed > 0 { text += " \(progress.failed) failed" }
        let width = DisplayWidth.of(text)
        guard width + 2 < canvas.size.width else { return }
        canvas.write(text, x: canvas.size.width - width - 1, y: row, style: progress.failed > 0 ? theme.error : theme.status)
    }
}
