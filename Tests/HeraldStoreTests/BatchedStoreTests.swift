import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

/// A reload prepares items off the database's thread and stores several feeds in one
/// transaction.
@Suite("Storing prepared feeds in batches")
struct BatchedStoreTests {
    let feeds = ["https://a.example/feed", "https://b.example/feed"]

    func store(_ library: TemporaryLibrary) async throws -> LibraryStore {
        let store = try await LibraryStore.open(path: library.path)
        for url in feeds { try await store.upsertFeed(url: url, title: url, siteURL: nil) }
        return store
    }

    func fetched(_ url: String, _ items: [ParsedItem], known: KnownArticles) -> FetchedFeed {
        FetchedFeed(
            url: url, items: LibraryStore.prepare(items, known: known), etag: "\"e\"", lastModified: nil,
            title: "Title of \(url)", siteURL: nil)
    }

    @Test("a feed that cannot be stored fails alone; the others in its batch are stored")
    func oneFailsAlone() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await store(library)
        let none = try await store.knownArticles(feedURL: feeds[0], guids: [])
        let batch = [
            fetched(feeds[0], [item("1", "One", "garden")], known: none),
            fetched("https://never.example/subscribed", [item("2", "Two", "river")], known: none),
            fetched(feeds[1], [item("3", "Three", "harbour"), item("4", "Four", "bread")], known: none),
        ]
        let results = try await store.storeFetched(batch, at: Date())
        #expect(try results[0].get() == 1)
        #expect(throws: (any Error).self) { try results[1].get() }
        #expect(try results[2].get() == 2)
        #expect(try await store.search("harbour", limit: 5).map(\.article.title) == ["Three"])
        #expect(try await store.integer("SELECT count(*) FROM articles") == 3)
        // The fetch was recorded for the stored feeds: their titles replaced their URLs.
        let titles = try await store.feedSummaries().map(\.feed.title)
        #expect(titles.contains("Title of \(feeds[1])"))
    }

    @Test("a feed rolled back after some of its rows were written leaves nothing in the search index")
    func rolledBackFeedIsNotIndexed() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await store(library)
        // The feed's second item fails after its first was inserted.
        try await store.execute(
            """
            CREATE TEMP TRIGGER poison BEFORE INSERT ON articles WHEN NEW.title = 'Poison'
            BEGIN SELECT RAISE(ABORT, 'poisoned'); END;
            """)
        let none = try await store.knownArticles(feedURL: feeds[0], guids: [])
        let batch = [
            fetched(feeds[0], [item("1", "Good", "garden"), item("2", "Poison", "river")], known: none),
            fetched(feeds[1], [item("3", "Three", "harbour")], known: none),
        ]
        let results = try await store.storeFetched(batch, at: Date())
        #expect(throws: (any Error).self) { try results[0].get() }
        #expect(try results[1].get() == 1)
        // The next article takes the rolled-back row's id: an entry indexed for that row
        // would make "garden" find it.
        try await store.upsertArticles(feedURL: feeds[1], items: [item("4", "Four", "bread")])
        #expect(try await store.search("garden", limit: 5).isEmpty)
        #expect(try await store.search("bread", limit: 5).map(\.article.title) == ["Four"])
        #expect(try await store.search("harbour", limit: 5).map(\.article.title) == ["Three"])
    }

    @Test("only new and changed items are packed when prepared against what is stored")
    func unchangedItemsAreNotPacked() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await store(library)
        var items = [item("1", "One", "garden text"), item("2", "Two", "river text")]
        try await store.upsertArticles(feedURL: feeds[0], items: items)
        items[1].text = "river text, corrected"
        items.append(item("3", "Three", "harbour"))
        let known = try await store.knownArticles(feedURL: feeds[0], guids: items.map(\.id))
        let prepared = LibraryStore.prepare(items, known: known)
        #expect(prepared.map { $0.body != nil } == [false, true, true])
        let results = try await store.storeFetched(
            [
                FetchedFeed(
                    url: feeds[0], items: prepared, etag: nil, lastModified: nil, title: nil, siteURL: nil)
            ],
            at: Date())
        #expect(try results[0].get() == 1)
        #expect(try await store.search("corrected", limit: 5).map(\.article.title) == ["Two"])
        #expect(try await store.search("harbour", limit: 5).map(\.article.title) == ["Three"])
    }

    @Test("several feeds are looked up at once as each would be alone")
    func severalFeedsLookedUpAtOnce() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await store(library)
        try await store.upsertArticles(feedURL: feeds[0], items: [item("1", "One", "garden")])
        try await store.upsertArticles(feedURL: feeds[1], items: [item("1", "Other one", "river")])
        let guids = ["1", "2"]
        let both = try await store.knownArticles([(feeds[0], guids), (feeds[1], guids), (feeds[0], [])])
        #expect(both.count == 3)
        for (index, url) in feeds.enumerated() {
            let alone = try await store.knownArticles(feedURL: url, guids: guids)
            #expect(both[index].rows == alone.rows)
            #expect(both[index].rows.keys.sorted() == ["1"])
        }
        #expect(both[0].rows["1"]?.title == "One")
        #expect(both[1].rows["1"]?.title == "Other one")
        #expect(both[2].rows.isEmpty)
    }
}
