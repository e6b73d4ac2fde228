import CMalloc
import Foundation
public import HeraldCore
public import HeraldFetch
public import HeraldStore

/// Reloads feeds: fetch (the fetcher actor, up to `jobs` feeds at once: waiting on the
/// network costs no CPU), parse and turn HTML into text (`BackgroundWorkers`: one thread per
/// core, at a lower priority than the reader's), store (the database actor, one transaction
/// per feed). The fetcher's body budget lets bodies arrive only as fast as they are stored,
/// so memory stays flat however many feeds there are and however fast the network. A
/// failing feed is a `ReloadFailure`, never a stopped reload.
public struct Reloader: Sendable {
    public let store: LibraryStore
    public let fetcher: FeedFetcher
    private let writer: ReloadWriter
    /// Retention after each reload (see `LibraryStore.applyRetention`): days, articles per feed.
    public var retention: (keepDays: Int, keepArticles: Int)?
    /// Bytes of fetched bodies whose feeds may be between the network and the library at
    /// once: fetched, parsed, prepared or waiting to be written (each form about as large as
    /// the body). 768 KiB is three feeds of 50 full articles, enough to keep both cores and
    /// the database busy: 2 MiB peaked 4 MB higher in a cold 200-feed reload, and was no
    /// faster there or with 500 feeds of 100.
    public static let bodyBudget = 768 * 1024

    /// `jobs`: fetches at once (at most 6 per host, whatever it says).
    public init(store: LibraryStore, fetcher: FeedFetcher? = nil, jobs: Int = 200) {
        self.store = store
        var limits = FetchLimits()
        limits.concurrent = max(jobs, 1)
        self.fetcher = fetcher ?? FeedFetcher(limits: limits, bodyBudget: Self.bodyBudget)
        self.writer = ReloadWriter(store: store)
    }

    /// Minutes between reloads of a feed without a `reload-interval` of its own, for
    /// `reload(onlyDue: true)` (`herald reload --due`); 0: such feeds are always due.
    public var defaultInterval = 0

    /// Reloads every feed (or the one at `only`), reporting progress after each feed. A
    /// reload of every feed skips disabled feeds and those whose own reload interval has not
    /// passed since their last try (with `onlyDue`, `defaultInterval` holds for the others);
    /// a feed reloaded on its own is always fetched.
    public func reload(
        only: String? = nil, onlyDue: Bool = false,
        progress: @escaping @Sendable (ReloadProgress) -> Void = { _ in }
    ) async throws -> ReloadSummary {
        let all = try await store.reloadTargets(only: only)
        let now = Date()
        var targets: [FeedValidators] = []
        var waiting: [ReloadFailure] = []
        var (disabled, notDue) = (0, 0)
        for target in all {
            if only == nil, target.settings.disabled {
                disabled += 1
            } else if only == nil,
                !Self.isDue(target, defaultInterval: onlyDue ? defaultInterval : 0, at: now)
            {
                notDue += 1
            } else if let (until, why) = Self.nextTry(target, forced: only != nil), until > now {
                let wait = FetchError.duration(Int(until.timeIntervalSince(now).rounded(.up)))
                waiting.append(
                    ReloadFailure(url: target.url, title: target.title, reason: "next try in \(wait): \(why)")
                )
            } else {
                targets.append(target)
            }
        }
        var summary = ReloadSummary(
            feeds: all.count, newArticles: 0, notModified: 0, failures: [], waiting: waiting)
        (summary.disabled, summary.notDue) = (disabled, notDue)
        var state = ReloadProgress(done: 0, total: targets.count, failed: 0, newArticles: 0)
        progress(state)
        var damaged: SQLiteError?
        await withTaskGroup(of: Outcome.self) { group in
            // All at once: the fetcher's limits decide how many wait on the network.
            for target in targets {
                group.addTask { await self.reload(target) }
            }
            for await outcome in group {
                state.done += 1
                switch outcome {
                case .added(let count, let readWithErrors):
                    state.newArticles += count
                    if count > 0 { summary.feedsWithNewArticles += 1 }
                    if let readWithErrors { summary.readWithErrors.append(readWithErrors) }
                case .notModified: summary.notModified += 1
                case .failed(let failure):
                    state.failed += 1
                    summary.failures.append(failure)
                case .damaged(let error):
                    // A damaged library: stop writing to it at once, and say so.
                    damaged = damaged ?? error
                    group.cancelAll()
                }
                progress(state)
            }
        }
        // What the reload freed goes back to the system: glibc keeps freed memory for later,
        // and the reader stays open for hours after a reload.
        malloc_trim(0)
        if let damaged { throw damaged }
        summary.newArticles = state.newArticles
        summary.removedByFilters = await store.takeRemovedByFilters()
        summary.slowFilters = await store.takeSlowFilters()
        // Per-feed limits apply even without global ones (`applyRetention` returns at once
        // when there are none).
        // Retention never fails a reload: what it could not do now, the next one does (its
        // batches are transactions of their own, so the library is whole either way).
        if let retention {
            do {
                summary.removedArticles = try await store.applyRetention(
                    keepDays: retention.keepDays, keepArticles: retention.keepArticles)
            } catch {
                summary.retentionSkipped = "\(error)"
            }
        }
        // A failure counts toward backing off only when other feeds worked: when every one
        // fails, it is the network (or the machine) that is down, not the feeds.
        if summary.failures.count < targets.count,
            let counts = try? await store.countFailures(urls: summary.failures.map(\.url))
        {
            for (url, count) in counts where count >= Self.failuresBeforeBackoff {
                let target = FeedValidators(url: url, title: "", failures: count, lastFetch: now)
                guard let (until, _) = Self.nextTry(target, forced: false) else { continue }
                let wait = FetchError.duration(Int(until.timeIntervalSince(now).rounded(.up)))
                try? await store.noteOnError(
                    url: url, " (failed \(count) reloads in a row: tried again in \(wait), or with r)")
            }
        }
        return summary
    }

    /// True when the feed's reload interval (its own, else `defaultInterval` minutes; none
    /// when 0) has passed since its last try, or it was never tried.
    static func isDue(_ target: FeedValidators, defaultInterval: Int, at now: Date) -> Bool {
        let minutes = target.settings.reloadInterval ?? defaultInterval
        guard minutes > 0, let last = target.lastFetch else { return true }
        return last.addingTimeInterval(Double(minutes) * 60) <= now
    }

    /// Reloads in a row a feed may fail (while others work) before it is tried less often.
    public static let failuresBeforeBackoff = 3

    /// When a feed may be tried again, and why it waits; nil when it may be tried now. The
    /// server's Retry-After always holds; after `failuresBeforeBackoff` failures in a row a
    /// feed waits 15 minutes since its last try, doubling with each failure up to a day,
    /// unless it is reloaded on its own (`forced`).
    static func nextTry(_ target: FeedValidators, forced: Bool) -> (Date, String)? {
        if let retryAfter = target.retryAfter {
            return (retryAfter, "the server asked to wait")
        }
        guard !forced, target.failures >= failuresBeforeBackoff, let last = target.lastFetch else {
            return nil
        }
        let doublings = min(target.failures - failuresBeforeBackoff, 7)
        let seconds = min(15 * 60 * Double(1 << doublings), 86_400)
        return (last.addingTimeInterval(seconds), "it failed \(target.failures) reloads in a row")
    }

    enum Outcome: Sendable {
        /// New articles, and the first error of a document read all the same.
        case added(Int, readWithErrors: ReloadFailure?)
        case notModified
        case failed(ReloadFailure)
        case damaged(SQLiteError)
    }

    /// One feed, start to end; errors become a failure for this feed.
    func reload(_ target: FeedValidators) async -> Outcome {
        let now = Date()
        do {
            let fetched: Fetched
            if let command = CommandFeed(address: target.url) {
                fetched = try await fetch(command, userAgent: target.settings.userAgent)
            } else {
                guard let url = URL(string: target.url) else {
                    throw FetchError.other("not a URL: \(target.url)")
                }
                let request = FetchRequest(
                    url: url, etag: target.etag, lastModified: target.lastModified,
                    userAgent: target.settings.userAgent)
                fetched = try await fetch(request)
            }
            let (document, body): (FetchedDocument, Handoff<Data>)
            switch fetched {
            case .document(let fetched, let bytes): (document, body) = (fetched, bytes)
            case .unchanged(let moved):
                var feedURL = target.url
                // Unchanged at a new address (301 then 304): the feed moves all the same.
                if let moved, try await store.moveFeed(from: target.url, to: moved.absoluteString) {
                    feedURL = moved.absoluteString
                }
                // A feed that failed before works again (an unchanged one is not written,
                // unless its reload interval counts from this try).
                if target.failed || target.failures > 0 || target.retryAfter != nil
                    || target.settings.reloadInterval != nil
                {
                    try? await store.recordNotModified(url: feedURL, at: now)
                }
                return .notModified
            }
            // The budget's bytes stand for this feed until it is stored, in whatever form.
            defer { fetcher.release(document) }
            return try await storeFeed(document, body: body, for: target)
        } catch let error as SQLiteError where error.isCorrupt {
            return .damaged(error)
        } catch {
            let reason = "\(error)"
            let retryAfter = (error as? FetchError)?.retryAfterSeconds.map {
                now.addingTimeInterval(Double($0))
            }
            try? await store.recordFailure(url: target.url, reason: reason, at: now, retryAfter: retryAfter)
            return .failed(ReloadFailure(url: target.url, title: target.title, reason: reason))
        }
    }

    /// What a fetch gave: nothing new (and the feed's new address after permanent
    /// redirects), or a document.
    private enum Fetched {
        case unchanged(movedTo: URL?)
        /// The document without its bytes (its metadata, and its hold on the fetcher's
        /// budget) and the bytes, to be parsed once.
        case document(FetchedDocument, Handoff<Data>)
    }

    private func fetch(_ request: FetchRequest) async throws -> Fetched {
        switch try await fetcher.fetch(request) {
        case .notModified: return .unchanged(movedTo: nil)
        case .notModifiedAt(let url): return .unchanged(movedTo: url)
        case .fetched(var document):
            let body = Handoff(document.data)
            document.data = Data()
            return .document(document, body)
        }
    }

    /// A command feed's document: what its command printed (newsboat's `exec:`), or what
    /// its filter made of the downloaded document (`filter:`), under the fetcher's limits of
    /// size and time (`CommandOutput`). Never conditional (a filter's output may change when
    /// its input does not) and never moved: the command is the user's, the address stays.
    private func fetch(_ command: CommandFeed, userAgent: String?) async throws -> Fetched {
        var input: Data?
        var source = URL(fileURLWithPath: "/dev/null")
        if case .filter(_, let address) = command {
            guard let url = URL(string: address) else {
                throw FetchError.other("filter: not a URL: \(address)")
            }
            source = url
            switch try await fetcher.fetch(FetchRequest(url: url, userAgent: userAgent)) {
            case .fetched(let document):
                input = document.data
                fetcher.release(document)
            case .notModified, .notModifiedAt:
                throw FetchError.other("filter: \(address) answered 304 Not Modified to a plain request")
            }
        }
        let output = try await CommandOutput.run(
            command.command, kind: command.kind, input: input, limits: fetcher.limits)
        return .document(FetchedDocument(finalURL: source), Handoff(output))
    }

    private func storeFeed(_ document: FetchedDocument, body: Handoff<Data>, for target: FeedValidators)
        async throws -> Outcome
    {
        // Each step takes what the one before left (`Handoff`): the body is freed once
        // parsed, the parsed items once prepared.
        // An exec: feed's links resolve against nothing but the feed's own base.
        var isExec = false
        if case .exec? = CommandFeed(address: target.url) { isExec = true }
        let base = isExec ? nil : document.finalURL.absoluteString
        var feed = try await BackgroundWorkers.shared.run { () throws(FeedParseError) in
            try Self.process(document, data: body.take() ?? Data(), baseURL: base)
        }
        let parsed = Handoff(feed.items)
        let guids = feed.items.map(\.id)
        feed.items = []
        var feedURL = target.url
        if let moved = document.movedPermanentlyTo,
            try await store.moveFeed(from: target.url, to: moved.absoluteString)
        {
            feedURL = moved.absoluteString
        }
        // Only new and changed items are packed and split, on a worker, against what the
        // library holds.
        let known = try await store.knownArticles(feedURL: feedURL, guids: guids)
        let items = await BackgroundWorkers.shared.run { () throws(Never) in
            LibraryStore.prepare(parsed.take() ?? [], known: known)
        }
        let added = try await writer.write(
            FetchedFeed(
                url: feedURL, items: items, etag: document.etag, lastModified: document.lastModified,
                title: feed.title, siteURL: feed.siteURL)
        ).get()
        let warning = feed.warnings.first.map {
            // A feed still called by its URL is called what it calls itself (as the store does).
            ReloadFailure(
                url: feedURL, title: target.title == target.url ? feed.title : target.title,
                reason: "read with errors: \($0)")
        }
        return .added(added, readWithErrors: warning)
    }

    /// Parses a fetched document's bytes, HTML bodies turned into text by the parser (off
    /// every actor).
    static func process(_ document: FetchedDocument, data: Data, baseURL: String?) throws(FeedParseError)
        -> ParsedFeed
    {
        try FeedParser.parse(data, baseURL: baseURL, httpCharset: document.charset)
    }
}

extension Reloader: FeedReloading {
    public func reloadFeeds(
        only: String?, progress: @escaping @Sendable (ReloadProgress) -> Void
    ) async throws -> ReloadSummary {
        try await reload(only: only, onlyDue: false, progress: progress)
    }

    public func indexForSearch(progress: @escaping @Sendable (Int) -> Void) async throws {
        try await store.runSearchIndexer(progress: progress)
    }
}
