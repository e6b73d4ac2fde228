import Foundation
import HeraldAccounts
import HeraldFetch
import HeraldTestSupport
import Testing

/// The Google Reader API client against a real FreshRSS, each test with an account of its own.
@Suite("Google Reader API against a real FreshRSS")
struct GoogleReaderServiceTests {
    let fetcher = FeedFetcher()
    let freshRSS = RealFreshRSS.shared

    static let harbour = TestFeed(
        name: "harbour", title: "Harbour news", category: "Local",
        articles: TestArticle.numbered(5, feed: "harbour"))
    static let tools = TestFeed(
        name: "tools", title: "Tools of the trade", category: "Work",
        articles: TestArticle.numbered(4, feed: "tools"))
    static let loose = TestFeed(
        name: "loose", title: "Loose ends", articles: TestArticle.numbered(2, feed: "loose"))

    func client(_ account: RealFreshRSS.Account, password: String? = nil) -> GoogleReaderService {
        GoogleReaderService(
            apiBase: account.apiBase, login: account.user, password: password ?? account.password,
            fetcher: fetcher)
    }

    @Test("logs in with the API password; a wrong one is refused, and not named in the error")
    func logsIn() async throws {
        let account = try await freshRSS.account(feeds: [])
        try await client(account).logIn()
        let wrong = "wrong-\(UUID().uuidString)"
        let error = await accountError { try await client(account, password: wrong).logIn() }
        #expect(error?.kind == "unauthorized")
        #expect(error.map { !"\($0)".contains(wrong) } == true)
        #expect(
            await accountError { try await client(account, password: wrong).feeds() }?.kind == "unauthorized")
    }

    @Test("lists the feeds with their titles, addresses and categories")
    func listsFeeds() async throws {
        let account = try await freshRSS.account(feeds: [Self.harbour, Self.tools, Self.loose])
        let feeds = try await client(account).feeds()
        let byTitle = Dictionary(feeds.map { ($0.title, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(Set(feeds.map(\.title)) == ["Harbour news", "Tools of the trade", "Loose ends"])
        #expect(byTitle["Harbour news"]?.categories == ["Local"])
        #expect(byTitle["Tools of the trade"]?.categories == ["Work"])
        #expect(byTitle["Harbour news"]?.url == account.feedURL(Self.harbour))
        #expect(byTitle["Harbour news"]?.siteURL == "https://example.org/harbour")
        #expect(feeds.allSatisfy { $0.id.hasPrefix("feed/") })
    }

    @Test("a first sync pages through every item, three to a page, and gets each one")
    func firstSyncGetsEverything() async throws {
        let feeds = [Self.harbour, Self.tools, Self.loose]
        let account = try await freshRSS.account(feeds: feeds)
        let service = client(account)
        let walk = try await SyncWalk.run(service, from: nil, limit: 3)
        let expected = Set(feeds.flatMap { $0.articles.map(\.title) })
        #expect(walk.titles == expected)
        #expect(Set(walk.items.map(\.item.id)).count == expected.count)
        #expect(walk.pages.count >= 4 && walk.pages.allSatisfy { $0 <= 3 })
        #expect(walk.items.allSatisfy { $0.item.id.hasPrefix("tag:google.com,2005:reader/item/") })
        let feedIDs = Dictionary(
            try await service.feeds().map { ($0.title, $0.id) }, uniquingKeysWith: { a, _ in a })
        let harbourItems = walk.items.filter { $0.item.title.hasPrefix("harbour ") }
        #expect(harbourItems.count == 5 && harbourItems.allSatisfy { $0.feedID == feedIDs["Harbour news"] })
    }

    @Test("a later sync gets what the server took in since, and not the older items")
    func laterSyncGetsTheNewItems() async throws {
        var harbour = Self.harbour
        let account = try await freshRSS.account(feeds: [harbour])
        // A second batch two seconds later: the cursor will stand in its second.
        try await Task.sleep(for: .milliseconds(2200))
        harbour.articles += TestArticle.numbered(3, feed: "harbour", from: 5)
        try freshRSS.publish([harbour], for: account)
        try await freshRSS.refresh(account)
        let service = client(account)
        let first = try await SyncWalk.run(service, from: nil, limit: 3)
        #expect(first.titles.count == 8)

        // Right away, so within a second or so of the cursor's second.
        harbour.articles += TestArticle.numbered(3, feed: "harbour", from: 8)
        try freshRSS.publish([harbour], for: account)
        try await freshRSS.refresh(account)
        let new: Set = ["harbour article 8", "harbour article 9", "harbour article 10"]
        // FreshRSS's ids are its crawl times: the next sync asks for the new ids alone.
        let second = try await SyncWalk.run(service, from: first.cursor, limit: 2)
        #expect(second.titles == new)
        #expect(second.pages == [2, 1])
        let idle = try await SyncWalk.run(service, from: second.cursor, limit: 3)
        #expect(idle.items.isEmpty && idle.cursor == second.cursor)

        // A server whose ids are not its crawl times is asked by time, from a second before.
        let byTime = try #require(first.cursor?.replacingOccurrences(of: "gr2:i:", with: "gr2:t:"))
        #expect(byTime != first.cursor)
        let timed = try await SyncWalk.run(service, from: byTime, limit: 2)
        #expect(timed.titles.isSuperset(of: new))
        #expect(timed.titles.isDisjoint(with: (0..<5).map { "harbour article \($0)" }))
    }

    @Test("an item taken in while a sync pages comes in that sync or the next")
    func arrivalDuringASync() async throws {
        var tools = Self.tools
        let account = try await freshRSS.account(feeds: [tools])
        let service = client(account)
        let walk = try await SyncWalk.run(service, from: nil, limit: 2) {
            tools.articles += TestArticle.numbered(2, feed: "tools", from: 4)
            try freshRSS.publish([tools], for: account)
            try await freshRSS.refresh(account)
        }
        let next = try await SyncWalk.run(service, from: walk.cursor, limit: 2)
        #expect(walk.titles.union(next.titles) == Set((0..<6).map { "tools article \($0)" }))
    }

    @Test("text, dates, authors, links and enclosures come through")
    func articlesComeWhole() async throws {
        let account = try await freshRSS.account(feeds: [Self.harbour])
        let walk = try await SyncWalk.run(client(account), from: nil, limit: 50)
        let article = Self.harbour.articles[3]
        let remote = try #require(walk.byTitle[article.title])
        #expect(remote.item.link == article.link)
        #expect(remote.item.author == "Author 0")
        #expect(remote.item.published == article.published)
        #expect(remote.item.text.contains("The body of harbour article 3."))
        #expect(remote.item.text.contains("Lanterns on the quay & the harbour at dusk"))
        #expect(remote.item.html?.contains("<b>harbour</b>") == true)
        #expect((remote.item.html?.utf8.count ?? 0) > 2500)
        #expect(remote.item.enclosures.map(\.url) == [article.enclosure?.url])
        #expect(remote.item.enclosures.first?.type == "audio/mpeg")
        #expect(remote.item.enclosures.first?.length == Int64(article.enclosure?.length ?? 0))
        #expect(walk.byTitle["harbour article 1"]?.item.enclosures.isEmpty == true)
        #expect(!remote.read && !remote.starred)
    }

    @Test("send marks read, unread, starred and unstarred, in order; a second client sees them")
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

    @Test("subscribing in a category and unsubscribing show in the feed list")
    func subscribesAndUnsubscribes() async throws {
        let account = try await freshRSS.account(feeds: [Self.harbour])
        let later = TestFeed(
            name: "later", title: "Later reading", articles: TestArticle.numbered(2, feed: "later"))
        try freshRSS.publish([later], for: account)
        let service = client(account)
        let feed = try await service.subscribe(url: account.feedURL(later), category: "Queue")
        #expect(feed.url == account.feedURL(later))
        #expect(feed.categories == ["Queue"])
        #expect(try await service.feeds().contains { $0.id == feed.id && $0.categories == ["Queue"] })
        // Subscribing again is no error: the feed as listed.
        #expect(try await service.subscribe(url: account.feedURL(later), category: nil).id == feed.id)

        try await service.unsubscribe(feedID: feed.id)
        let left = try await service.feeds()
        #expect(!left.contains { $0.id == feed.id })
        #expect(left.map(\.title) == ["Harbour news"])
    }
}
