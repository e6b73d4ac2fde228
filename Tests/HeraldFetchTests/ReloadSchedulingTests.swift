import Foundation
import HeraldCore
import HeraldStore
import HeraldTestSupport
import Testing

@testable import HeraldFetch
@testable import HeraldReload

/// How a reload spreads its work: many feeds waiting on the network at once, memory for
/// the bodies waiting to be parsed bounded, parsing below the reader's priority.
@Suite("Scheduling a reload", .serialized)
struct ReloadSchedulingTests {
    @Test("a reload of 40 slow feeds on 40 hosts waits for them all at once")
    func slowFeedsWaitTogether() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-sched-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await LibraryStore.open(path: directory.appendingPathComponent("h.db").path)
        for n in 1...40 {
            try await store.subscribe(Subscription(url: "http://127.0.0.\(n + 1):\(server.port)/together/40"))
        }
        let summary = try await Reloader(store: store).reload()
        // Each answers once all 40 wait at once: 16 at a time would leave 24 waiting until the
        // server gave up on them. Counted, not timed.
        #expect(summary.failures.isEmpty && summary.newArticles == 40)
        #expect(try await server.togetherPeak() == 40)
    }

    @Test("a body waits for room in the budget, and arrives once the one before is released")
    func bodiesWaitForTheBudget() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        // A budget of one byte: the first body fills it.
        let fetcher = FeedFetcher(bodyBudget: 1)
        let first = try #require(fetched(try await fetcher.fetch(FetchRequest(url: server.url("/feed")))))
        let url = server.url("/gzip")
        let second = Task { try await fetcher.fetch(FetchRequest(url: url)) }
        let arrived = Gate()
        Task {
            _ = try? await second.value
            await arrived.open()
        }
        try await Task.sleep(for: .milliseconds(300))
        #expect(await !arrived.isOpen, "a body arrived while the budget was full")
        fetcher.release(first)
        #expect(await arrived.isOpenSoon(), "the paused body did not arrive after the release")
        let body = try #require(fetched(try await second.value))
        #expect(String(decoding: body.data, as: UTF8.self).contains("<title>Fixture</title>"))
    }

    @Test("time spent waiting for the budget does not count against a fetch's deadlines")
    func pausedTimeIsNotRunTime() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        var limits = FetchLimits()
        limits.idleTimeout = 1
        limits.totalTimeout = 2
        let fetcher = FeedFetcher(limits: limits, bodyBudget: 1)
        let first = try #require(fetched(try await fetcher.fetch(FetchRequest(url: server.url("/feed")))))
        let url = server.url("/gzip")
        let second = Task { try await fetcher.fetch(FetchRequest(url: url)) }
        // Paused longer than both the idle and the total limit.
        try await Task.sleep(for: .seconds(3.5))
        fetcher.release(first)
        let body = try #require(fetched(try await second.value))
        #expect(String(decoding: body.data, as: UTF8.self).contains("<title>Fixture</title>"))
    }

    @Test("a fetch that runs past its total deadline is stopped, whatever the server does")
    func totalDeadline() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        var limits = FetchLimits()
        limits.idleTimeout = 30
        limits.totalTimeout = 2
        let started = Date()
        // The trickle sends a byte a second: never idle, never done.
        await #expect(throws: FetchError.timedOut("127.0.0.1 took over 2 s")) {
            try await FeedFetcher(limits: limits).fetch(FetchRequest(url: server.url("/trickle")))
        }
        // Loose, for a busy machine: read to its end, the trickle would take 150 s.
        #expect(Date().timeIntervalSince(started) < 60)
    }

    @Test("parsing runs on threads below the process's priority")
    func parseThreadsAreNiced() async throws {
        let niceness = try await BackgroundWorkers.shared.run { () throws(CocoaError) -> Int32 in
            errno = 0
            return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        }
        #expect(niceness == 10)
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == 0)
    }
}

/// The document of a fetch that brought one.
func fetched(_ result: FetchResult) -> FetchedDocument? {
    if case .fetched(let document) = result { document } else { nil }
}

/// A flag set from one task and read from another.
actor Gate {
    private(set) var isOpen = false
    func open() { isOpen = true }
    /// Whether the flag is set within a second.
    func isOpenSoon() async -> Bool {
        for _ in 0..<100 where !isOpen { try? await Task.sleep(for: .milliseconds(10)) }
        return isOpen
    }
}
