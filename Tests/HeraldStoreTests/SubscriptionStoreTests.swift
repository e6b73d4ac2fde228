import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

@Suite("Subscriptions in the library")
struct SubscriptionStoreTests {
    @Test("subscribing stores title, site and tags; subscribing again updates, not duplicates")
    func subscribe() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        let first = Subscription(url: "https://a.example/feed", title: "A", siteURL: "https://a.example/", tags: ["tech", "open source"])
        #expect(try await store.subscribe(first))
        #expect(try await store.subscribe(Subscription(url: "https://b.example/feed")))
        #expect(try await store.subscriptions() == [first, Subscription(url: "https://b.example/feed", title: "https://b.example/feed")])
        var changed = first
        changed.tags = ["news"]
        #expect(try await store.subscribe(changed) == false)
        #expect(try await store.subscriptions().first?.tags == ["news"])
        #expect(try await store.feedSummaries().count == 2)
    }

    @Test("unsubscribing removes the feed, its articles and their search entries")
    func unsubscribe() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        for url in ["a", "b"] {
            try await store.subscribe(Subscription(url: url, title: url.uppercased()))
            try await store.upsertArticles(feedURL: url, items: [item("\(url)1", "Heron \(url)", "서울역 東京駅")])
        }
        #expect(try await store.search("heron", limit: 10).count == 2)
        #expect(try await store.unsubscribe(url: "a"))
        #expect(try await store.unsubscribe(url: "a") == false)
        #expect(try await store.subscriptions().map(\.url) == ["b"])
        #expect(try await store.search("heron", limit: 10).map(\.article.feedID) == ["b"])
        #expect(try await store.search("東京", limit: 10).count == 1)
        #expect(try await store.integer("SELECT count(*) FROM articles") == 1)
        #expect(try await store.integrityCheck() == "ok")
        try await store.execute("INSERT INTO articles_fts(articles_fts) VALUES ('integrity-check')")
        _ = try await store.unsubscribe(url: "b")
        #expect(await store.isEmpty)
        #expect(await store.isNew == false, "an emptied library is not a new one: no demo feeds again")
    }
}
