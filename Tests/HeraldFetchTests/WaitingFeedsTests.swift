import Foundation
import HeraldCore
import HeraldStore
import HeraldTestSupport
import Testing

@testable import HeraldFetch
@testable import HeraldReload

/// Retry-After is honoured, and feeds that keep failing are tried less often.
@Suite("Feeds that ask to wait, and feeds that keep failing", .serialized)
struct WaitingFeedsTests {
    struct Library {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-waiting-\(UUID().uuidString)")
        let store: LibraryStore

        init() async throws {
            store = try await LibraryStore.open(path: directory.appendingPathComponent("h.db").path)
        }

        func cleanUp() { try? FileManager.default.removeItem(at: directory) }
    }

    @Test("Retry-After in seconds or as an HTTP date, at least a second and at most a day")
    func parsing() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(FeedFetcher.retryAfterSeconds("120", now: now) == 120)
        #expect(FeedFetcher.retryAfterSeconds("0", now: now) == 1)
        #expect(FeedFetcher.retryAfterSeconds("99999999999999999999", now: now) == 86_400)
        #expect(FeedFetcher.retryAfterSeconds("Tue, 14 Nov 2023 22:13:27 GMT", now: now) == 7)
        #expect(FeedFetcher.retryAfterSeconds("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 1)
        for junk in ["", "soon", "-5", "1.5", "Tue, 14 Nov 2023 22:15:20 PST"] {
            #expect(FeedFetcher.retryAfterSeconds(junk, now: now) == nil, "\(junk)")
        }
    }

    @Test("a 429 with Retry-After is not asked again until then; a 503 asking for years waits a day")
    func retryAfterHonoured() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = try await Library()
        defer { library.cleanUp() }
        let store = library.store
        try await store.subscribe(Subscription(url: server.url("/feed").absoluteString))
        try await store.subscribe(Subscription(url: server.url("/busy/120").absoluteString, title: "Busy"))
        try await store.subscribe(Subscription(url: server.url("/busy-date").absoluteString, title: "Dated"))
        try await store.subscribe(Subscription(url: server.url("/unavailable").absoluteString, title: "Down"))
        let reloader = Reloader(store: store, jobs: 4)

        let first = try await reloader.reload()
        let reasons = Dictionary(uniqueKeysWithValues: first.failures.map { ($0.title, $0.reason) })
        #expect(reasons["Busy"] == "HTTP 429: the server asks not to be asked again for 2 min")
        #expect(reasons["Dated"]?.hasPrefix("HTTP 429: the server asks not to be asked again for") == true)
        #expect(reasons["Down"] == "HTTP 503: the server asks not to be asked again for 24 h")
        #expect(first.waiting.isEmpty)

        let second = try await reloader.reload()
        #expect(second.failures.isEmpty, "\(second.failures)")
        #expect(Set(second.waiting.map(\.title)) == ["Busy", "Dated", "Down"])
        let busy = try #require(second.waiting.first { $0.title == "Busy" })
        // 2 min, or 1 when the first reload took over a minute (a sanitizer on a loaded machine).
        #expect(
            busy.reason.hasPrefix("next try in 2 min: the server asked to wait")
                || busy.reason.hasPrefix("next try in 1 min: the server asked to wait"), "\(busy.reason)")
        // Reloading the feed alone does not override the server either.
        let alone = try await reloader.reload(only: server.url("/busy/120").absoluteString)
        #expect(alone.waiting.count == 1 && alone.failures.isEmpty && !alone.allFailed)
    }

    @Test("a feed failing three reloads in a row while others work waits 15 minutes; r still tries it")
    func backoff() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = try await Library()
        defer { library.cleanUp() }
        let store = library.store
        let broken = server.url("/status/500").absoluteString
        try await store.subscribe(Subscription(url: server.url("/feed").absoluteString))
        try await store.subscribe(Subscription(url: broken, title: "Broken"))
        let reloader = Reloader(store: store, jobs: 4)
        for _ in 0..<Reloader.failuresBeforeBackoff {
            let summary = try await reloader.reload()
            #expect(summary.failures.map(\.title) == ["Broken"] && summary.waiting.isEmpty)
        }
        let error = try await store.feedSummaries().first { $0.feed.url == broken }?.feed.lastError
        #expect(error == "HTTP 500 (failed 3 reloads in a row: tried again in 15 min, or with r)")
        let next = try await reloader.reload()
        #expect(next.failures.isEmpty)
        #expect(next.waiting.map(\.reason) == ["next try in 15 min: it failed 3 reloads in a row"])
        let forced = try await reloader.reload(only: broken)
        #expect(forced.failures.map(\.title) == ["Broken"] && forced.waiting.isEmpty)
    }

    @Test("when every feed fails (the network is down), no feed is held back")
    func networkDown() async throws {
        let library = try await Library()
        defer { library.cleanUp() }
        let store = library.store
        try await store.subscribe(Subscription(url: "http://127.0.0.1:9/a", title: "A"))
        try await store.subscribe(Subscription(url: "http://127.0.0.1:9/b", title: "B"))
        let reloader = Reloader(store: store, jobs: 4)
        for _ in 0...Reloader.failuresBeforeBackoff {
            let summary = try await reloader.reload()
            #expect(summary.failures.count == 2 && summary.waiting.isEmpty && summary.allFailed)
        }
    }

    @Test("a feed that works again (even unchanged, 304) is no longer held back or marked")
    func recovers() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = try await Library()
        defer { library.cleanUp() }
        let store = library.store
        let url = server.url("/feed").absoluteString
        try await store.subscribe(Subscription(url: url))
        let reloader = Reloader(store: store, jobs: 4)
        _ = try await reloader.reload()
        try await store.recordFailure(url: url, reason: "HTTP 500", at: Date())
        try await store.countFailures(urls: [url, url, url])
        #expect(try await store.feedSummaries().first?.feed.lastError == "HTTP 500")
        let forced = try await reloader.reload(only: url)
        #expect(forced.notModified == 1)
        #expect(try await store.feedSummaries().first?.feed.lastError == nil)
        let all = try await reloader.reload()
        #expect(all.waiting.isEmpty && all.notModified == 1)
    }
}
