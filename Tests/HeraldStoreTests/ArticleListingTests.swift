import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

@Suite("Walking the library for herald list")
struct ArticleListingTests {
    /// Three feeds of 30 articles each, days interleaved (feed f<i> has days i, i+3, …):
    /// f0 and f1 tagged `birds`, every fifth article starred, every other one read.
    func library() async throws -> (TemporaryLibrary, LibraryStore) {
        let library = try TemporaryLibrary()
        let store = try await LibraryStore.open(path: library.path)
        for feed in 0..<3 {
            try await store.subscribe(Subscription(url: "f\(feed)", tags: feed < 2 ? ["birds"] : ["fish"]))
            try await store.upsertArticles(
                feedURL: "f\(feed)",
                items: (0..<30).map { item("\(feed)-\($0)", "F\(feed) #\($0)", day: $0 * 3 + feed) })
        }
        try await store.execute("UPDATE articles SET starred = 1 WHERE id % 5 = 0")
        try await store.execute("UPDATE articles SET read = 1 WHERE id % 2 = 0")
        return (library, store)
    }

    func walk(_ store: LibraryStore, _ filter: ArticleFilter, limit: Int? = nil) async throws
        -> [ArticleListing]
    {
        var rows: [ArticleListing] = []
        var pages = 0
        try await store.forEachArticle(matching: filter, limit: limit, pageSize: 7) { page in
            #expect(page.count <= 7)
            pages += 1
            rows += page
        }
        return rows
    }

    /// What a filter should give, worked out from every row (the reference).
    func expected(_ store: LibraryStore, feeds: Set<String>, starred: Bool, unread: Bool) async throws
        -> [String]
    {
        let urls = try await store.feedURLsByID()
        return try await store.articles(in: .all, page: .first(limit: 1000))
            .filter { feeds.contains(urls[$0.feedID] ?? "") && (!starred || $0.isStarred) && (!unread || !$0.isRead) }
            .map(\.id)
    }

    @Test("filters combine: a tag, starred and unread, in list order across keyset pages")
    func filtersCombine() async throws {
        let (library, store) = try await library()
        defer { library.cleanUp() }
        let all: Set = ["f0", "f1", "f2"]
        #expect(try await walk(store, ArticleFilter()).count == 90)
        let cases: [(ArticleFilter, Set<String>)] = [
            (ArticleFilter(tag: "birds"), ["f0", "f1"]),
            (ArticleFilter(tag: "birds", starredOnly: true), ["f0", "f1"]),
            (ArticleFilter(tag: "fish", unreadOnly: true), ["f2"]),
            (ArticleFilter(starredOnly: true, unreadOnly: true), all),
            (ArticleFilter(feed: "f1", tag: "birds", unreadOnly: true), ["f1"]),
            (ArticleFilter(feed: "f2", tag: "birds"), []),
        ]
        for (filter, feeds) in cases {
            let rows = try await walk(store, filter).map(\.summary.id)
            let reference = try await expected(
                store, feeds: feeds, starred: filter.starredOnly, unread: filter.unreadOnly)
            #expect(rows == reference, "\(filter)")
        }
        #expect(try await walk(store, ArticleFilter(tag: "birds")).count == 60)
        #expect(try await walk(store, ArticleFilter(tag: "nobody")).isEmpty)
        #expect(await store.busyStatements == 0)
    }

    @Test("--limit stops after N rows, inside a page or on its edge")
    func limit() async throws {
        let (library, store) = try await library()
        defer { library.cleanUp() }
        let reference = try await expected(store, feeds: ["f0", "f1"], starred: false, unread: false)
        for limit in [1, 6, 7, 8, 14, 59, 60, 61, 500] {
            let rows = try await walk(store, ArticleFilter(tag: "birds"), limit: limit).map(\.summary.id)
            #expect(rows == Array(reference.prefix(limit)), "limit \(limit)")
        }
    }

    @Test("each row carries its link and its enclosures")
    func linkAndEnclosures() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        try await store.subscribe(Subscription(url: "f"))
        var podcast = item("p", "Episode", day: 2)
        podcast.enclosures = [
            Enclosure(url: "https://example.org/e.mp3", type: "audio/mpeg", length: 1000, duration: 61)
        ]
        var plain = item("q", "Plain", day: 1)
        plain.link = nil
        try await store.upsertArticles(feedURL: "f", items: [podcast, plain])
        let rows = try await walk(store, ArticleFilter(feed: "f"))
        #expect(rows.map(\.link) == ["https://example.org/p", nil])
        #expect(rows.map(\.enclosures) == [podcast.enclosures, []])
        await #expect(throws: RepositoryError.noSuchFeed("nowhere")) {
            try await store.forEachArticle(matching: ArticleFilter(feed: "nowhere")) { _ in }
        }
    }
}
