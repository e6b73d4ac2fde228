import HeraldCore

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

        func say(feeds: Int, dryRun: Bool, config: (path: String, isNew: Bool)?) {
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
            if !left.isEmpty {
                Console.say("Not carried over:")
                for line in left { Console.say("  " + TextSanitizer.singleLine(line)) }
            }
            if dryRun { Console.say("nothing was written (--dry-run)") }
        }

        private func plural(_ count: Int, _ noun: String) -> String {
            "\(count) \(noun)\(count == 1 ? "" : "s")"
        }
    }
}
