import Foundation
import HeraldCore
import HeraldNewsboat
import HeraldFetch
import HeraldStore

/// `herald import FILE` (OPML or a newsboat `urls` file) and `herald export` (OPML 2.0).
enum ImportExportCommands {
    /// Merges the file's feeds into the library (see `LibraryStore.subscribe`: titles the
    /// user set and tags are kept, new tags added) and reports what changed.
    static func importFile(_ arguments: [String], options: GlobalOptions) async throws {
        guard arguments.count == 1, let path = arguments.first else {
            throw UsageError("import needs one file: herald import FILE (OPML or a newsboat urls file)")
        }
        let data: Data
        do {
            data = try LocalFile.read(path, limit: FetchLimits().maxBytes)
        } catch {
            throw UsageError("cannot import \(path): \(error)")
        }
        let text = String(decoding: data, as: UTF8.self)
        let entries: [ListedSubscription]
        let isOPML = [".opml", ".xml"].contains { path.lowercased().hasSuffix($0) }
        if isOPML || text.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).hasPrefix("<") {
            do {
                entries = try OPML.parseListed(data)
            } catch {
                throw UsageError("cannot import \(path): \(error)")
            }
        } else {
            entries = NewsboatURLs.parseListed(text)
        }
        let (listed, refused) = checked(entries)
        for line in refused { Console.complain("herald: \(path): \(line)") }
        let subscriptions = mergingDuplicates(listed)
        guard !subscriptions.isEmpty else {
            throw UsageError("\(path) lists no feeds" + (refused.isEmpty ? "" : " Herald can follow"))
        }
        let store = try await options.openLibrary(importingDemo: false, writing: "herald import")
        let demo = try await store.demoFeedURLs()
        let results = try await store.subscribe(all: subscriptions)
        Console.say(report(results, file: path))
        SubscriptionCommands.reportAdopted(subscriptions, demo: demo)
        try await SubscriptionCommands.retireDemoFeeds(store, after: results)
    }

    /// The entries whose address may be followed (see `FeedAddress`), and a line for each
    /// of the others: `line 7: file:///etc/passwd: a file: address may only be typed, …`.
    static func checked(_ entries: [ListedSubscription]) -> (accepted: [Subscription], refused: [String]) {
        var accepted: [Subscription] = []
        var refused: [String] = []
        for entry in entries {
            var subscription = entry.subscription
            let shown = String(subscription.url.prefix(200))
            if subscription.url.hasPrefix("query:") {
                refused.append(
                    "line \(entry.line): \(shown): newsboat's query feeds come over with herald import-newsboat"
                )
                continue
            }
            do {
                subscription.url = try FeedAddress.check(subscription.url, from: .listed)
                accepted.append(subscription)
            } catch {
                refused.append("line \(entry.line): \(shown): \(error)")
            }
        }
        return (accepted, refused)
    }

    /// `12 feeds in subs.opml: 3 new, 2 with new tags, 7 unchanged`, and `, 1 given a
    /// title` when a known feed only gained a title. Every feed is in exactly one count.
    static func report(_ results: [SubscribeResult], file: String) -> String {
        var (new, tagged, titled, unchanged) = (0, 0, 0, 0)
        for result in results {
            switch result {
            case .new: new += 1
            case .updated(let newTags, _) where !newTags.isEmpty: tagged += 1
            case .updated: titled += 1
            case .unchanged: unchanged += 1
            }
        }
        let feeds = results.count == 1 ? "1 feed" : "\(results.count) feeds"
        return "\(feeds) in \(TextSanitizer.singleLine(file)): \(new) new, \(tagged) with new tags, "
            + "\(unchanged) unchanged" + (titled > 0 ? ", \(titled) given a title" : "")
    }

    /// One subscription per URL, in first-seen order: a feed listed twice (an OPML file with
    /// the same feed in two folders) takes the tags of both, and the first title and site.
    static func mergingDuplicates(_ subscriptions: [Subscription]) -> [Subscription] {
        var merged: [Subscription] = []
        var index: [String: Int] = [:]
        for subscription in subscriptions {
            guard let at = index[subscription.url] else {
                index[subscription.url] = merged.count
                merged.append(subscription)
                continue
            }
            merged[at].title = merged[at].title ?? subscription.title
            merged[at].siteURL = merged[at].siteURL ?? subscription.siteURL
            merged[at].tags += subscription.tags.filter { !merged[at].tags.contains($0) }
        }
        return merged
    }

    static func export(_ arguments: [String], options: GlobalOptions) async throws {
        guard arguments.isEmpty else {
            throw UsageError("export takes no arguments; it writes OPML to stdout")
        }
        let store = try await options.openLibrary(importingDemo: false)
        print(OPML.export(try await store.subscriptions()), terminator: "")
    }
}
