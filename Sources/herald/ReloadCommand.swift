import Foundation
import HeraldCore
import HeraldFetch
import HeraldReload
import HeraldStore
import HeraldConfig
import HeraldAccounts

/// `herald reload [--jobs N] [--quiet] [--due] [--index-now]`: fetches every feed without
/// opening the reader (disabled feeds and those whose own reload interval has not passed are
/// skipped; with `--due`, `set reload-interval` holds for the others too: for cron). A
/// progress bar on a terminal, a summary at the end, then `notify-command` when there were
/// new articles; exit status 1 when every feed failed. The new articles' search entries are
/// left to the reader's next start (or the first search, which indexes what waits before it
/// looks): the summary says how many wait. With `--index-now`, they are written before it
/// exits (for cron: the cost then falls in the job, not when the reader opens).
enum ReloadCommand {
    static func run(_ arguments: [String], options: GlobalOptions) async throws -> Int32 {
        let config = try options.loadConfig()
        let settings = config.settings
        var jobs = settings.reloadJobs
        var quiet = false
        var due = false
        var indexNow = false
        var reader = ArgumentReader(arguments)
        while let argument = reader.next() {
            switch argument {
            case "--jobs": jobs = try reader.positiveNumber(of: argument)
            case "--quiet": quiet = true
            case "--due": due = true
            case "--index-now": indexNow = true
            default: throw UsageError("reload: unknown option '\(argument)'")
            }
        }
        // Opened with the config's filters set (`openLibrary`): the reload applies them.
        let store = try await options.openLibrary(importingDemo: false, writing: "herald reload")
        // Nothing here reads a page twice: the reader's larger cache would only add to the peak
        // (1 MiB: 1 MB lower than 2 MiB in a cold 200-feed reload, as fast; 512 KiB read
        // twice as many pages back from the file).
        try await store.setCacheSize(kibibytes: 1024)
        let showBar = !quiet && isatty(2) == 1
        var reloader = Reloader(store: store, jobs: jobs)
        reloader.retention = (settings.keepDays, settings.keepArticles)
        reloader.defaultInterval = settings.reloadInterval
        let since = Int64(Date().timeIntervalSince1970) - 1
        // The account's server, beside the local feeds (the library takes both writers' turns).
        // An account the config cannot set up (a setting missing) is said, and the local feeds
        // reload all the same; the exit status says something is to be fixed.
        let account: AccountConfig?
        let misconfigured: Bool
        do {
            account = try AccountRun.config(settings.account, configPath: options.configFile().path)
            misconfigured = false
        } catch let error as UsageError {
            Console.complain("herald: the \(settings.account.source) account: \(error.message)")
            (account, misconfigured) = (nil, true)
        }
        let backingOff = due
        let accountTask = account.map { account in
            Task { await AccountRun.sync(account, store: store, backingOff: backingOff) }
        }
        let summary = try await reloader.reload(onlyDue: due) { progress in
            guard showBar else { return }
            FileHandle.standardError.write(Data(bar(progress).utf8))
        }
        // The reload stored its new articles without their search entries (`DeferredIndexing`
        // in HeraldStore): written now with --index-now, on both cores, else left waiting.
        if indexNow { try await store.runSearchIndexer(batch: 500, parts: 2) }
        let waiting = quiet ? 0 : try await store.articlesWaitingForIndex()
        if showBar { FileHandle.standardError.write(Data("\r\u{1b}[K".utf8)) }
        // With an account and no feed of its own, the account's line says it all.
        let noLocalFeeds = summary.feeds == 0 && (account != nil || misconfigured)
        if !noLocalFeeds && (!quiet || !summary.failures.isEmpty) {
            Console.say(
                "\(summary.feeds) feeds: \(summary.newArticles) new articles, \(summary.notModified) unchanged, "
                    + "\(summary.failures.count) failed"
                    + (summary.waiting.isEmpty ? "" : ", \(summary.waiting.count) waiting")
                    + (summary.readWithErrors.isEmpty
                        ? "" : ", \(summary.readWithErrors.count) read with errors")
                    + (summary.disabled == 0 ? "" : ", \(summary.disabled) disabled")
                    + (summary.notDue == 0 ? "" : ", \(summary.notDue) not due"))
            for failure in summary.failures + summary.waiting + summary.readWithErrors {
                // A feed never read is called by its address: name it once.
                let title = TextSanitizer.singleLine(failure.title)
                let name = title == failure.url ? "<\(failure.url)>" : "\(title) <\(failure.url)>"
                Console.say("  \(name): \(TextSanitizer.singleLine(failure.reason))")
            }
        }
        if waiting > 0 {
            Console.say("\(waiting) articles to index for search: the reader does it when it starts")
        }
        let accountResult = await accountTask?.value
        if let account, let accountResult, !quiet || accountResult.summary == nil {
            Console.say(AccountRun.line(account, accountResult))
        }
        let accountNew = accountResult?.summary?.newArticles ?? 0
        // The web pages of the new articles of feeds set to `full-article`, once the feeds
        // are stored (the reload's figures above are the feeds' alone).
        if summary.newArticles + accountNew > 0 {
            let (whole, failed) = try await WebPages(store: store).fetchWanted(since: since, fallback: settings.fullArticle)
            if !quiet, whole + failed > 0 {
                Console.say(
                    "read \(whole) whole article\(whole == 1 ? "" : "s") from their web pages"
                        + (failed == 0 ? "" : "; \(failed) gave none (the feed's text stays: herald show ID says why)"))
            }
        }
        // Even with --quiet: a filter that was not applied is something to act on.
        for pattern in summary.slowFilters {
            Console.complain(
                "herald: filter: \(SlowRegexError(pattern: pattern)); the filters with it were left out of this reload")
        }
        if summary.removedByFilters > 0, !quiet {
            Console.say("delete filters removed \(summary.removedByFilters) stored articles")
        }
        if let why = summary.retentionSkipped, !quiet {
            Console.say("retention left for the next reload: \(TextSanitizer.singleLine(why))")
        }
        if summary.removedArticles > 0 {
            if !quiet { Console.say("retention removed \(summary.removedArticles) articles") }
            // A command that only writes may compact; the reader never does.
            try await store.compactIfMostlyFree()
        }
        // notify-command counts the account's new articles and feeds with the others'.
        let accountFeeds = accountResult?.summary?.feedsWithNewArticles.count ?? 0
        if let command = settings.notifyCommand, summary.newArticles + accountNew > 0,
            let failure = await NotifyCommand.run(
                command, newArticles: summary.newArticles + accountNew,
                feeds: summary.feedsWithNewArticles + accountFeeds, quiet: false)
        {
            Console.complain("herald: \(failure)")
        }
        let accountFailed = accountResult != nil && accountResult?.summary == nil
        return summary.allFailed || misconfigured || (accountFailed && summary.feeds == 0) ? 1 : 0
    }

    static func bar(_ progress: ReloadProgress) -> String {
        let width = 30
        let filled = progress.total == 0 ? width : progress.done * width / progress.total
        let failed = progress.failed > 0 ? "  \(progress.failed) failed" : ""
        return "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
            + "] \(progress.done)/\(progress.total)  \(progress.newArticles) new\(failed)"
    }
}
