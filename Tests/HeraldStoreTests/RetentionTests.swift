import Foundation
import HeraldCore
import HeraldTestSupport
import Testing

@testable import HeraldStore

/// Retention keeps the library from growing without bound: by age, by count per feed,
/// starred articles never, and what it removed does not come back with the next reload.
@Suite("Retention")
struct RetentionTests {
    let feed = "https://a.example/feed"
    // Items are dated 1_790_000_000 + day × 86,400.
    let now = Date(timeIntervalSince1970: 1_790_000_000 + 10 * 86_400)

    func library() async throws -> (TemporaryLibrary, LibraryStore) {
        let library = try TemporaryLibrary()
        let store = try await LibraryStore.open(path: library.path)
        try await store.upsertFeed(url: feed, title: "A", siteURL: nil)
        let items = (0..<10).map { item("g\($0)", "Title \($0)", "word\($0) common", day: $0) }
        try await store.upsertArticles(feedURL: feed, items: items)
        return (library, store)
    }

    func titles(_ store: LibraryStore) async throws -> [String] {
        try await store.articles(in: .feed(FeedID(feed)), page: .first(limit: 100)).map(\.title)
    }

    @Test("by age: older articles go with their search entries, starred ones stay")
    func byAge() async throws {
        let (library, store) = try await library()
        defer { library.cleanUp() }
        let starred = try #require(
            try await store.articles(in: .feed(FeedID(feed)), page: .first(limit: 100)).first {
                $0.title == "Title 1"
            })
        try await store.setStarred(true, articleID: starred.id)
        // Days 0–6 are older than 3 days before day 10.
        let removed = try await store.applyRetention(keepDays: 3, keepArticles: nil, now: now)
        #expect(removed == 6)
        #expect(Set(try await titles(store)) == ["Title 1", "Title 7", "Title 8", "Title 9"])
        #expect(
            try await store.search("word2", limit: 5).isEmpty,
            "a removed article's words are gone from the index")
        #expect(try await store.search("common", limit: 20).count == 4)
        #expect(try await store.integrityCheck() == "ok")
    }

    @Test("by count: a feed keeps its newest N, and a reload does not bring the rest back")
    func byCountAndNoComeback() async throws {
        let (library, store) = try await library()
        defer { library.cleanUp() }
        #expect(try await store.applyRetention(keepDays: nil, keepArticles: 4, now: now) == 6)
        #expect(try await titles(store) == ["Title 9", "Title 8", "Title 7", "Title 6"])
        // The feed still lists all ten: the removed six stay removed, a new one is added.
        let items = (0..<11).map { item("g\($0)", "Title \($0)", "word\($0) common", day: $0) }
        let added = try await store.upsertArticles(feedURL: feed, items: items)
        #expect(added == 1)
        #expect(try await titles(store).count == 5)
        #expect(try await store.feedSummaries().first?.total == 5, "the counts follow")
    }

    @Test("no limits, no removal")
    func noLimits() async throws {
        let (library, store) = try await library()
        defer { library.cleanUp() }
        #expect(try await store.applyRetention(keepDays: 0, keepArticles: 0, now: now) == 0)
        #expect(try await titles(store).count == 10)
    }
}

/// `herald reload` with `keep-articles` once failed now and then with "cannot VACUUM - SQL
/// statements in progress": retention left a statement mid-rows, and the compaction after
/// it was an error for the user. Compaction never fails a reload.
@Suite("Compaction after retention")
@DatabaseActor
struct CompactionAfterRetentionTests {
    @Test("retention leaves no statement in progress, and the compaction after it succeeds")
    func compactsAfterRetention() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try LibraryStore.open(path: library.path)
        let feed = "https://a.example/feed"
        try store.upsertFeed(url: feed, title: "A", siteURL: nil)
        let items = (0..<400).map { item("g\($0)", "Title \($0)", ProseText.words(seed: $0), day: $0) }
        try store.upsertArticles(feedURL: feed, items: items)
        try await store.runSearchIndexer(batch: 500, parts: 1)
        let before = try store.db.integer("PRAGMA page_count")
        let removed = try store.applyRetention(
            keepDays: nil, keepArticles: 30, now: Date(timeIntervalSince1970: 1_790_000_000 + 500 * 86_400))
        #expect(removed == 370)
        #expect(store.db.busyStatements == 0)
        #expect(try store.compactIfMostlyFree())
        let after = try store.db.integer("PRAGMA page_count")
        #expect(after * 3 < before * 2, "\(before) pages before, \(after) after")
        #expect(try store.integrityCheck() == "ok")
    }

    @Test("a statement left in progress, or another program writing, skips compaction: never an error")
    func compactionNeverFails() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try LibraryStore.open(path: library.path)
        let feed = "https://a.example/feed"
        try store.upsertFeed(url: feed, title: "A", siteURL: nil)
        try store.upsertArticles(
            feedURL: feed, items: (0..<400).map { item("g\($0)", "T\($0)", ProseText.words(seed: $0), day: $0) })
        try await store.runSearchIndexer(batch: 500, parts: 1)
        try store.applyRetention(
            keepDays: nil, keepArticles: 30, now: Date(timeIntervalSince1970: 1_790_000_000 + 500 * 86_400))
        let free = try store.db.integer("PRAGMA freelist_count")
        try #require(free * 4 >= (try store.db.integer("PRAGMA page_count")), "a quarter of the file is free")
        // A statement of this connection mid-rows, and another connection writing (a reader
        // marking an article read): compaction waits its busy time, then is skipped.
        let pending = try store.db.prepare("SELECT id FROM articles")
        #expect(try pending.step())
        let other = try SQLiteConnection(path: library.path)
        try other.execute("PRAGMA busy_timeout = 0; BEGIN IMMEDIATE; UPDATE articles SET read = 1;")
        try store.db.execute("PRAGMA busy_timeout = 100")
        #expect(try store.compactIfMostlyFree() == false)
        try other.execute("COMMIT")
        #expect(try store.integrityCheck() == "ok")
        // Nothing else writing: it compacts now.
        #expect(try store.compactIfMostlyFree())
    }
}
