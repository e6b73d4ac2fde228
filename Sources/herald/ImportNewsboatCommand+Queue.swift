import Foundation
import HeraldConfig
import HeraldCore
import HeraldNewsboat
import HeraldStore

/// podboat's queue (`queue` beside `cache.db`) into Herald's podcast queue: each episode with
/// its file, downloaded, played, or to download (from its `.part`, where podboat left one).
extension ImportNewsboatCommand {
    struct QueuePlan {
        var path: String
        var entries: [(request: DownloadRequest, state: Download.State)] = []
    }

    static func queuePath(_ setup: NewsboatSetup) -> String {
        URL(fileURLWithPath: setup.cache).deletingLastPathComponent().appendingPathComponent("queue").path
    }

    /// What of the queue file can come over; the rest goes to the report with its line.
    static func planQueue(_ setup: NewsboatSetup, settings: Settings, report: inout Report) throws -> QueuePlan? {
        let path = queuePath(setup)
        guard let text = try read(path, what: "podboat queue") else { return nil }
        var plan = QueuePlan(path: path)
        let (entries, problems) = PodboatQueue.parse(text)
        for problem in problems {
            report.left.append("\(path):\(problem.line): \(problem.text.prefix(120)): \(problem.reason)")
        }
        for entry in entries {
            let place = "\(path):\(entry.line)"
            guard let scheme = URL(string: entry.url)?.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
                report.left.append("\(place): \(entry.url.prefix(120)): only http and https episodes are downloaded")
                continue
            }
            // The file podboat chose (the user's own file, kept where it is), else where
            // Herald's download-path puts it.
            let file =
                entry.path.map(HomeFolder.expanding)
                ?? EpisodePath.path(
                    for: .init(url: entry.url, title: "", feedTitle: ""), folder: settings.downloadPath,
                    name: settings.downloadFileName)
            guard file.hasPrefix("/"), !file.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
            else {
                report.left.append("\(place): \(file.prefix(120)): not an absolute path to a file")
                continue
            }
            let state: Download.State
            if FileManager.default.fileExists(atPath: file) {
                state = entry.mark == .played ? .played : .finished
            } else {
                state = .queued
            }
            let name = URL(fileURLWithPath: file).lastPathComponent
            plan.entries.append(
                (DownloadRequest(url: entry.url, path: file, title: name, feedTitle: ""), state))
        }
        return plan
    }

    /// Adds the planned episodes (titled after their articles, where the library has them);
    /// an address already queued is left as it is. Returns how many were added.
    static func importQueue(_ plan: QueuePlan, into store: LibraryStore) async throws -> Int {
        var added = 0
        let now = Int64(Date().timeIntervalSince1970)
        for (request, state) in plan.entries {
            var request = request
            if let titles = try await store.episodeTitles(url: request.url) {
                (request.title, request.feedTitle) = (TextSanitizer.singleLine(titles.title), titles.feed)
            }
            guard case .added(let entry) = try await store.addDownload(request, added: now) else { continue }
            if state != .queued { try await store.setDownloadState(id: entry.id, state) }
            added += 1
        }
        return added
    }

    /// `podboat queue: /home/me/.newsboat/queue: 3 episodes (1 downloaded, 1 played, 1 to download)`.
    static func queueLine(_ plan: QueuePlan, dryRun: Bool, added: Int) -> String {
        let count = { (state: Download.State) in plan.entries.count { $0.state == state } }
        let what =
            "\(plan.entries.count) episode\(plan.entries.count == 1 ? "" : "s") (\(count(.finished)) downloaded, "
            + "\(count(.played)) played, \(count(.queued)) to download)"
        return "podboat queue: \(plan.path): " + (dryRun ? "would import \(what)" : "\(what); \(added) new to the queue")
    }
}
