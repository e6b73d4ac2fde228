import Foundation
import HeraldAccounts
import HeraldFetch
import HeraldTestSupport
import Testing

/// The Fever API client against a real FreshRSS, each test with an account of its own, and
/// against a loopback server for the faults FreshRSS cannot show.
@Suite("Fever API")
struct FeverServiceTests {
    let fetcher = FeedFetcher()
    let freshRSS = RealFreshRSS.shared

    static let harbour = TestFeed(
        name: "harbour", title: "Harbour news", category: "Local",
        articles: TestArticle.numbered(5, feed: "harbour"))
    static let tools = TestFeed(
        name: "tools", title: "Tools of the trade", category: "Work",
        articles: TestArticle.numbered(4, feed: "tools"))

    func client(_ account: RealFreshRSS.Account, password: String? = nil) -> FeverService {
        FeverService(
            endpoint: account.feverEndpoint, login: account.user, password: password ?? account.password,
            fetcher: fetcher)
    }

    @Test("logs in with the API password; a wrong one is unauthorized, and not named in the error")
    func logsIn() async throws {
        let account = try await freshRSS.account(feeds: [])
        try await client(account).logIn()
        let wrong = "wrong-\(UUID().uuidString)"
        let error = await accountError { try await client(account, password: wrong).logIn() }
        #expect(error?.kind == "unauthorized")
        #expect(error.map { !"\($0)".contains(wrong) } == true)
        #expect(
            await accountError { try await client(account, password: wrong).states() }?.kind == "unauthorized"
        )
    }

    @Test("lists the feeds with their titles, addresses and groups as categories")
    func listsFeeds() async throws {
        let account = try await freshRSS.account(feeds: [Self.harbour, Self.tools])
        let feeds = try await client(account).feeds()
        let byTitle = Dictionary(feeds.map { ($0.title, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(Set(feeds.map(\.title)) == ["Harbour news", "Tools of the trade"])
        #expect(byTitle["Harbour news"]?.categories == ["Local"])
        #expect(byTitle["Tools of the trade"]?.categories == ["Work"])
        #expect(byTitle["Harbour news"]?.url == account.feedURL(Self.harbour))
        #expect(byTitle["Harbour news"]?.siteURL == "https://example.org/harbour")
        #expect(feeds.allSatisfy { Int($0.id) != nil })
    }

    @Test("a first sync pages through every item after since_id, three to a page")
    func firstSyncGetsEverything() async throws {
        let account = try await freshRSS.account(feeds: [Self.harbour, Self.tools])
        let service = client(account)
        let walk = try await SyncWalk.run(service, from: nil, limit: 3)
        #expect(walk.titles == Set((Self.harbour.articles + Self.tools.articles).map(\.title)))
        #expect(Set(walk.items.map(\.item.id)).count == 9)
        #expect(walk.pages.count >= 3 && walk.pages.allSatisfy { $0 <= 3 })
        let harbourID = try await service.feeds().first { $0.title == "Harbour news" }?.id
        #expect(
            walk.items.filter { $0.item.title.hasPrefix("harbour ") }.allSatisfy { $0.feedID == harbourID })
    }

    @Test("a later sync gets exactly the items the server took in since")
    func laterSyncGetsTheNewItems() async throws {
        var harbour = Self.harbour
        let account = try await freshRSS.account(feeds: [harbour])
        let service = client(account)
        let first = try await SyncWalk.run(service, from: nil, limit: 50)
        #expect(first.items.count == 5)
        harbour.articles += TestArticle.numbered(2, feed: "harbour", from: 5)
        try freshRSS.publish([harbour], for: account)
        try await freshRSS.refresh(account)
        let second = try await SyncWalk.run(service, from: first.cursor, limit: 50)
        #expect(second.titles == ["harbour article 5", "harbour article 6"])
        let idle = try await SyncWalk.run(service, from: second.cursor, limit: 50)
        #expect(idle.items.isEmpty && idle.cursor == second.cursor)
    }

    @Test("text, dates, authors and links come through")
    func articlesComeWhole() async throws {
        let account = try await freshRSS.account(feeds: [Self.harbour])
        let walk = try await SyncWalk.run(client(account), from: nil, limit: 50)
        let article = Self.harbour.articles[2]
        let remote = try #require(walk.byTitle[article.title])
        #expect(remote.item.link == article.link)
        #expect(remote.item.author == "Author 2")
        #expect(remote.item.published == article.published)
        #expect(remote.item.text.contains("The body of harbour article 2."))
        #expect(remote.item.text.contains("Lanterns on the quay & the harbour at dusk"))
        #expect((remote.item.html?.utf8.count ?? 0) > 2500)
        #expect(!remote.read && !remote.starred)
    }

    @Test("send marks read, unread, saved and unsaved, in order; a second client sees them")
    func sendsFlags() async throws {
        let account = try await freshRSS.account(feeds: [Self.harbour])
        let service = client(account)
        let walk = try await SyncWalk.run(service, from: nil, limit: 50)
        let ids = try (0..<5).map { try #require(walk.byTitle["harbour article \($0)"]?.item.id) }
        let before = try await service.states()
        #expect(before.unread == Set(ids) && before.starred.isEmpty && before.changedAt.isEmpty)

        try await service.send([
            RemoteFlagChange(itemID: ids[0], flag: .read, value: true),
            RemoteFlagChange(itemID: ids[1], flag: .read, value: true),
            RemoteFlagChange(itemID: ids[1], flag: .read, value: false),
            RemoteFlagChange(itemID: ids[2], flag: .starred, value: true),
            RemoteFlagChange(itemID: ids[3], flag: .starred, value: true),
            RemoteFlagChange(itemID: ids[3], flag: .starred, value: false),
            RemoteFlagChange(itemID: ids[4], flag: .read, value: true),
            RemoteFlagChange(itemID: ids[4], flag: .starred, value: true),
        ])
        let other = client(account)
        let after = try await other.states()
        #expect(after.unread == [ids[1], ids[2], ids[3]])
        #expect(after.starred == [ids[2], ids[4]])
        let seen = try await SyncWalk.run(other, from: nil, limit: 50)
        #expect(seen.items.filter(\.read).map(\.item.id).sorted() == [ids[0], ids[4]].sorted())
        #expect(seen.items.filter(\.starred).map(\.item.id).sorted() == [ids[2], ids[4]].sorted())
    }

    @Test("cannot subscribe or unsubscribe, and says so")
    func cannotSubscribe() async throws {
        let service = FeverService(
            endpoint: URL(string: "http://127.0.0.1:9/fever/")!, login: "a", password: "b", fetcher: fetcher)
        #expect(!service.abilities.subscribe && !service.abilities.unsubscribe)
        let error = await accountError {
            try await service.subscribe(url: "https://example.org/feed", category: nil)
        }
        #expect(error == .unsupported("the Fever API cannot subscribe to feeds"))
        #expect(await accountError { try await service.unsubscribe(feedID: "1") }?.kind == "unsupported")
    }

    @Test(
        "each fault gives its error from every call, never a crash, and never the password",
        arguments: [
            ("garbage", "badResponse"), ("status500", "serverError"), ("busy", "busy"),
            ("huge", "unreachable"),
            ("wrongtype", "badResponse"), ("fever-refused", "unauthorized"), ("refused", "unauthorized"),
        ])
    func faultsGiveTheirErrors(fault: String, expected: String) async throws {
        let server = try AccountTestServer()
        defer { server.stop() }
        var limits = FetchLimits()
        limits.maxBytes = 1_048_576
        let secret = "s3cret-Passw0rd"
        let service = FeverService(
            endpoint: server.faultBase(fault).appendingPathComponent("fever/"), login: "reader",
            password: secret,
            fetcher: FeedFetcher(limits: limits))
        let calls: [(String, () async throws -> Void)] = [
            ("logIn", { try await service.logIn() }),
            ("feeds", { _ = try await service.feeds() }),
            ("items", { _ = try await service.items(after: nil, limit: 10) }),
            ("states", { _ = try await service.states() }),
            ("send", { try await service.send([RemoteFlagChange(itemID: "1", flag: .read, value: true)]) }),
        ]
        for (name, call) in calls {
            let error = await accountError(call)
            #expect(error?.kind == expected, "\(name)")
            #expect(error.map { !"\($0)".contains(secret) } == true, "\(name)")
            if case .busy(let seconds) = error { #expect(seconds == 120) }
        }
    }
}
