import Foundation
import HeraldConfig
import HeraldCore

/// The podcast queue (`d`): podboat's keys (d download, c cancel, D remove, P purge, p or
/// Enter play, m played, + and - the downloads at once).
extension DownloadsModel: ListScreen {
    var kind: ScreenKind { .downloads }
    var windowTitle: String? { "Podcasts" }
    var ownedEffects: Effects? { effects }

    func draw(into canvas: inout Canvas, in app: ReaderApp) {
        DownloadsView(model: self, theme: app.theme, keymap: app.keymap).draw(into: &canvas)
    }

    func resized(in app: ReaderApp) { cursor.clamp(count: entries.count, visible: app.bodyRows) }
}

extension DownloadsModel {
    /// Carries out an action the keymap found for a key on this screen.
    func perform(_ action: Action, count: Int?, in app: ReaderApp) {
        if app.move(&self.cursor, action, count: count, rows: self.entries.count) { return }
        switch action {
        case .back: app.back()
        case .moreDownloads, .fewerDownloads:
            // As `:set max-downloads` does: the setting, its users (the queue) and `:dumpconfig`.
            maxDownloads = max(1, min(20, app.settings.maxDownloads + (action == .moreDownloads ? 1 : -1)))
            app.run("set max-downloads \(maxDownloads)")
            app.message = "Up to \(maxDownloads) download\(maxDownloads == 1 ? "" : "s") at once."
        case .purgeDownloads:
            let (queue, deleting) = (queue, app.settings.deletePlayedFiles)
            change(in: app) {
                let gone = try await queue.purge(deletingFiles: deleting)
                return gone == 0
                    ? "Nothing to purge: no episode is played (m marks one)."
                    : "Removed \(gone) played episode\(gone == 1 ? "" : "s") from the queue"
                        + (deleting ? " and their files." : " (their files stay).")
            }
        default:
            guard let entry = selected else {
                app.message = "The queue is empty: e on an article with a podcast adds its episode."
                return
            }
            perform(action, on: entry, in: app)
        }
    }

    private func perform(_ action: Action, on entry: Download, in app: ReaderApp) {
        let queue = self.queue
        switch action {
        case .open, .play:
            guard entry.state == .finished || entry.state == .played else {
                app.message = "“\(entry.title)” is \(entry.state.rawValue), not downloaded yet"
                    + (entry.state == .downloading ? "." : ": d downloads it.")
                return
            }
            guard let programs = app.programs else {
                app.message = "Episodes play in a terminal session: \(entry.path)"
                return
            }
            if let failure = programs.play(file: entry.path) {
                app.message = "Could not play \(entry.path): \(failure)"
                return
            }
            change(in: app) {
                try await queue.setPlayed(true, id: entry.id)
                return "Playing \(entry.path)"
            }
        case .downloadNow:
            switch entry.state {
            case .finished, .played: app.message = "“\(entry.title)” is downloaded: \(entry.path)"
            case .queued, .failed, .cancelled, .downloading:
                change(in: app) {
                    try await queue.download(id: entry.id)
                    if entry.state == .downloading { return "“\(entry.title)” is downloading." }
                    return "Downloading “\(entry.title)”" + (entry.received > 0 ? ", from where it stopped." : ".")
                }
            }
        case .cancelDownload:
            guard entry.state == .downloading || entry.state == .queued else {
                app.message = "“\(entry.title)” is \(entry.state.rawValue): nothing to stop."
                return
            }
            change(in: app) {
                guard try await queue.cancel(id: entry.id) else {
                    return "“\(entry.title)” is not downloading here (another herald may be): nothing stopped."
                }
                return "Stopped “\(entry.title)”; d goes on from where it stopped."
            }
        case .deleteDownload:
            let deleting = app.settings.deletePlayedFiles
            change(in: app) {
                try await queue.remove(id: entry.id, deletingFile: deleting)
                let done = entry.state == .finished || entry.state == .played
                let deleted = deleting && entry.state == .played
                return "Removed “\(entry.title)” from the queue"
                    + (done ? (deleted ? " and deleted its file." : "; the file stays: \(entry.path)") : ".")
            }
        case .markPlayed:
            guard entry.state == .finished || entry.state == .played else {
                app.message = "Only a downloaded episode is played or not."
                return
            }
            change(in: app) {
                try await queue.setPlayed(entry.state == .finished, id: entry.id)
                return entry.state == .finished ? "Marked “\(entry.title)” played." : "Marked “\(entry.title)” not played."
            }
        default: app.unavailable(action)
        }
    }

    /// Runs a change of the queue, then says what it did (or why it could not) and reads the
    /// queue again.
    private func change(in app: ReaderApp, _ operation: @escaping @MainActor () async throws -> String) {
        let visible = app.bodyRows
        effects.run(.step) {
            do { return try await operation() } catch { return "The podcast queue: \(error)" }
        } then: { [weak self, weak app] said in
            app?.message = said
            self?.refresh(visible: visible)
        }
    }
}

extension ReaderApp {
    /// `d`: the podcast queue.
    func showDownloads() {
        guard let podcasts else {
            message = "The podcast queue lives in a library (herald without --feeds)."
            return
        }
        let model = DownloadsModel(queue: podcasts, work: work, maxDownloads: settings.maxDownloads)
        push(.downloads(model))
        // A frame only while the queue is on top: under an article, its progress draws nothing.
        model.start(visible: { [weak self] in self?.bodyRows ?? 1 }) { [weak self, weak model] in
            guard let self, case .downloads(let top) = self.screen, top === model else { return }
            self.onChange()
        }
    }

    /// `e`: the article's episode into the queue, to `download-path`.
    func enqueue(_ article: Article) {
        guard let podcasts else {
            message = "The podcast queue lives in a library (herald without --feeds)."
            return
        }
        let feedURL = feedList.feeds.first { $0.id == article.summary.feedID }?.feed.url
        guard let request = EpisodePath.request(for: article, feedURL: feedURL, settings: settings) else {
            message = "This article has no podcast or video to download."
            return
        }
        work.start {
            do {
                switch try await podcasts.enqueue(request) {
                case .added(let entry):
                    self.message = "Queued “\(entry.title)” → \(entry.path) (d: the queue)"
                case .alreadyQueued(let entry):
                    self.message = "“\(entry.title)” is in the queue already (\(entry.state.rawValue)); d shows it."
                }
            } catch {
                self.message = "Could not queue the episode: \(error)"
            }
        }
    }
}
