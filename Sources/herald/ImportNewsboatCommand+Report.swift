import Foundation
import HeraldCore
import HeraldNewsboat

extension ImportNewsboatCommand {
    /// What the import found and did, printed at the end; every line goes through
    /// `Console`, so feed text from the cache or the urls file prints no control sequence.
    struct Report {
        var articles = 0
        var read = 0
        var starred = 0
        var deleted = 0
        var added = 0
        var markedRead = 0
        var markedStarred = 0
        var newFeeds = 0
        var configCarried = 0
        var configLeft = 0
        /// What was not carried over, one line each, with where it was and why.
        var left: [String] = []
        /// Lines said after the counts (podboat's queue).
        var notes: [String] = []
        /// What each newsboat `ignore-article` line became, and what that does.
        var filters: [String] = []
        /// newsboat's three files: where each was looked for, and whether it was there.
        var files: [File] = []

        /// One of newsboat's files (`urls`, `config`, `cache`), where it was looked for, how
        /// that place was chosen (`-u`, `~/.newsboat`, `cache-file, config line 3` …), and
        /// whether it was there.
        struct File: Encodable {
            var name: String
            var path: String
            var found: Bool
            var chosen: String

            /// `urls: /home/me/.newsboat/urls (~/.newsboat)`, `config: not found at … (-C)`.
            var line: String {
                "\(name): \(found ? "" : "not found at ")\(path) (\(chosen))"
            }
        }

        func finish(feeds: Int, dryRun: Bool, config: (path: String, isNew: Bool)?, json: Bool) {
            if json {
                print(self.json(feeds: feeds, dryRun: dryRun, config: config))
            } else {
                say(feeds: feeds, dryRun: dryRun, config: config)
            }
        }

        func say(feeds: Int, dryRun: Bool, config: (path: String, isNew: Bool)?) {
            for file in files { Console.say("newsboat " + file.line) }
            let prefix = dryRun ? "would import" : "imported"
            Console.say(
                "\(prefix) \(plural(feeds, "feed"))"
                    + (dryRun ? "" : " (\(newFeeds) new)")
                    + ", \(plural(articles, "article")) (\(read) read, \(starred) starred)"
                    + (dryRun
                        ? ""
                        : "; \(added) new to the library, \(markedRead) marked read, \(markedStarred) starred")
            )
            if deleted > 0 { Console.say("\(plural(deleted, "article")) deleted in newsboat: not imported") }
            var configLine = "config: \(plural(configCarried, "line")) carried over, \(configLeft) not"
            if let config {
                let verb = dryRun ? "would be written to" : "written to"
                configLine +=
                    config.isNew
                    ? "; \(verb) \(config.path)"
                    : "; your config is left as it is: the translation \(verb) \(config.path)"
            }
            Console.say(configLine)
            for note in notes { Console.say(TextSanitizer.singleLine(note)) }
            if !filters.isEmpty {
                Console.say("Filters:")
                for line in filters { Console.say("  " + TextSanitizer.singleLine(line)) }
            }
            if !left.isEmpty {
                Console.say("Not carried over:")
                for line in left { Console.say("  " + TextSanitizer.singleLine(line)) }
            }
            if dryRun { Console.say("nothing was written (--dry-run)") }
        }

        /// `--json`: the same as one JSON object (keys in snake case, `not_carried` the list,
        /// `filters` what the ignore-article lines became, `files` where newsboat's files were
        /// looked for and which were found).
        func json(feeds: Int, dryRun: Bool, config: (path: String, isNew: Bool)?) -> String {
            struct Summary: Encodable {
                var dry_run: Bool
                var feeds, new_feeds, articles, read, starred, deleted: Int
                var added, marked_read, marked_starred, config_carried, config_not_carried: Int
                var config_path: String?
                var config_is_new: Bool?
                var not_carried: [String]
                var notes: [String]
                var filters: [String]
                /// `{"urls": {"path": …, "found": true, "chosen": "-u"}, "config": …, "cache": …}`
                var files: [String: File]
            }
            let summary = Summary(
                dry_run: dryRun, feeds: feeds, new_feeds: newFeeds, articles: articles, read: read,
                starred: starred, deleted: deleted, added: added, marked_read: markedRead,
                marked_starred: markedStarred, config_carried: configCarried, config_not_carried: configLeft,
                config_path: config?.path, config_is_new: config?.isNew,
                not_carried: left.map(TextSanitizer.singleLine),
                notes: notes.map(TextSanitizer.singleLine),
                filters: filters.map(TextSanitizer.singleLine),
                files: Dictionary(
                    files.map {
                        var file = $0
                        (file.path, file.chosen) = (
                            TextSanitizer.singleLine(file.path), TextSanitizer.singleLine(file.chosen)
                        )
                        return (file.name, file)
                    }, uniquingKeysWith: { first, _ in first }))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = (try? encoder.encode(summary)) ?? Data("{}".utf8)
            return JSONText.safe(String(decoding: data, as: UTF8.self))
        }

        private func plural(_ count: Int, _ noun: String) -> String {
            "\(count) \(noun)\(count == 1 ? "" : "s")"
        }
    }
}
