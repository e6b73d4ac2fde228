import Foundation
import HeraldCore
import HeraldNewsboat
import HeraldConfig
import HeraldFetch
import HeraldStore

/// `herald import-newsboat [DIR] [--dry-run] [--json]`: a newsboat setup in one command — its feeds
/// with tags and titles (`urls`), its cached articles with their read and flagged state
/// (`cache.db`), and what of its `config` (and query feeds) Herald can read. Everything left
/// behind is listed with its line and reason.
enum ImportNewsboatCommand {
    /// One feed to import: its subscription, its address in the cache, and what the cache
    /// holds of it (its articles are read one feed at a time, as they are imported).
    struct FeedPlan {
        var subscription: Subscription
        var cacheURL: String?
        var counts: (articles: Int, read: Int, flagged: Int)
    }

    static func run(_ arguments: [String], options: GlobalOptions) async throws {
        var dryRun = false
        var json = false
        var directory: String?
        for argument in arguments {
            if argument == "--dry-run" {
                dryRun = true
            } else if argument == "--json" {
                json = true
            } else if argument.hasPrefix("-") || directory != nil {
                throw UsageError(
                    "import-newsboat takes a directory, --dry-run and --json: herald import-newsboat [DIR] [--dry-run] [--json]"
                )
            } else {
                directory = argument
            }
        }
        let setup = NewsboatSetup.locate(
            directory: directory, environment: ProcessInfo.processInfo.environment)
        // Everything is read and checked before anything is written.
        guard let urls = try read(setup.urls, what: "urls file") else {
            throw UsageError(
                "no newsboat urls file at \(setup.urls)"
                    + (directory == nil ? " (name the directory: herald import-newsboat DIR)" : ""))
        }
        guard FileManager.default.fileExists(atPath: setup.cache) else {
            throw UsageError("no newsboat cache at \(setup.cache): nothing was imported")
        }
        let cache = try NewsboatCacheFile(path: setup.cache)
        let config = try read(setup.config, what: "config")
        var report = Report()
        let plans = try plan(urls: urls, cache: cache, report: &report)
        let translation = checked(config.map(NewsboatConfig.translate) ?? NewsboatTranslation())
        let extras = NewsboatURLExtras.parse(urls)
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
        report.filters = filterNotes(translation)
        for skipped in translation.skipped {
            report.left.append("config line \(skipped.line): \(skipped.text.prefix(120)): \(skipped.reason)")
        }
        report.configCarried = translation.carried + queryLines.count
        report.configLeft = translation.skipped.count
        report.articles = plans.reduce(0) { $0 + $1.counts.articles }
        report.read = plans.reduce(0) { $0 + $1.counts.read }
        report.starred = plans.reduce(0) { $0 + $1.counts.flagged }
        report.deleted = cache.deletedCount(feedURLs: plans.compactMap(\.cacheURL))
        let target = configTarget(options)
        if dryRun {
            report.finish(
                feeds: plans.count, dryRun: true, config: written.isEmpty ? nil : target, json: json
            )
            return
        }
        let store = try await options.openLibrary(importingDemo: false, writing: "herald import-newsboat")
        var results: [SubscribeResult] = []
        for plan in plans {
            let (items, leftOut) = try plan.cacheURL.map { try cache.items(feedURL: $0) } ?? ([], 0)
            if leftOut > 0 { report.left.append(Self.leftOutNote(leftOut, of: plan)) }
            let articles = await Self.converted(items)
            let (subscribed, counts) = try await store.importFeed(plan.subscription, articles: articles)
            results.append(subscribed)
            report.added += counts.added
            report.markedRead += counts.markedRead
            report.markedStarred += counts.starred
        }
        report.newFeeds = results.filter { $0 == .new }.count
        if !written.isEmpty { try write(written, to: target, setup: setup) }
        report.finish(
            feeds: plans.count, dryRun: false, config: written.isEmpty ? nil : target, json: json)
        try await SubscriptionCommands.retireDemoFeeds(store, after: results)
    }

    /// What each `ignore-article` line became, and what that does: no filter the import
    /// writes deletes anything.
    static func filterNotes(_ translation: NewsboatTranslation) -> [String] {
        translation.directives.compactMap { translated in
            guard case .filter(_, let action) = translated.directive else { return nil }
            let meaning =
                action == .hide
                ? "matching articles stay in the library, out of sight (ignore-mode display); without the line they show again"
                : "new matching articles are not stored (ignore-mode download, newsboat's default); stored ones stay"
            return
                "config line \(translated.origin): ignore-article → \(translated.directive.line): \(meaning)"
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
    static func plan(urls: String, cache: NewsboatCacheFile, report: inout Report) throws -> [FeedPlan] {
        var cached: [String: NewsboatCachedFeed] = [:]
        var plans: [FeedPlan] = []
        var seen: Set<String> = []
        for entry in NewsboatURLs.parseListed(urls) {
            let original = entry.subscription.url
            if NewsboatURLs.isNewsboatOnly(original) {
                if !original.hasPrefix("query:") {
                    report.left.append(
                        "urls line \(entry.line): \(original.prefix(200)): newsboat's filter and exec feeds are not imported"
                    )
                }
                continue
            }
            var subscription = entry.subscription
            do {
                subscription.url = try FeedAddress.check(original, from: .listed)
            } catch {
                report.left.append("urls line \(entry.line): \(original.prefix(200)): \(error)")
                continue
            }
            guard seen.insert(subscription.url).inserted else { continue }
            if cached[original] == nil, let feed = try cache.feed(url: original) { cached[original] = feed }
            let feed = cached[original]
            if subscription.title == nil, let title = feed?.title, !title.isEmpty {
                subscription.title = title
            }
            if let site = feed?.siteURL, !site.isEmpty { subscription.siteURL = URLText.escapingUnsafe(site) }
            let counts = feed == nil ? (0, 0, 0) : try cache.counts(feedURL: original)
            plans.append(
                FeedPlan(subscription: subscription, cacheURL: feed == nil ? nil : original, counts: counts))
        }
        // Listed feeds not looked up (newsboat-only ones, refused addresses) do not count
        // as unlisted: the cache is asked about them too.
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
        } catch {
            throw UsageError("cannot write \(target.path): \(error.localizedDescription)")
        }
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
