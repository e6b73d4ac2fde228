import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

@Suite("Library store")
struct LibraryStoreTests {
    @Test("a new library has the latest schema, WAL, foreign keys, 16 KB pages and no memory map")
    func freshLibrary() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        #expect(await store.schemaVersion == Migrations.latest)
        #expect(try await store.integer("PRAGMA foreign_keys") == 1)
        #expect(try await store.integer("PRAGMA page_size") == LibraryStore.pageSize)
        // A map's pages would count as the process's memory.
        #expect(try await store.integer("PRAGMA mmap_size") == 0)
        #expect(try await store.integrityCheck() == "ok")
        #expect(FileManager.default.fileExists(atPath: library.path + "-wal"))
        #expect(await store.isEmpty)
        #expect(await store.isNew)
        // 8 MiB of pages for the reader; a command that only writes asks for less.
        #expect(try await store.integer("PRAGMA cache_size") == -8192)
        try await store.setCacheSize(kibibytes: 2048)
        #expect(try await store.integer("PRAGMA cache_size") == -2048)
    }

    @Test("upserts keep read and starred flags, update text, and count new articles only")
    func upsertKeepsFlags() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        try await store.upsertFeed(url: "https://a.example/feed", title: "A", siteURL: nil)
        let added = try await store.upsertArticles(
            feedURL: "https://a.example/feed", items: [item("1", "One", day: 1), item("2", "Two", day: 2)])
        #expect(added == 2)
        let rows = try await store.articles(inFeed: "https://a.example/feed", page: .first(limit: 10))
        #expect(rows.map(\.title) == ["Two", "One"])
        try await store.setRead(true, articleID: rows[1].id)
        try await store.setStarred(true, articleID: rows[1].id)
        let again = try await store.upsertArticles(
            feedURL: "https://a.example/feed",
            items: [
                item("1", "One, corrected", "new body", day: 1), item("2", "Two", day: 2),
                item("3", "Three", day: 3),
            ])
        #expect(again == 1)
        let article = try await store.article(id: rows[1].id)
        #expect(article.summary.title == "One, corrected" && article.text == "new body")
        #expect(article.summary.isRead && article.summary.isStarred)
        let feeds = try await store.feedSummaries()
        #expect(feeds.map { [$0.total, $0.unread] } == [[3, 2]])
    }

    @Test("counts follow read flags, feed-read and all-read")
    func counts() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        for feed in ["a", "b"] {
            try await store.upsertFeed(url: feed, title: feed.uppercased(), siteURL: nil)
            try await store.upsertArticles(
                feedURL: feed, items: (0..<5).map { item("\(feed)\($0)", "T\($0)", day: $0) })
        }
        try await store.markFeedRead("a")
        #expect(try await store.feedSummaries().map(\.unread) == [0, 5])
        let first = try await store.articles(inFeed: "a", page: .first(limit: 1))[0]
        try await store.setRead(false, articleID: first.id)
        #expect(try await store.feedSummaries().map(\.unread) == [1, 5])
        try await store.markAllRead()
        #expect(try await store.feedSummaries().map(\.unread) == [0, 0])
        #expect(try await store.feedSummaries().map(\.total) == [5, 5])
    }

    @Test("an unknown article or feed is a clear error")
    func unknown() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        await #expect(throws: RepositoryError.noSuchArticle("42")) { try await store.article(id: "42") }
        await #expect(throws: RepositoryError.noSuchFeed("nope")) {
            try await store.articles(inFeed: "nope", page: .first(limit: 1))
        }
    }

    @Test("read flags and stars survive closing and reopening the file")
    func persistence() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        var id = ""
        do {
            let store = try await LibraryStore.open(path: library.path)
            try await store.upsertFeed(url: "f", title: "F", siteURL: nil)
            try await store.upsertArticles(feedURL: "f", items: [item("1", "One")])
            id = try await store.articles(inFeed: "f", page: .first(limit: 1))[0].id
            try await store.setRead(true, articleID: id)
            try await store.setStarred(true, articleID: id)
        }
        let reopened = try await LibraryStore.open(path: library.path)
        let summary = try await reopened.article(id: id).summary
        #expect(summary.isRead && summary.isStarred)
    }
}

@Suite("Library store transactions")
struct LibraryStoreTransactionTests {
    @Test("no statement is left mid-rows after any call, so no read transaction stays open")
    func noBusyStatements() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        try await store.upsertFeed(url: "f", title: "F", siteURL: nil)
        try await store.upsertArticles(
            feedURL: "f", items: (0..<50).map { item("\($0)", "Title \($0)", day: $0) })
        try await store.upsertArticles(feedURL: "f", items: [item("1", "Changed")])
        let first = try await store.articles(inFeed: "f", page: .first(limit: 5))
        _ = try await store.article(id: first[0].id)
        _ = try await store.feedSummaries()
        _ = try await store.search("title", limit: 3)
        _ = try await store.integrityCheck()
        _ = await store.isEmpty
        try await store.setRead(true, articleID: first[0].id)
        try await store.forEachArticle(matching: ArticleFilter(feed: "f", unreadOnly: true), pageSize: 7) {
            _ in
        }
        #expect(await store.busyStatements == 0)
    }

    @Test("the WAL is checkpointed and reused: many write transactions keep it small")
    func walStaysSmall() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        try await store.upsertFeed(url: "f", title: "F", siteURL: nil)
        let body = String(repeating: "words of a long article body ", count: 300)  // ~8.7 KB
        for batch in 0..<25 {
            _ = try await store.feedSummaries()
            let first = try await store.articles(inFeed: "f", page: .first(limit: 1)).first
            if let first { _ = try await store.article(id: first.id) }
            try await store.upsertArticles(
                feedURL: "f", items: (0..<100).map { item("\(batch)-\($0)", "T", body, day: $0) })
        }
        let wal = try FileManager.default.attributesOfItem(atPath: library.path + "-wal")[.size] as? Int ?? 0
        #expect(wal < 16_000_000, "25 batches of ~0.9 MB should not pile up in the WAL (\(wal) bytes)")
    }
}
