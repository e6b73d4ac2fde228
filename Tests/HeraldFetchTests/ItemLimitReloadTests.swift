import Foundation
import HeraldCore
import HeraldStore
import HeraldTestSupport
import Testing

@testable import HeraldReload

/// A feed with more items than `InputLimits.itemsPerFeed`, reloaded from a real HTTP server.
@Suite("Reloading a feed with too many items", .serialized)
struct ItemLimitReloadTests {
    @Test(
        "the library keeps the newest items up to the limit, the reload says why, and the same document again adds nothing"
    )
    func tooManyItems() async throws {
        let limit = InputLimits.itemsPerFeed
        let server = try FixtureServer()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-items-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await LibraryStore.open(path: directory.appendingPathComponent("h.db").path)
        // Newest first, as feeds list them, and served without validators: each reload
        // fetches and parses the whole document again.
        let url = server.url("/many/\(limit + 5)").absoluteString
        try await store.subscribe(Subscription(url: url, title: "Many"))
        let reloader = Reloader(store: store)

        let first = try await reloader.reload()
        #expect(first.failures.isEmpty)
        #expect(first.newArticles == limit)
        #expect(
            first.readWithErrors == [
                ReloadFailure(
                    url: url, title: "Many",
                    reason:
                        "read with errors: more than \(limit) items: the first \(limit) were read, the rest left out"
                )
            ])
        let stored = try await store.articles(in: .feed(FeedID(url)), page: .first(limit: limit + 100))
        #expect(stored.count == limit)
        // The newest are kept: "Item 0" to "Item 9999", the older five are not.
        #expect(stored.first?.title == "Item 0")
        #expect(stored.last?.title == "Item \(limit - 1)")
        #expect(Set(stored.map(\.title)) == Set((0..<limit).map { "Item \($0)" }))
        let summary = try #require(try await store.feedSummaries().first)
        #expect(summary.total == limit && summary.feed.lastError == nil && summary.feed.title == "Many")

        let second = try await reloader.reload()
        #expect(second.failures.isEmpty && second.notModified == 0)
        #expect(second.newArticles == 0)
        #expect(second.readWithErrors.map(\.url) == [url])
        #expect(try await store.articles(in: .feed(FeedID(url)), page: .first(limit: limit + 100)).count == limit)
    }
}
