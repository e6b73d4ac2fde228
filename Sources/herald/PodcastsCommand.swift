import Foundation
import HeraldConfig
import HeraldCore
import HeraldReload
import HeraldStore

/// `herald podcasts [--json]`: the podcast queue; `herald podcasts add ID`: an article's
/// episode into it; `herald podcasts download`: the queue downloaded now (podboat's `-a`),
/// for cron or a second terminal.
enum PodcastsCommand {
    struct Row: Encodable {
        var id: Int64
        var state: String
        var title: String
        var feed: String
        var url: String
        var path: String
        var received: Int64
        var size: Int64?
        var error: String?
    }

    static func run(_ arguments: [String], options: GlobalOptions) async throws -> Int32 {
        var json = false
        var quiet = false
        var words: [String] = []
        var reader = ArgumentReader(arguments)
        while let argument = reader.next() {
            switch argument {
            case "--json": json = true
            case "--quiet": quiet = true
            case let word where !word.hasPrefix("-"): words.append(word)
            default: throw UsageError("podcasts: unknown option '\(argument)'")
            }
        }
        switch words.first {
        case nil, "list":
            let store = try await options.openLibrary(importingDemo: false)
            let queue = PodcastDownloads(store: store, maxDownloads: 1, automatic: false)
            try print(await queue.entries(), json: json)
            return 0
        case "add":
            guard words.count >= 2 else { throw UsageError("podcasts add: which article? (its id, from herald list)") }
            let config = try options.loadConfig()
            let store = try await options.openLibrary(importingDemo: false, writing: "herald podcasts add")
            let queue = PodcastDownloads(store: store, maxDownloads: 1, automatic: false)
            var failed = false
            for id in words.dropFirst() {
                guard let article = try? await store.article(id: id) else {
                    Console.complain("herald: podcasts add: no article \(TextSanitizer.singleLine(id))")
                    failed = true
                    continue
                }
                let feedURL = try? await store.feedSummaries().first { $0.id == article.summary.feedID }?.feed.url
                guard let request = EpisodePath.request(for: article, feedURL: feedURL, settings: config.settings)
                else {
                    Console.complain("herald: podcasts add: article \(id) has no podcast or video")
                    failed = true
                    continue
                }
                switch try await queue.enqueue(request) {
                case .added(let entry): Console.say("queued: \(TextSanitizer.singleLine(entry.title)) → \(TextSanitizer.singleLine(entry.path))")
                case .alreadyQueued(let entry):
                    Console.say("already queued (\(entry.state.rawValue)): \(TextSanitizer.singleLine(entry.title))")
                }
            }
            return failed ? 1 : 0
        case "download":
            let config = try options.loadConfig()
            let store = try await options.openLibrary(importingDemo: false, writing: "herald podcasts download")
            let queue = PodcastDownloads(store: store, maxDownloads: config.settings.maxDownloads)
            // Failed and cancelled entries are tried again, from where they stopped.
            for entry in try await queue.entries() where entry.state == .failed || entry.state == .cancelled {
                try await store.setDownloadState(id: entry.id, .queued)
            }
            let before = try await queue.entries()
            let changes = await queue.changes()
            let initial = Dictionary(uniqueKeysWithValues: before.map { ($0.id, $0.state) })
            // Each entry's state changes, said as they happen (until cancelled).
            let watcher = Task {
                var said = initial
                for await _ in changes {
                    guard !quiet, let entries = try? await queue.entries() else { continue }
                    for entry in entries where said[entry.id] != entry.state {
                        said[entry.id] = entry.state
                        Console.complain(line(entry))
                    }
                }
                return said
            }
            try await queue.resume()
            await queue.waitUntilIdle()
            watcher.cancel()
            let said = await watcher.value
            let after = try await queue.entries()
            if !quiet {
                for entry in after where said[entry.id] != entry.state { Console.complain(line(entry)) }
            }
            return after.contains { $0.state == .failed } ? 1 : 0
        default:
            throw UsageError("podcasts: unknown command '\(TextSanitizer.singleLine(words[0]))' (list, add, download)")
        }
    }

    private static func print(_ entries: [Download], json: Bool) throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            for entry in entries {
                let row = Row(
                    id: entry.id, state: entry.state.rawValue, title: entry.title, feed: entry.feedTitle,
                    url: entry.url, path: entry.path, received: entry.received, size: entry.size, error: entry.error)
                Swift.print(JSONText.safe(String(decoding: try encoder.encode(row), as: UTF8.self)))
            }
            return
        }
        guard !entries.isEmpty else {
            Console.complain("the podcast queue is empty: e on an article with an episode adds it")
            return
        }
        for entry in entries { Console.say(line(entry)) }
    }

    /// `  3  downloading  45.2/200.0 MB  Title — /home/me/Podcasts/file.mp3`, and why it failed.
    static func line(_ entry: Download) -> String {
        let size =
            entry.state == .finished || entry.state == .played
            ? Enclosure.size(entry.received)
            : entry.size.map { "\(Enclosure.size(entry.received))/\(Enclosure.size($0))" } ?? Enclosure.size(entry.received)
        let percent =
            entry.state == .downloading || entry.state == .cancelled || entry.state == .failed
            ? entry.fraction.map { " \(Int(($0 * 100).rounded(.down)))%" } ?? "" : ""
        var text = "\(entry.id)  \(entry.state.rawValue)\(percent)  \(size)  \(entry.title) — \(entry.path)"
        if let error = entry.error, entry.state == .failed { text += " (\(error))" }
        return TextSanitizer.singleLine(text)
    }
}
