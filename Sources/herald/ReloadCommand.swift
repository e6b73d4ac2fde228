import Foundation
import HeraldCore
import HeraldFetch
import HeraldReload
import HeraldStore

/// `herald reload [--jobs N] [--quiet]`: fetches every feed without opening the reader.
/// A progress bar on a terminal, a summary at the end; exit status 1 when every feed failed.
enum ReloadCommand {
    static func run(_ arguments: [String], options: GlobalOptions) async throws -> Int32 {
        let config = try options.loadConfig()
        let settings = config.settings
        var jobs = settings.reloadJobs
        var quiet = false
        var reader = ArgumentReader(arguments)
        while let argument = reader.next() {
            switch argument {
            case "--jobs": jobs = try reader.positiveNumber(of: argument)
            case "--quiet": quiet = true
            default: throw UsageError("reload: unknown option '\(argument)'")
            }
        }
        let store = try await options.openLibrary(importingDemo: false)
        await store.setReloadFilters(config.filters)
        // Nothing here reads a page twice: the reader's larger cache would only add to the peak.
        try await store.setCacheSize(kibibytes: 2048)
        let showBar = !quiet && isatty(2) == 1
        var reloader = Reloader(store: store, jobs: jobs)
        reloader.retention = (settings.keepDays, settings.keepArticles)
        let summary = try await reloader.reload { progress in
            guard showBar else { return }
            FileHandle.standardError.write(Data(bar(progress).utf8))
        }
        if showBar { FileHandle.standardError.write(Data("\r\u{1b}[K".utf8)) }
        if !quiet || !summary.failures.isEmpty {
            Console.say(
                "\(summary.feeds) feeds: \(summary.newArticles) new articles, \(summary.notModified) unchanged, "
                    + "\(summary.failures.count) failed"
                    + (summary.waiting.isEmpty ? "" : ", \(summary.waiting.count) waiting")
                    + (summary.readWithErrors.isEmpty
                        ? "" : ", \(summary.readWithErrors.count) read with errors"))
            for failure in summary.failures + summary.waiting + summary.readWithErrors {
                Console.say(
                    "  \(TextSanitizer.singleLine(failure.title)) <\(failure.url)>: \(TextSanitizer.singleLine(failure.reason))"
                )
            }
        }
        if summary.removedArticles > 0 {
            if !quiet { Console.say("retention removed \(summary.removedArticles) articles") }
            // A command that only writes may compact; the reader never does.
            try await store.compactIfMostlyFree()
        }
        return summary.allFailed ? 1 : 0
    }

    static func bar(_ progress: ReloadProgress) -> String {
        let width = 30
        let filled = progress.total == 0 ? width : progress.done * width / progress.total
        let failed = progress.failed > 0 ? "  \(progress.failed) failed" : ""
        return "\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
            + "] \(progress.done)/\(progress.total)  \(progress.newArticles) new\(failed)"
    }
}
