import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

@Suite("Tag summaries")
struct TagSummaryTests {
    @Test("tags are listed by name with their feed, article and unread counts")
    func tagSummaries() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        #expect(try await store.tagSummaries().isEmpty)
        try await store.subscribe(Subscription(url: "a", tags: ["tech", "News"]))
        try await store.subscribe(Subscription(url: "b", tags: ["tech"]))
        try await store.subscribe(Subscription(url: "c"))
        try await store.upsertArticles(feedURL: "a", items: [item("1", "One"), item("2", "Two")])
        try await store.upsertArticles(feedURL: "b", items: [item("3", "Three")])
        try await store.upsertArticles(feedURL: "c", items: [item("4", "Four")])
        let first = try #require(try await store.articles(inFeed: "a", page: .first(limit: 1)).first)
        try await store.setRead(true, articleID: first.id)
        #expect(
            try await store.tagSummaries() == [
                TagSummary(name: "News", feeds: 1, total: 2, unread: 1),
                TagSummary(name: "tech", feeds: 2, total: 3, unread: 2),
            ])
    }

    @Test("a tag stored twice on one feed counts the feed once")
    func duplicateTag() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        try await store.subscribe(Subscription(url: "a"))
        try await store.upsertArticles(feedURL: "a", items: [item("1", "One")])
        try await store.execute("UPDATE feeds SET tags = 'x' || char(9) || 'x'")
        #expect(try await store.tagSummaries() == [TagSummary(name: "x", feeds: 1, total: 1, unread: 1)])
    }
}
