import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

/// `LibraryStore.importArticles`: another reader's articles with their state, one
/// transaction per feed, and the rule for articles Herald already has.
@Suite("importing another reader's articles")
struct NewsboatImportStoreTests {
    static let feed = "https://a.example/feed"

    func imported(_ id: String, read: Bool = false, starred: Bool = false, text: String = "body")
        -> ImportedArticle
    {
        ImportedArticle(item: item(id, "Title \(id)", text), isRead: read, isStarred: starred)
    }

    @Test("articles come in with their state, searchable; importing them again changes nothing")
    func idempotent() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        try await store.subscribe(Subscription(url: Self.feed))
        let articles = [
            imported("1", read: true), imported("2", starred: true), imported("3", text: "heron"),
        ]
        let first = try await store.importArticles(feedURL: Self.feed, articles: articles)
        #expect(
            first
                == {
                    var counts = ImportCounts()
                    (counts.added, counts.markedRead, counts.starred) = (3, 1, 1)
                    return counts
                }())
        let second = try await store.importArticles(feedURL: Self.feed, articles: articles)
        #expect(second == ImportCounts())
        #expect(try await store.integer("SELECT count(*) FROM articles") == 3)
        #expect(try await store.integer("SELECT count(*) FROM articles WHERE read = 1") == 1)
        #expect(try await store.integer("SELECT count(*) FROM articles WHERE starred = 1") == 1)
        #expect(try await store.integer("SELECT unread_count FROM feeds") == 2, "the feed's counts follow")
        let found = try await store.search("heron", limit: 10)
        #expect(found.map(\.article.title) == ["Title 3"])
    }

    @Test("an article Herald has keeps its state unless the import says read or starred")
    func keepsHeraldState() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        try await store.subscribe(Subscription(url: Self.feed))
        try await store.upsertArticles(
            feedURL: Self.feed, items: [item("1", "Title 1", "body"), item("2", "Title 2", "body")])
        let ids = try await store.integer("SELECT min(id) FROM articles")
        try await store.setRead(true, articleID: String(ids))
        try await store.setStarred(true, articleID: String(ids))
        let counts = try await store.importArticles(
            feedURL: Self.feed, articles: [imported("1"), imported("2", read: true, starred: true)])
        #expect(counts.added == 0 && counts.markedRead == 1 && counts.starred == 1)
        #expect(try await store.integer("SELECT count(*) FROM articles WHERE read = 1 AND starred = 1") == 2)
    }

    @Test("a feed that is not in the library is refused and nothing is written")
    func unknownFeed() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        await #expect(throws: RepositoryError.self) {
            try await store.importArticles(feedURL: "https://nowhere.example/feed", articles: [imported("1")])
        }
        #expect(try await store.integer("SELECT count(*) FROM articles") == 0)
    }

    @Test("importFeed subscribes and imports together; a second time it changes nothing")
    func importFeed() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        let subscription = Subscription(url: Self.feed, title: "A", tags: ["news"])
        let first = try await store.importFeed(
            subscription, articles: [imported("1", read: true), imported("2")])
        #expect(first.subscribed == .new && first.counts.added == 2 && first.counts.markedRead == 1)
        let again = try await store.importFeed(
            subscription, articles: [imported("1", read: true), imported("2")])
        #expect(again.subscribed == .unchanged && again.counts == ImportCounts())
        #expect(try await store.integer("SELECT unread_count FROM feeds WHERE url = '\(Self.feed)'") == 1)
    }
}
