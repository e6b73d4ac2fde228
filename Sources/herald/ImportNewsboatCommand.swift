import Foundation
import HeraldCore
import HeraldNewsboat
import HeraldConfig
import HeraldFetch
import HeraldStore

/// `herald import-newsboat [DIR] [-u URLS] [-c CACHE] [-C CONFIG] [--dry-run] [--json]`: a newsboat
/// setup in one command — its feeds with tags and titles (`urls`, its `exec:` and `filter:`
/// feeds included), its cached articles with their read and flagged state (`cache.db`), and
/// what of its `config` (and query feeds) Herald can read. Any of the three files may be
/// missing (without `urls`, the cache's feeds come over); the report says which were found
/// where. Everything left behind is listed with its line and reason.
enum ImportNewsboatCommand {
    /// One feed to import: its subscription, its address in the cache, and what the cache
    /// holds of it (its articles are read one feed at a time, as they are imported).
    struct FeedPlan {
        var subscription: Subscription
        var cacheURL: String?
        var counts: (articles: Int, read: Int, flagged: Int)
        /// The title the user gave the feed in newsboat's urls (`~Title`).
        var userTitle: String? = nil
    }

    /// newsboat's own options naming one file each, short and long, as its command line has
    /// them (`-u URLS`, `--url-file URLS`, `--url-file=URLS`).
    static let fileOptions: [(short: String, long: String)] = [
        ("-u", "--url-file"), ("-c", "--cache-file"), ("-C", "--config-file"),
    ]

    static let usage =
        "herald import-newsboat [DIR] [-u URLS] [-c CACHE] [-C CONFIG] [--dry-run] [--json]"

    static func run(_ arguments: [String], options: GlobalOptions) async throws {
        var dryRun = false
        var json = false
        var directory: String?
        var named: [String: String] = [:]
        var reader = ArgumentReader(arguments)
        while let argument = reader.next() {
            if argument == "--dry-run" {
                dryRun = true
            } else if argument == "--json" {
                json = true
            } else if let option = fileOptions.first(where: { $0.short == argument || $0.long == argument }) {
                named[option.short] = try reader.value(of: argument)
            } else if let option = fileOptions.first(where: { argument.hasPrefix($0.long + "=") }) {
                named[option.short] = String(argument.dropFirst(option.long.count + 1))
            } else if argument.hasPrefix("-") || directory != nil {
                throw UsageError(
                    "import-newsboat takes a directory, newsboat's -u, -c and -C, --dry-run and --json: \(usage)"
                )
            } else {
                directory = argument
            }
        }
        // Everything is read and checked before anything is written.
        var report = Report()
        let (setup, urls, configText, cacheFound) = try files(
            directory: directory, named: named, report: &report)
        let cache = cacheFound ? try NewsboatCacheFile(path: setup.cache) : nil
        let plans: [FeedPlan]
        if let urls {
            plans = try plan(urls: urls, cache: cache, report: &report)
        } else if let cache {
            plans = try plan(cache: cache, report: &report)
        } else {
            plans = []
        }
        let lines = configText?.lines ?? []
        let translation = checked(NewsboatConfig.translate(lines: lines.map(\.text)))
        /// Where a line of the translation was: `config line 3`, `/home/me/.newsboat/keys:7`.
        func place(_ line: Int) -> String {
            lines.indices.contains(line - 1) ? lines[line - 1].place : "config"
        }
        let extras = NewsboatURLExtras.parse(urls ?? "")
        var queryLines: [String] = []
        for query in extras.queries {
            switch query.translation {
            case .success(let line): queryLines.append(line)
            case .failure(let problem):
                report.left.append("urls line \(query.line): query \"\(query.name)\": \(problem.reason)")
            }
        }
        for hidden in extras.hidden {
            report.left.append(
                "urls line \(hidden.line): \(hidden.url) is hidden in newsboat (!); Herald lists every feed")
        }
        // The query feeds first: they are what a newsboat user sees first in the feed list.
        let written = queryLines + translation.lines
        report.filters = filterNotes(translation, place: place)
        var notCarried: [(place: String, text: String, reason: String)] =
            translation.skipped.map { (place($0.line), $0.text, $0.reason) }
        notCarried += (configText?.problems ?? []).map { ($0.place, $0.text, $0.reason) }
        for skipped in notCarried {
            report.left.append("\(skipped.place): \(skipped.text.prefix(120)): \(skipped.reason)")
        }
        report.configCarried = translation.carried + queryLines.count
        report.configLeft = notCarried.count
        report.articles = plans.reduce(0) { $0 + $1.counts.articles }
        report.read = plans.reduce(0) { $0 + $1.counts.read }
        report.starred = plans.reduce(0) { $0 + $1.counts.flagged }
        report.deleted = cache?.deletedCount(feedURLs: plans.compactMap(\.cacheURL)) ?? 0
        let target = configTarget(options)
        let settings = (try? options.loadConfig().settings) ?? Settings()
        let queue = try planQueue(setup, settings: settings, report: &report)
        if dryRun {
            if let queue { report.notes.append(queueLine(queue, dryRun: true, added: 0)) }
            report.finish(
                feeds: plans.count, dryRun: true, config: written.isEmpty ? nil : target, json: json
            )
            return
        }
        let store = try await options.openLibrary(importingDemo: false, writing: "herald import-newsboat")
        var results: [SubscribeResult] = []
        for plan in plans {
            let (items, leftOut) = try plan.cacheURL.flatMap { try cache?.items(feedURL: $0) } ?? ([], 0)
            if leftOut > 0 { report.left.append(Self.leftOutNote(leftOut, of: plan)) }
            let articles = await Self.converted(items)
            let (subscribed, counts) = try await store.importFeed(plan.subscription, articles: articles)
            if let title = plan.userTitle {
                try await store.setFeedSetting(url: plan.subscription.url, key: .title, value: title)
            }
            results.append(subscribed)
            report.added += counts.added
            report.markedRead += counts.markedRead
            report.markedStarred += counts.starred
        }
        report.newFeeds = results.filter { $0 == .new }.count
        // After the feeds: an episode takes its article's title.
        if let queue {
            report.notes.append(queueLine(queue, dryRun: false, added: try await importQueue(queue, into: store)))
        }
        if !written.isEmpty { try write(written, to: target, setup: setup) }
        report.finish(
            feeds: plans.count, dryRun: false, config: written.isEmpty ? nil : target, json: json)
        try await SubscriptionCommands.retireDemoFeeds(store, after: results)
    }

    /// newsboat's files: where each is (the directory, newsboat's own places, `-u`/`-c`/`-C`,
    /// the config's `cache-file`), the text of `urls` and of the config with its includes,
    /// and whether the cache is there; each noted in the report, found or not. Refused only
    /// when none of the three is there, naming the three places.
    static func files(directory: String?, named: [String: String], report: inout Report) throws -> (
        setup: NewsboatSetup, urls: String?, config: NewsboatConfigText?, cacheFound: Bool
    ) {
        let environment = ProcessInfo.processInfo.environment
        var setup = NewsboatSetup.locate(directory: directory, environment: environment)
            .overriding(urls: named["-u"], cache: named["-c"], config: named["-C"], environment: environment)
        let config = try NewsboatConfigText.read(config: setup.config, environment: environment) {
            try read($0, what: "config")
        }
        if named["-c"] == nil, let cacheFile = config?.cacheFile {
            setup = setup.followingCacheFile(cacheFile.path, at: cacheFile.place, environment: environment)
        }
        let urls = try read(setup.urls, what: "urls file")
        let cacheFound = FileManager.default.fileExists(atPath: setup.cache)
        report.files = [
            .init(name: "urls", path: setup.urls, found: urls != nil, chosen: setup.chosen.urls),
            .init(name: "config", path: setup.config, found: config != nil, chosen: setup.chosen.config),
            .init(name: "cache", path: setup.cache, found: cacheFound, chosen: setup.chosen.cache),
        ]
        guard urls != nil || config != nil || cacheFound else {
            throw UsageError(
                "no newsboat files: no urls at \(setup.urls), no config at \(setup.config), no cache at \(setup.cache)"
                    + " (name them: herald import-newsboat DIR, or -u URLS -c CACHE -C CONFIG)")
        }
        return (setup, urls, config, cacheFound)
    }

    /// What each `ignore-article` line became, and what that does: no filter the import
    /// writes deletes anything.
    static func filterNotes(_ translation: NewsboatTranslation, place: (Int) -> String) -> [String] {
        translation.directives.compactMap { translated in
            guard case .filter(_, let action) = translated.directive else { return nil }
            let meaning =
                action == .hide
                ? "matching articles stay in the library, out of sight (ignore-mode display); without the line they show again"
                : "new matching articles are not stored (ignore-mode download, newsboat's default); stored ones stay"
            return
                "\(place(translated.origin)): ignore-article → \(translated.directive.line): \(meaning)"
        }
    }

    /// Why articles of a feed in the cache were not imported.
    static func leftOutNote(_ count: Int, of plan: FeedPlan) -> String {
        "cache: \(count) article\(count == 1 ? "" : "s") of \(plan.subscription.url.prefix(200)) left out: "
            + "a value over \(InputLimits.newsboatCacheValueBytes >> 20) MiB, a guid over "
            + "\(FeedAddress.maximumLength) bytes, or past the feed's \(InputLimits.newsboatCacheFeedBytes >> 20) MiB "
            + "(the newest are kept)"
    }

    /// The feeds of `urls` Herald can follow, each with its cached articles; the others
    /// are listed in the report. The cache is asked for the listed feeds only: what it
    /// holds besides costs nothing but a count.
    static func plan(urls: String, cache: NewsboatCacheFile?, report: inout Report) throws -> [FeedPlan] {
        var cached: [String: NewsboatCachedFeed] = [:]
        var plans: [FeedPlan] = []
        var seen: Set<String> = []
        for entry in NewsboatURLs.parseListed(urls) {
            let original = entry.subscription.url
            // Query feeds become query lines (see `NewsboatURLExtras`).
            if original.hasPrefix("query:") { continue }
            var subscription = entry.subscription
            // A `~title` is the user's rename: kept as the feed's title setting, which a reload
            // does not replace and sync carries, like `herald feed set URL title`.
            let userTitle = subscription.title
            do {
                // The user's own urls: their exec: and filter: feeds come over too.
                subscription.url = try FeedAddress.check(original, from: .newsboatURLs)
            } catch {
                report.left.append("urls line \(entry.line): \(original.prefix(200)): \(error)")
                continue
            }
            guard seen.insert(subscription.url).inserted else { continue }
            if cached[original] == nil, let feed = try cache?.feed(url: original) { cached[original] = feed }
            let feed = cached[original]
            if subscription.title == nil, let title = feed?.title, !title.isEmpty {
                subscription.title = title
            }
            if let site = feed?.siteURL, !site.isEmpty { subscription.siteURL = URLText.escapingUnsafe(site) }
            let counts = try feed.flatMap { _ in try cache?.counts(feedURL: original) } ?? (0, 0, 0)
            plans.append(
                FeedPlan(
                    subscription: subscription, cacheURL: feed == nil ? nil : original, counts: counts,
                    userTitle: userTitle))
        }
        guard let cache else { return plans }
        // Listed feeds not looked up (query feeds, refused addresses) do not count as
        // unlisted: the cache is asked about them too.
        for entry in NewsboatURLs.parseListed(urls) where cached[entry.subscription.url] == nil {
            if let feed = try cache.feed(url: entry.subscription.url) {
                cached[entry.subscription.url] = feed
            }
        }
        let unlisted = try cache.feedCount() - cached.count
        if unlisted > 0 {
            report.left.append(
                "cache: \(unlisted) feed\(unlisted == 1 ? "" : "s") no longer in urls (newsboat keeps them until a cleanup): not imported"
            )
        }
        return plans
    }

    /// Without a `urls` file: the feeds the cache holds, each with its articles and title.
    /// The cache is another program's file, which anyone may have written: its addresses
    /// are checked as an imported file's are, so an `exec:` or `filter:` feed in it does not
    /// come over (only the user's own urls or command line may add one), and says so.
    static func plan(cache: NewsboatCacheFile, report: inout Report) throws -> [FeedPlan] {
        var plans: [FeedPlan] = []
        var seen: Set<String> = []
        for feed in try cache.feeds() {
            var subscription = Subscription(url: feed.url)
            do {
                subscription.url = try FeedAddress.check(feed.url, from: .listed)
            } catch {
                let why =
                    CommandFeed.isCommand(feed.url)
                    ? "a command feed comes over only from your urls file (-u URLS), or with herald add"
                    : "\(error)"
                report.left.append("cache: feed \(feed.url.prefix(200)): \(why)")
                continue
            }
            guard seen.insert(subscription.url).inserted else { continue }
            if !feed.title.isEmpty { subscription.title = TextSanitizer.singleLine(feed.title) }
            if !feed.siteURL.isEmpty { subscription.siteURL = URLText.escapingUnsafe(feed.siteURL) }
            plans.append(
                FeedPlan(
                    subscription: subscription, cacheURL: feed.url,
                    counts: try cache.counts(feedURL: feed.url)))
        }
        return plans
    }

    /// The articles as a reload would parse them (HTML into text), on both cores: the
    /// processing is most of an import's time.
    static func converted(_ items: [NewsboatCachedItem]) async -> [ImportedArticle] {
        let chunk = 256
        return await withTaskGroup(of: (Int, [ImportedArticle]).self) { group in
            for start in stride(from: 0, to: items.count, by: chunk) {
                let slice = Array(items[start..<min(start + chunk, items.count)])
                group.addTask {
                    (
                        start,
                        slice.map {
                            ImportedArticle(item: $0.parsedItem, isRead: !$0.unread, isStarred: $0.isFlagged)
                        }
                    )
                }
            }
            var parts: [(Int, [ImportedArticle])] = []
            for await part in group { parts.append(part) }
            return parts.sorted { $0.0 < $1.0 }.flatMap(\.1)
        }
    }

    /// The config file when there is none yet, else `config.from-newsboat` beside it: a
    /// config the user has is never changed.
    static func configTarget(_ options: GlobalOptions) -> (path: String, isNew: Bool) {
        let path = options.configFile().path
        if !FileManager.default.fileExists(atPath: path) { return (path, true) }
        return (
            URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(
                "config.from-newsboat"
            ).path, false
        )
    }

    static func write(_ lines: [String], to target: (path: String, isNew: Bool), setup: NewsboatSetup) throws
    {
        let header = [
            "# Herald config carried over from newsboat by `herald import-newsboat`",
            "# (from \(setup.config) and the query feeds of \(setup.urls)).",
            "# What could not be carried over was listed by the import; `herald config check` checks this file.",
        ]
        let text = (header + lines).map { TextSanitizer.singleLine($0) }.joined(separator: "\n") + "\n"
        let url = URL(fileURLWithPath: target.path)
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
            // A server account's password came with it: readable by its owner alone (Herald
            // refuses a password in a config others can read).
            if lines.contains(where: { $0.hasPrefix("set ") && Settings.isSecret(Self.settingName($0)) }) {
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
            }
        } catch {
            throw UsageError("cannot write \(target.path): \(error.localizedDescription)")
        }
    }

    /// The setting a `set NAME VALUE` line sets.
    static func settingName(_ line: String) -> String {
        String(line.split(separator: " ").dropFirst().first ?? "")
    }

    /// A file's text, nil when there is no such file.
    static func read(_ path: String, what: String) throws -> String? {
        do {
            // Regular files only: a FIFO under newsboat's name would otherwise be waited on.
            return String(
                decoding: try LocalFile.read(path, limit: FetchLimits().maxBytes, regularOnly: true),
                as: UTF8.self)
        } catch FetchError.fileNotFound {
            return nil
        } catch {
            throw UsageError("cannot read the newsboat \(what) \(path): \(error)")
        }
    }
}
