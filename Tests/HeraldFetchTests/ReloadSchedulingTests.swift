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
    @Test("a reload of 40 slow feeds on 40 hosts takes about as long as the slowest one")
    func slowFeedsWaitTogether() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-sched-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await LibraryStore.open(path: directory.appendingPathComponent("h.db").path)
        for n in 1...40 {
            try await store.subscribe(Subscription(url: "http://127.0.0.\(n + 1):\(server.port)/slow"))
        }
        let started = Date()
        let summary = try await Reloader(store: store).reload()
        // Each answers after 5 s: together about 5 s, where 16 at a time would take 15.
        #expect(summary.failures.isEmpty && summary.newArticles == 40)
        #expect(Date().timeIntervalSince(started) < 9)
    }

    @Test("a body waits for room in the budget, and arrives once the one before is released")
    func bodiesWaitForTheBudget() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        // A budget of one byte: the first body fills it.
        let fetcher = FeedFetcher(bodyBudget: 1)
        guard case .fetched(let first) = try await fetcher.fetch(FetchRequest(url: server.url("/feed")))
        else {
            Issue.record("no first body")
            return
        }
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
        guard case .fetched(let body) = try await second.value else {
            Issue.record("no second body")
            return
        }
        #expect(String(decoding: body.data, as: UTF8.self).contains("<title>Fixture</title>"))
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
