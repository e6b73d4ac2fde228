import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

/// A reload stores its new articles without their search entries; the indexer adds them
/// later (`DeferredIndexing.swift`). Searches find them all along, and nothing that removes
/// or changes an article touches entries that were never written.
@Suite("Deferred search indexing")
struct DeferredIndexingTests {
    let feed = "https://a.example/feed"

    func store(_ library: TemporaryLibrary) async throws -> LibraryStore {
        try await library.open(withFeed: feed)
    }

    /// Stores items as a reload does (prepared against what is stored, in a batch).
    func reload(_ store: LibraryStore, _ items: [ParsedItem]) async throws {
        let known = try await store.knownArticles(feedURL: feed, guids: items.map(\.id))
        let fetched = FetchedFeed(
            url: feed, items: LibraryStore.prepare(items, known: known), etag: nil, lastModified: nil,
            title: nil, siteURL: nil)
        for result in try await store.storeFetched([fetched], at: Date()) { _ = try result.get() }
    }

    /// How many articles the word index holds `term` for (its vocabulary counts entries).
    func indexed(_ store: LibraryStore, _ term: String) async throws -> Int64 {
        try await store.integer("SELECT coalesce(sum(doc), 0) FROM articles_vocab WHERE term = '\(term)'")
    }

    func expectValidIndexes(_ store: LibraryStore) async throws {
        for table in ["articles_fts", "articles_cjk", "articles_fields"] {
            try await store.execute("INSERT INTO \(table)(\(table)) VALUES ('integrity-check')")
        }
        #expect(try await store.integrityCheck() == "ok")
    }

    @Test("articles a reload stored are found by search and queries before and after the indexer ran")
    func foundBeforeAndAfter() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await store(library)
        try await store.upsertArticles(feedURL: feed, items: [item("0", "Old", "bread")])
        try await reload(store, [item("1", "Harbour", "the harbour at dawn"), item("2", "바다", "부산 바다 풍경")])
        #expect(try await store.articlesWaitingForIndex() == 2)
        #expect(try await indexed(store, "harbour") == 0)
        var listed: [String] = []
        try await store.forEachArticle(matching: try ArticleQuery.parse("title:harbour")) { page in
            listed += page.map(\.summary.title)
        }
        #expect(listed == ["Harbour"])
        #expect(try await store.search("바다", limit: 5).map(\.article.title) == ["바다"])
        #expect(try await store.articlesWaitingForIndex() == 0)

        try await reload(store, [item("3", "Lighthouse", "a lighthouse keeper")])
        #expect(try await store.articlesWaitingForIndex() == 1)
        try await store.runSearchIndexer { _ in }
        #expect(try await store.articlesWaitingForIndex() == 0)
        #expect(try await indexed(store, "lighthouse") == 1)
        #expect(try await store.search("lighthouse", limit: 5).map(\.article.title) == ["Lighthouse"])
        #expect(try await store.search("bread", limit: 5).map(\.article.title) == ["Old"])
        try await expectValidIndexes(store)
    }

    @Test("indexing stopped after a batch leaves the marker where the batch ended; the next run completes it")
    func resumesAfterAKill() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await store(library)
        try await reload(store, (1...5).map { item("\($0)", "Note \($0)", "zeppelin number \($0)") })
        #expect(try await store.indexWaitingArticles(limit: 2) == 2)
        // As if killed here: the library opened again sees what the batch committed.
        let reopened = try await LibraryStore.open(path: library.path)
        #expect(try await reopened.articlesWaitingForIndex() == 3)
        #expect(try await indexed(reopened, "zeppelin") == 2)
        let firstTwo = try await reopened.integer("SELECT id FROM articles ORDER BY id LIMIT 1 OFFSET 1")
        #expect(
            try await reopened.integer("SELECT value FROM meta WHERE key = 'search.indexed-through'")
                == firstTwo)
        #expect(try await reopened.catchUpSearchIndex() == 3)
        #expect(try await indexed(reopened, "zeppelin") == 5)
        #expect(
            try await reopened.integer("SELECT count(*) FROM meta WHERE key = 'search.indexed-through'") == 0)
        #expect(try await reopened.search("zeppelin", limit: 10).count == 5)
        try await expectValidIndexes(reopened)
    }

    @Test("retention, changes and unsubscribing touch no entry of an article still waiting for the index")
    func waitingArticlesLeaveTheIndexValid() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await store(library)
        try await store.upsertArticles(feedURL: feed, items: [item("0", "Kept", "garden", day: 100)])
        try await reload(
            store,
            [
                item("1", "Gone", "zeppelin over the 바다", day: 0),
                item("2", "Changed", "walrus", author: "Kim", day: 100),
            ])
        // The old one goes while it waits; the other changes while it waits.
        let now = Date(timeIntervalSince1970: 1_790_000_000 + 100 * 86_400)
        #expect(try await store.applyRetention(keepDays: 10, keepArticles: nil, now: now) == 1)
        try await reload(store, [item("2", "Changed", "narwhal", author: "Kim", day: 100)])
        try await expectValidIndexes(store)
        try await store.catchUpSearchIndex()
        #expect(try await indexed(store, "zeppelin") == 0)
        #expect(try await indexed(store, "walrus") == 0)
        #expect(try await store.search("narwhal", limit: 5).map(\.article.title) == ["Changed"])
        #expect(try await store.search("garden", limit: 5).map(\.article.title) == ["Kept"])
        try await expectValidIndexes(store)

        try await reload(store, [item("3", "Fresh", "aardvark")])
        #expect(try await store.articlesWaitingForIndex() == 1)
        #expect(try await store.unsubscribe(url: feed))
        #expect(try await indexed(store, "garden") == 0)
        #expect(try await indexed(store, "aardvark") == 0)
        try await expectValidIndexes(store)
    }
}
