import Foundation
public import HeraldCore
public import HeraldFetch
public import HeraldStore

/// Reloads feeds: fetch (the fetcher actor), parse and turn HTML into text (child tasks on
/// the global executor, so several feeds are parsed at once on all cores, where one
/// processor actor would parse one at a time), store (the database actor, one transaction
/// per feed). A failing feed is a `ReloadFailure`, never a stopped reload.
public struct Reloader: Sendable {
    public let store: LibraryStore
    public let fetcher: FeedFetcher
    /// Feeds in flight at once.
    public var jobs: Int

    public init(store: LibraryStore, fetcher: FeedFetcher = FeedFetcher(), jobs: Int = 16) {
        self.store = store
        self.fetcher = fetcher
        self.jobs = max(jobs, 1)
    }

    /// Reloads every feed (or the one at `only`), reporting progress after each feed.
    public func reload(
        only: String? = nil, progress: @escaping @Sendable (ReloadProgress) -> Void = { _ in }
    ) async throws -> ReloadSummary {
        let targets = try await store.reloadTargets(only: only)
        var summary = ReloadSummary(feeds: targets.count, newArticles: 0, notModified: 0, failures: [])
        var state = ReloadProgress(done: 0, total: targets.count, failed: 0, newArticles: 0)
        progress(state)
        try await withThrowingTaskGroup(of: Outcome.self) { group in
            var pending = targets[...]
            for _ in 0..<min(jobs, targets.count) {
                if let target = pending.popFirst() { group.addTask { await self.reload(target) } }
            }
            while let outcome = try await group.next() {
                state.done += 1
                switch outcome {
                case .added(let count): state.newArticles += count
                case .notModified: summary.notModified += 1
                case .failed(let failure):
                    state.failed += 1
                    summary.failures.append(failure)
                }
                progress(state)
                if let target = pending.popFirst() { group.addTask { await self.reload(target) } }
            }
        }
        summary.newArticles = state.newArticles
        return summary
    }

    enum Outcome: Sendable {
        case added(Int)
        case notModified
        case failed(ReloadFailure)
    }

    /// One feed, start to end; errors become a failure for this feed.
    func reload(_ target: FeedValidators) async -> Outcome {
        let now = Date()
        do {
            guard let url = URL(string: target.url) else { throw FetchError.other("not a URL: \(target.url)") }
            let result = try await fetcher.fetch(
                FetchRequest(url: url, etag: target.etag, lastModified: target.lastModified))
            guard case .fetched(let document) = result else { return .notModified }
            let feed = try Self.process(document)
            var feedURL = target.url
            if let moved = document.movedPermanentlyTo,
                try await store.moveFeed(from: target.url, to: moved.absoluteString)
            {
                feedURL = moved.absoluteString
            }
            let added = try await store.upsertArticles(feedURL: feedURL, items: feed.items, now: now)
            try await store.recordFetch(
                url: feedURL, etag: document.etag, lastModified: document.lastModified, feedTitle: feed.title,
                siteURL: feed.siteURL, at: now)
            return .added(added)
        } catch {
            let reason = "\(error)"
            try? await store.recordFailure(url: target.url, reason: reason, at: now)
            return .failed(ReloadFailure(url: target.url, title: target.title, reason: reason))
        }
    }

    /// Parses a fetched document, HTML bodies turned into text by the parser (off every actor).
    static func process(_ document: FetchedDocument) throws(FeedParseError) -> ParsedFeed {
        try FeedParser.parse(document.data, baseURL: document.finalURL.absoluteString, httpCharset: document.charset)
    }
}

extension Reloader: FeedReloading {
    public func reloadFeeds(
        only: String?, progress: @escaping @Sendable (ReloadProgress) -> Void
    ) async throws -> ReloadSummary {
        try await reload(only: only, progress: progress)
    }
}
