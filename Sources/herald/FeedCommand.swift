import Foundation
import HeraldCore
import HeraldStore
import HeraldConfig

/// `herald feed set URL KEY VALUE…`, `herald feed unset URL KEY`, `herald feed show [URL]
/// [--json]`: per-feed settings kept in the library. The config file's `feed URL KEY VALUE`
/// lines win over them, key by key; `show` says which value is in force and where it is from.
enum FeedCommand {
    static func run(_ arguments: [String], options: GlobalOptions) async throws {
        let rest = Array(arguments.dropFirst())
        switch arguments.first {
        case "set": try await set(rest, options: options)
        case "unset": try await unset(rest, options: options)
        case "show": try await show(rest, options: options)
        default:
            throw UsageError(
                "feed takes set, unset or show: herald feed set URL KEY VALUE | unset URL KEY | show [URL] [--json]"
            )
        }
    }

    static func key(_ text: String) throws -> FeedSettingKey {
        guard let key = FeedSettingKey(rawValue: text) else {
            throw UsageError(
                "feed: " + ConfigFile.unknownFeedSetting(text).replacingOccurrences(of: "`", with: "'"))
        }
        return key
    }

    static func feed(_ url: String, in store: LibraryStore) async throws -> String {
        guard try await store.hasFeed(url: url) else {
            throw UsageError("no feed \(url) in the library (`herald export` lists the feeds)")
        }
        return url
    }

    static func set(_ arguments: [String], options: GlobalOptions) async throws {
        guard arguments.count >= 3 else {
            throw UsageError("feed set needs a URL, a setting and a value: herald feed set URL KEY VALUE")
        }
        let key = try key(arguments[1])
        let text = arguments.dropFirst(2).joined(separator: " ")
        let value: String
        switch key.normalize(text) {
        case .success(let normalized): value = normalized
        case .failure(let error):
            throw UsageError("feed set: \(error)".replacingOccurrences(of: "`", with: "'"))
        }
        let store = try await options.openLibrary(importingDemo: false, writing: "herald feed set")
        let url = try await feed(arguments[0], in: store)
        try await store.setFeedSetting(url: url, key: key, value: value)
        Console.say("\(url): \(key.rawValue) \(value)")
        let config = (try? options.loadConfig())?.feedSettings ?? []
        if let line = config.last(where: { $0.url == url && $0.key == key }) {
            Console.say("  (the config file's value wins: \(line.file):\(line.line): \(line.value))")
        }
    }

    static func unset(_ arguments: [String], options: GlobalOptions) async throws {
        guard arguments.count == 2 else {
            throw UsageError("feed unset needs a URL and a setting: herald feed unset URL KEY")
        }
        let key = try key(arguments[1])
        let store = try await options.openLibrary(importingDemo: false, writing: "herald feed unset")
        let url = try await feed(arguments[0], in: store)
        if try await store.unsetFeedSetting(url: url, key: key) {
            Console.say("\(url): \(key.rawValue) unset")
        } else {
            Console.say("\(url) had no \(key.rawValue) in the library; nothing changed")
        }
    }

    struct Row: Encodable {
        var url: String
        var key: String
        var value: String
        var source: String
        var inForce: Bool
        /// `file:line` of a config line.
        var at: String?

        enum CodingKeys: String, CodingKey {
            case url, key, value, source, inForce = "in_force", at
        }
    }

    static func show(_ arguments: [String], options: GlobalOptions) async throws {
        var json = false
        var url: String?
        for argument in arguments {
            if argument == "--json" {
                json = true
            } else if url == nil, !argument.hasPrefix("--") {
                url = argument
            } else {
                throw UsageError("feed show takes at most a URL and --json (got '\(argument)')")
            }
        }
        let store = try await options.openLibrary(importingDemo: false)
        if let url { _ = try await feed(url, in: store) }
        let config = (try? options.loadConfig())?.feedSettings ?? []
        let rows = try await store.storedFeedSettings(url: url).map { stored in
            let line =
                stored.source == .config ? config.last { $0.url == stored.url && $0.key == stored.key } : nil
            return Row(
                url: stored.url, key: stored.key.rawValue, value: stored.value,
                source: stored.source.rawValue,
                inForce: stored.inForce, at: line.map { "\($0.file):\($0.line)" })
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            for row in rows { print(JSONText.safe(String(decoding: try encoder.encode(row), as: UTF8.self))) }
            return
        }
        if rows.isEmpty {
            Console.say(url.map { "\($0) has no settings of its own" } ?? "no feed has settings of its own")
        }
        var shown: String?
        let width = FeedSettingKey.allCases.map(\.rawValue.count).max() ?? 0
        for row in rows {
            if row.url != shown {
                Console.say(row.url)
                shown = row.url
            }
            let pad = String(repeating: " ", count: width - row.key.count)
            let origin =
                row.source == "config"
                ? "config file" + (row.at.map { " \($0)" } ?? "")
                : row.inForce ? "library" : "library, the config file's wins"
            Console.say("  \(row.key)\(pad)  \(row.value)  (\(origin))")
        }
        // A config line for a feed not in the library does nothing: said so.
        var unknown: [FeedSettingLine] = []
        for line in config where url == nil {
            if try await !store.hasFeed(url: line.url) { unknown.append(line) }
        }
        for warning in FeedSettingWarnings.unknownFeeds(unknown) { Console.complain("herald: \(warning)") }
    }
}
