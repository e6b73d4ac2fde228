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
}
