import Foundation
import HeraldTestSupport
import Testing

@testable import HeraldFetch

/// Found in review of the libcurl fetcher: a bare status line, and one slow large body
/// holding back every other (it reserved its whole Content-Length).
@Suite("Fetching: status lines and slow bodies under a budget", .serialized)
struct BudgetAndStatusTests {
    @Test("a 200 whose status line has no reason phrase is a document, not 'HTTP 0'")
    func statusLineWithoutReason() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let result = try await FeedFetcher().fetch(FetchRequest(url: server.url("/bare-status")))
        guard case .fetched(let document) = result else {
            Issue.record("not fetched: \(result)")
            return
        }
        #expect(String(decoding: document.data, as: UTF8.self).contains("<title>Fixture</title>"))
    }

    @Test("one slow feed larger than the budget does not hold every other body back")
    func slowLargeBodyDoesNotBlockOthers() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let fetcher = FeedFetcher(bodyBudget: 2 * 1_048_576)
        // 3 MB sent over ~15 s: admitted at its first byte, it reserves 3 MB at once.
        let bigURL = server.url("/big-slow")
        // Released as soon as it arrives (a reload would parse and store it first).
        let big = Task {
            if case .fetched(let document) = try await fetcher.fetch(FetchRequest(url: bigURL)) {
                fetcher.release(document)
            }
            return Date()
        }
        try await Task.sleep(for: .milliseconds(800))
        let started = Date()
        // Five small feeds on other hosts: 200 bytes each.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 1...5 {
                let url = URL(string: "http://127.0.0.\(n + 1):\(server.port)/feed")!
                group.addTask {
                    if case .fetched(let document) = try await fetcher.fetch(FetchRequest(url: url)) {
                        fetcher.release(document)
                    }
                }
            }
            try await group.waitForAll()
        }
        let done = Date()
        let waited = done.timeIntervalSince(started)
        // Held back, they would end only once the big one's last byte is in (over 14 s from
        // here): they must end before it. Compared with its end, not with a number of
        // seconds, so a loaded machine (the suite runs tests side by side) cannot fail it.
        let bigDone = try await big.value
        #expect(done < bigDone, "five 200-byte feeds waited \(waited) s, behind one slow 3 MB feed")
    }

    @Test("bodies past the budget arrive one at a time when their consumer is slower than the network")
    func leadHeldUntilReleased() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let budget = 1_048_576
        let fetcher = FeedFetcher(bodyBudget: budget)
        // About 2.7 MB each, on three hosts: past the budget, each grows as the lead.
        let urls = try (1...3).map {
            try #require(URL(string: "http://127.0.0.\($0):\(server.port)/many/30000"))
        }
        let sizes = await withTaskGroup(of: Int.self) { group in
            for url in urls {
                group.addTask {
                    guard case .fetched(let document)? = try? await fetcher.fetch(FetchRequest(url: url))
                    else { return 0 }
                    // Parsed and stored more slowly than loopback delivers (niced parse threads
                    // on a busy machine): the next body must wait for this one's release.
                    try? await Task.sleep(for: .milliseconds(300))
                    fetcher.release(document)
                    return document.data.count
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        let body = try #require(sizes.max())
        #expect(sizes.count == 3 && sizes.allSatisfy { $0 == body && $0 > 2 * budget }, "\(sizes)")
        // The budget, one body past it, and one decoded piece: not three bodies at once.
        let peak = try #require(fetcher.peakBudgetBytes)
        #expect(peak <= budget + body + 65_536, "peak \(peak) with bodies of \(body)")
    }
}
