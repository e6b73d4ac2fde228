import Foundation
import HeraldFetch
import HeraldTestSupport
import Testing

@testable import HeraldAccounts

/// Figures for the bench (10,000 full articles in 200 feeds) against the real
/// FreshRSS: a first sync, the ids of every unread item, a sync with nothing new. Slow to
/// set up (FreshRSS fetches 200 feeds), so run only when asked:
/// `HERALD_ACCOUNT_BENCH=1 swift test --skip-build --filter AccountBenchTests`.
@Suite(
    "Account bench", .serialized,
    .enabled(if: ProcessInfo.processInfo.environment["HERALD_ACCOUNT_BENCH"] != nil))
struct AccountBenchTests {
    static let feeds = (0..<200).map { number in
        TestFeed(
            name: "feed\(number)", title: "Feed \(number)", category: "Group \(number % 10)",
            articles: TestArticle.numbered(50, feed: "feed\(number)"))
    }

    static func seconds(_ duration: Duration) -> String {
        String(
            format: "%.3f s",
            Double(duration.components.attoseconds) / 1e18 + Double(duration.components.seconds))
    }

    @Test("10,000 articles: first sync, states, and a sync with nothing new")
    func tenThousandArticles() async throws {
        let clock = ContinuousClock()
        let setup = clock.now
        let account = try await RealFreshRSS.shared.account(feeds: Self.feeds)
        print("bench: FreshRSS took in 10,000 articles in \(Self.seconds(clock.now - setup))")
        let fetcher = FeedFetcher()
        let reader = GoogleReaderService(
            apiBase: account.apiBase, login: account.user, password: account.password, fetcher: fetcher)
        try await reader.logIn()

        // One 1000-item page, taken apart: the server and the network, the JSON, the items.
        let http = AccountHTTP(base: account.apiBase, fetcher: fetcher)
        let session = try await reader.authorization(replacing: nil)
        var start = clock.now
        let data = try await http.get(
            http.url(
                "/reader/api/0/stream/contents/user/-/state/com.google/reading-list",
                query: [("n", "1000"), ("r", "o")]),
            headers: [GoogleReaderService.header(session)])
        let fetched = clock.now - start
        start = clock.now
        let page = try AccountJSON.decode(GoogleReaderJSON.StreamContents.self, from: data, "bench")
        let decoded = clock.now - start
        start = clock.now
        let items = page.items.compactMap(\.remoteItem)
        let made = clock.now - start
        print(
            "bench: a 1000-item page of \(data.count / 1024) KB: fetched in \(Self.seconds(fetched)), "
                + "JSON decoded in \(Self.seconds(decoded)), \(items.count) items made in \(Self.seconds(made))"
        )

        for limit in [1000, 2000] {
            start = clock.now
            let walk = try await SyncWalk.run(reader, from: nil, limit: limit)
            print(
                "bench: Google Reader first sync, pages of \(limit): \(walk.items.count) items in "
                    + "\(walk.pages.count) pages, \(Self.seconds(clock.now - start))")
            #expect(walk.titles.count == 10_000)
        }
        let first = try await SyncWalk.run(reader, from: nil, limit: 1000)
        start = clock.now
        let states = try await reader.states()
        print(
            "bench: Google Reader states(): \(states.unread.count) unread ids in \(Self.seconds(clock.now - start))"
        )
        #expect(states.unread.count == 10_000)

        start = clock.now
        let idle = try await SyncWalk.run(reader, from: first.cursor, limit: 1000)
        _ = try await reader.states()
        print(
            "bench: Google Reader sync with nothing new (items and states): \(Self.seconds(clock.now - start)), "
                + "\(idle.items.count) items again")

        let fever = FeverService(
            endpoint: account.feverEndpoint, login: account.user, password: account.password, fetcher: fetcher
        )
        start = clock.now
        let feverWalk = try await SyncWalk.run(fever, from: nil, limit: 1000, maxPages: 1000)
        print(
            "bench: Fever first sync: \(feverWalk.items.count) items in \(feverWalk.pages.count) pages, "
                + "\(Self.seconds(clock.now - start))")
        start = clock.now
        let feverStates = try await fever.states()
        print(
            "bench: Fever states(): \(feverStates.unread.count) unread ids in \(Self.seconds(clock.now - start))"
        )
        start = clock.now
        _ = try await SyncWalk.run(fever, from: feverWalk.cursor, limit: 1000)
        _ = try await fever.states()
        print("bench: Fever sync with nothing new (items and states): \(Self.seconds(clock.now - start))")
    }
}
