import Foundation
import HeraldAccounts
import HeraldCore
import HeraldStore
import Testing

/// A real library file, for the sync engine's tests.
struct ScratchLibrary {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-accounts-\(UUID().uuidString)")
    var path: String { directory.appendingPathComponent("herald.db").path }

    func open() async throws -> LibraryStore {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return try await LibraryStore.open(path: path)
    }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }
}

/// The sync engine's logic against a server in memory, on a real library file: what comes
/// down, what goes up and when, who wins, and what a fault midway leaves.
@Suite("Account sync")
struct AccountSyncTests {
    func articles(_ store: LibraryStore) async throws -> [String: ArticleSummary] {
        var byTitle: [String: ArticleSummary] = [:]
        for article in try await store.articles(in: .all, page: .first(limit: 1000)) { byTitle[article.title] = article }
        return byTitle
    }

    func sync(_ server: InMemoryServer, _ store: LibraryStore, pageSize: Int = 2) async throws -> AccountSyncSummary {
        try await AccountSync(service: server, store: store, pageSize: pageSize).run()
    }

    func server() async -> InMemoryServer {
        let server = InMemoryServer()
        await server.addFeed("feed/1", url: "https://one.example/feed", title: "One", categories: ["News"])
        await server.addFeed("feed/2", url: "https://two.example/feed", title: "Two")
        for n in 1...3 { await server.addItem(feed: "feed/1", title: "one-\(n)") }
        for n in 1...2 { await server.addItem(feed: "feed/2", title: "two-\(n)") }
        return server
    }

    @Test("a first sync brings the subscriptions with their categories as tags, every article and its flags")
    func firstSync() async throws {
        let library = ScratchLibrary()
        defer { library.cleanUp() }
        let store = try await library.open()
        let server = await server()
        await server.set("item-2", read: true, starred: true)
        let summary = try await sync(server, store)
        #expect(summary.newArticles == 5)
        #expect(summary.feeds.added == 2)
        let feeds = try await store.feedSummaries()
        #expect(feeds.map(\.feed.title).sorted() == ["One", "Two"])
        #expect(feeds.first { $0.feed.title == "One" }?.feed.tags == ["News"])
        let all = try await articles(store)
        #expect(all.count == 5)
        #expect(all["one-2"]?.isRead == true && all["one-2"]?.isStarred == true)
        #expect(all["one-1"]?.isRead == false && all["one-1"]?.isStarred == false)
        // Nothing the server said waits to go back up.
        #expect(try await store.accountOutboxCount() == 0)
        // The account's feeds are not reloaded by Herald.
        #expect(try await store.reloadTargets().isEmpty)
    }

    @Test("changes made here wait in the queue and go up at the next contact, in order, the last of each")
    func changesGoUp() async throws {
        let library = ScratchLibrary()
        defer { library.cleanUp() }
        let store = try await library.open()
        let server = await server()
        _ = try await sync(server, store)
        let all = try await articles(store)
        let one = try #require(all["one-1"]?.id), two = try #require(all["two-1"]?.id)
        _ = try await store.setFlag(.read, true, articleIDs: [one, two])
        _ = try await store.setFlag(.read, false, articleIDs: [two])
        _ = try await store.setFlag(.starred, true, articleIDs: [two])
        #expect(try await store.accountOutboxCount() == 4)
        await server.setDown(true)
        await #expect(throws: AccountError.self) { try await sync(server, store) }
        // The server was down: nothing was lost.
        #expect(try await store.accountOutboxCount() == 4)
        await server.setDown(false)
        let summary = try await sync(server, store)
        #expect(summary.changesSent == 3)
        #expect(try await store.accountOutboxCount() == 0)
        let sent = await server.sent
        #expect(sent.contains(RemoteFlagChange(itemID: "item-1", flag: .read, value: true)))
        #expect(sent.contains(RemoteFlagChange(itemID: "item-4", flag: .read, value: false)))
        #expect(sent.contains(RemoteFlagChange(itemID: "item-4", flag: .starred, value: true)))
        #expect(await server.unread.contains("item-1") == false)
        #expect(await server.starred == ["item-4"])
        // What went up stays here as it was.
        let after = try await articles(store)
        #expect(after["one-1"]?.isRead == true && after["two-1"]?.isRead == false && after["two-1"]?.isStarred == true)
    }

    @Test("the server's own changes come down; a change here wins over an undated one, a later dated one wins over ours")
    func laterWins() async throws {
        let library = ScratchLibrary()
        defer { library.cleanUp() }
        let store = try await library.open()
        let server = await server()
        _ = try await sync(server, store)
        let all = try await articles(store)
        // Another client changes two articles on the server.
        await server.set("item-3", read: true)
        await server.set("item-5", starred: true)
        // Here, two other articles change; on the server too, one undated, one dated later.
        _ = try await store.setFlag(.read, true, articleIDs: [try #require(all["one-1"]?.id)])
        _ = try await store.setFlag(.starred, true, articleIDs: [try #require(all["one-2"]?.id)])
        await server.set("item-1", read: false)
        await server.set("item-2", starred: false, at: Date().addingTimeInterval(60))
        let summary = try await sync(server, store)
        #expect(summary.changesOverruled == 1)
        let after = try await articles(store)
        #expect(after["one-3"]?.isRead == true)
        #expect(after["two-2"]?.isStarred == true)
        // Undated: ours (made since the last contact) went up and stays.
        #expect(after["one-1"]?.isRead == true)
        #expect(await server.unread.contains("item-1") == false)
        // Dated later than ours: the server's stands here too.
        #expect(after["one-2"]?.isStarred == false)
        #expect(await server.starred.contains("item-2") == false)
        #expect(try await store.accountOutboxCount() == 0)
    }

    @Test(
        "a fault midway through the articles keeps the cursor and the queue, and drops the page asked for ahead; the next sync takes up from there"
    )
    func faultMidway() async throws {
        let library = ScratchLibrary()
        defer { library.cleanUp() }
        let store = try await library.open()
        let server = await server()
        await server.setFailure(afterPages: 1)
        await #expect(throws: AccountError.self) { try await sync(server, store) }
        #expect(await server.dropped == 1)
        #expect(try await store.accountValue("cursor") == nil)
        // The first page is in: kept, and stored once however often it comes again.
        #expect(try await articles(store).count == 2)
        await server.setFailure(afterPages: nil)
        let summary = try await sync(server, store)
        #expect(summary.newArticles == 3)
        #expect(try await articles(store).count == 5)
        #expect(try await store.accountValue("cursor") == "5")
        await server.addItem(feed: "feed/2", title: "two-3")
        #expect(try await sync(server, store).newArticles == 1)
    }

    @Test("a feed unsubscribed on the server goes here too, but is kept while it holds starred articles")
    func feedsGone() async throws {
        let library = ScratchLibrary()
        defer { library.cleanUp() }
        let store = try await library.open()
        let server = await server()
        await server.set("item-4", starred: true)
        _ = try await sync(server, store)
        await server.removeFeed("feed/1")
        await server.removeFeed("feed/2")
        let summary = try await sync(server, store)
        #expect(summary.feeds.removed == 1 && summary.feeds.keptForStarred == 1)
        let left = try await articles(store)
        #expect(left.keys.sorted() == ["two-1"])
    }

    @Test("a local feed at an account feed's address is taken over, keeping its articles and the user's tags")
    func localFeedAdopted() async throws {
        let library = ScratchLibrary()
        defer { library.cleanUp() }
        let store = try await library.open()
        try await store.subscribe(Subscription(url: "https://two.example/feed", tags: ["mine"]))
        _ = try await store.upsertArticles(
            feedURL: "https://two.example/feed",
            items: [ParsedItem(id: "local-guid", title: "fetched by Herald", text: "text")])
        try await store.subscribe(Subscription(url: "https://local.example/feed"))
        let server = await server()
        await server.removeFeed("feed/1")
        await server.addFeed("feed/1", url: "https://one.example/feed", title: "One", categories: ["News", "Daily"])
        let summary = try await sync(server, store)
        #expect(summary.feeds.adopted == 1 && summary.feeds.added == 1)
        let feeds = try await store.feedSummaries()
        #expect(feeds.count == 3)
        #expect(feeds.first { $0.feed.url == "https://two.example/feed" }?.feed.tags == ["mine"])
        #expect(try await articles(store)["fetched by Herald"] != nil)
        // Only the local feed is Herald's to reload.
        #expect(try await store.reloadTargets().map(\.url) == ["https://local.example/feed"])
        // The server's categories change; the user's own tag stays beside them.
        await server.removeFeed("feed/2")
        await server.addFeed("feed/2", url: "https://two.example/feed", title: "Two", categories: ["Tech"])
        _ = try await sync(server, store)
        let two = try await store.feedSummaries().first { $0.feed.url == "https://two.example/feed" }
        #expect(two?.feed.tags.sorted() == ["Tech", "mine"])
    }

    @Test("subscribing and unsubscribing through the account wait in the queue and happen on the server")
    func subscriptionsGoUp() async throws {
        let library = ScratchLibrary()
        defer { library.cleanUp() }
        let store = try await library.open()
        let server = await server()
        _ = try await sync(server, store)
        _ = try await store.subscribeThroughAccount(Subscription(url: "https://new.example/feed"))
        #expect(try await store.unsubscribeThroughAccount(url: "https://two.example/feed"))
        #expect(try await store.unsubscribeThroughAccount(url: "https://elsewhere.example/feed") == false)
        // Here at once; not fetched by Herald (the server will bring its articles).
        #expect(try await store.feedSummaries().map(\.feed.url).sorted() == [
            "https://new.example/feed", "https://one.example/feed",
        ])
        #expect(try await store.reloadTargets().isEmpty)
        let summary = try await sync(server, store)
        #expect(summary.changesSent == 2)
        #expect(await server.feedList.map(\.url).sorted() == ["https://new.example/feed", "https://one.example/feed"])
        // The feed subscribed here is the server's feed now: one row, under its id.
        #expect(try await store.remoteFeedID(url: "https://new.example/feed") == "feed/102")
        #expect(try await store.feedSummaries().count == 2)
    }

    @Test("a library tied to another account gives that account's feeds back as local feeds, with every article")
    func anotherAccount() async throws {
        let library = ScratchLibrary()
        defer { library.cleanUp() }
        let store = try await library.open()
        #expect(try await store.bindAccount("freshrss a@https://x.example") != nil)
        _ = try await sync(await server(), store)
        #expect(try await store.bindAccount("freshrss a@https://x.example") == nil)
        let released = try await store.bindAccount("ttrss b@https://y.example")
        #expect(released?.releasedFeeds == 2)
        #expect(try await articles(store).count == 5)
        #expect(try await store.reloadTargets().count == 2)
    }

    @Test("the sync folder carries neither the account's feeds nor its articles' flags: the server does")
    func notInTheSyncFolder() async throws {
        let library = ScratchLibrary()
        defer { library.cleanUp() }
        let store = try await library.open()
        try await store.subscribe(Subscription(url: "https://local.example/feed"))
        _ = try await sync(await server(), store)
        let all = try await articles(store)
        _ = try await store.setFlag(.read, true, articleIDs: [try #require(all["one-1"]?.id)])
        let state = try await store.startSyncing(device: "device-a")
        #expect(state.map(\.feedURL) == ["https://local.example/feed", "https://local.example/feed"])
        _ = try await store.setFlag(.starred, true, articleIDs: [try #require(all["one-2"]?.id)])
        #expect(try await store.capturedChanges().isEmpty)
        #expect(try await store.accountOutboxCount() == 2)
    }

    @Test("with a fingerprint of the server's counts, a first sync and a sync with nothing new read no flags")
    func fingerprintSkipsStates() async throws {
        let library = ScratchLibrary()
        defer { library.cleanUp() }
        let store = try await library.open()
        let server = await server()
        await server.useFingerprints()
        await server.set("item-3", read: true)
        _ = try await sync(server, store)
        #expect(await server.statesCalls == 0)
        #expect(try await articles(store)["one-3"]?.isRead == true)
        _ = try await sync(server, store)
        #expect(await server.statesCalls == 0)
        // The server changes: its counts with it, and the flags come down.
        await server.set("item-1", read: true)
        _ = try await sync(server, store)
        #expect(await server.statesCalls == 1)
        #expect(try await articles(store)["one-1"]?.isRead == true)
        // A change of ours waiting: the flags are read, to send it against them.
        _ = try await store.setFlag(.starred, true, articleIDs: [try #require(try await articles(store)["two-1"]?.id)])
        _ = try await sync(server, store)
        #expect(await server.statesCalls == 2)
        #expect(await server.starred == ["item-4"])
    }

    @Test("a subscription the server cannot take now waits without stopping the sync; one it refuses leaves the queue")
    func refusedSubscription() async throws {
        let library = ScratchLibrary()
        defer { library.cleanUp() }
        let store = try await library.open()
        let server = await server()
        _ = try await sync(server, store)
        _ = try await store.subscribeThroughAccount(Subscription(url: "https://broken.example/feed"))
        _ = try await store.setFlag(.read, true, articleIDs: [try #require(try await articles(store)["one-1"]?.id)])
        await server.setSubscribeFailure(.badResponse("an answer not understood"))
        let waiting = try await sync(server, store)
        #expect(waiting.refused.count == 1 && waiting.refused[0].contains("waits"))
        // The flag went up all the same; the subscription is still queued.
        #expect(await server.unread.contains("item-1") == false)
        #expect(try await store.accountOutboxCount() == 1)
        await server.setSubscribeFailure(.refused("the server did not subscribe to https://broken.example/feed"))
        let refused = try await sync(server, store)
        #expect(refused.refused.count == 1 && !refused.refused[0].contains("waits"))
        #expect(try await store.accountOutboxCount() == 0)
        // The feed stays, now Herald's own to read.
        #expect(try await store.reloadTargets().map(\.url) == ["https://broken.example/feed"])
    }
}
