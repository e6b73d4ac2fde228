import Foundation
import HeraldAccounts
import HeraldFetch
import Testing

/// Timings of the TT-RSS client against a server the caller filled (skipped unless
/// `HERALD_TTRSS_BENCH` is "BASE-URL LOGIN PASSWORD"): a first sync in pages of 200, a sync
/// with nothing new, and `states()`. They print; they assert only that the sync is whole.
@Suite(
    .enabled(
        if: TinyTinyRSSBenchAccount.given != nil, "set HERALD_TTRSS_BENCH to \"BASE-URL LOGIN PASSWORD\""))
struct TinyTinyRSSBenchTests {

    @Test("times a first sync, a sync with nothing new, and states()")
    func bench() async throws {
        let account = try #require(TinyTinyRSSBenchAccount.given)
        let client = TinyTinyRSSService(
            base: account.base, login: account.login, password: account.password, fetcher: FeedFetcher())
        let clock = ContinuousClock()
        var cursor: String?
        var count = 0
        var pages = 0
        var bytes = 0
        var slowest = Duration.zero
        let first = try await clock.measure {
            while true {
                var page: RemoteItemPage?
                let one = try await clock.measure { page = try await client.items(after: cursor, limit: 200) }
                slowest = max(slowest, one)
                guard let page else { return }
                pages += 1
                count += page.items.count
                bytes += page.items.reduce(0) { $0 + ($1.item.html?.utf8.count ?? 0) }
                cursor = page.cursor
                if !page.more { return }
            }
        }
        print(
            "first sync: \(count) articles (\(bytes / 1024) KB of HTML) in \(pages) pages: \(first), slowest page \(slowest)"
        )
        let fresh = TinyTinyRSSService(
            base: account.base, login: account.login, password: account.password, fetcher: FeedFetcher())
        var nothing: RemoteItemPage?
        let again = try await clock.measure { nothing = try await fresh.items(after: cursor, limit: 200) }
        print("nothing new (with a login): \(again), \(nothing?.items.count ?? -1) articles")
        var states: RemoteStates?
        let flags = try await clock.measure { states = try await client.states() }
        print(
            "states(): \(states?.unread.count ?? 0) unread, \(states?.starred.count ?? 0) starred in \(flags)"
        )
        #expect(nothing?.items.isEmpty == true)
    }
}

/// The account `HERALD_TTRSS_BENCH` names.
enum TinyTinyRSSBenchAccount {
    static let given: (base: URL, login: String, password: String)? = {
        let words = (ProcessInfo.processInfo.environment["HERALD_TTRSS_BENCH"] ?? "").split(separator: " ")
        guard words.count == 3, let base = URL(string: String(words[0])) else { return nil }
        return (base, String(words[1]), String(words[2]))
    }()
}
