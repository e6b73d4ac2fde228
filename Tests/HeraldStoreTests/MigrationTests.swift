import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

@Suite("Schema migrations")
struct MigrationTests {
    @Test("a file at the first schema, with data, opens at the current one with search working")
    func fromFirstSchema() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        do {
            let old = try await LibraryStore.open(path: library.path, upTo: 1)
            #expect(await old.schemaVersion == 1)
            try await old.execute(
                """
                INSERT INTO feeds(url, title) VALUES ('https://old.example/feed', 'Old feed');
                INSERT INTO articles(feed_id, guid, title, author, sort_time, text, read, first_seen)
                    VALUES (1, 'g1', 'Café society', 'Zoë', 100, 'An article about 東京タワー.', 1, 100),
                           (1, 'g2', 'Second', NULL, 200, '한국어를 배우는 이야기', 0, 200);
                """)
        }
        let store = try await LibraryStore.open(path: library.path)
        #expect(await store.schemaVersion == Migrations.latest)
        #expect(try await store.feedSummaries().map { [$0.total, $0.unread] } == [[2, 1]])
        #expect(try await store.search("cafe", limit: 10).map(\.article.title) == ["Café society"])
        #expect(try await store.search("タワー", limit: 10).map(\.article.title) == ["Café society"])
        #expect(try await store.search("한국어", limit: 10).map(\.article.title) == ["Second"])
        let rows = try await store.articles(inFeed: "https://old.example/feed", page: .first(limit: 10))
        #expect(rows.map(\.isRead) == [false, true])
        #expect(try await store.integrityCheck() == "ok")
    }

    @Test(
        "a version 5 library's articles become packed bodies, with the same search results, flags and counts")
    func fromVersion5() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let words = ["garden", "river", "Café", "도서관에서", "東京タワー", "harbour", "바다"]
        var rows: [String] = []
        var bodies: [(text: String, html: String?)] = []
        for n in 0..<300 {
            let text = (0..<(5 + n % 40)).map { words[($0 + n) % words.count] }.joined(separator: " ")
            bodies.append((text, n % 3 == 0 ? nil : "<p>\(text)</p>"))
            let html = bodies[n].html.map { "'\($0)'" } ?? "NULL"
            rows.append(
                "(1 + \(n) % 3, 'g\(n)', 'Title \(n) \(words[n % words.count])', \(n % 2 == 0 ? "'Zoë'" : "NULL"), "
                    + "\(1000 + n), '\(text)', \(html), \(n % 5 == 0 ? 1 : 0), \(n % 7 == 0 ? 1 : 0), \(1000 + n))"
            )
        }
        let queries = [
            "garden", "cafe", "riv", "도서관", "도", "タワー", "京", "바다", "\"garden river\"", "title -바다",
        ]
        var before: [String: [String]] = [:]
        // Libraries before schema 6 had SQLite's default 4 KB pages.
        try SQLiteConnection(path: library.path).execute(
            "PRAGMA page_size = 4096; CREATE TABLE t(x); DROP TABLE t;")
        do {
            let old = try await LibraryStore.open(path: library.path, upTo: 1)
            try await old.execute(
                """
                INSERT INTO feeds(url, title) VALUES ('https://a.example/feed', 'A'), ('https://b.example/feed', 'B'),
                    ('https://c.example/feed', 'C');
                INSERT INTO articles(feed_id, guid, title, author, sort_time, text, html, read, starred, first_seen)
                    VALUES \(rows.joined(separator: ",\n"));
                """)
        }
        do {
            let old = try await LibraryStore.open(path: library.path, upTo: 5)
            #expect(await old.schemaVersion == 5)
            for query in queries { before[query] = try await old.search(query, limit: 500).map(\.article.id) }
        }
        let store = try await LibraryStore.open(path: library.path)
        #expect(await store.schemaVersion == Migrations.latest)
        for query in queries {
            let after = try await store.search(query, limit: 500).map(\.article.id)
            #expect(!after.isEmpty, "\(query)")
            #expect(after == before[query], "\(query)")
        }
        for id in [1, 2, 150, 300] {
            let article = try await store.article(id: String(id))
            #expect((article.text, article.html) == bodies[id - 1])
            #expect(article.summary.title.hasPrefix("Title \(id - 1) "))
            #expect(
                (article.summary.isRead, article.summary.isStarred) == ((id - 1) % 5 == 0, (id - 1) % 7 == 0))
        }
        #expect(
            try await store.feedSummaries().map { [$0.total, $0.unread] } == [
                [100, 80], [100, 80], [100, 80],
            ])
        #expect(
            try await store.integer(
                "SELECT count(*) FROM pragma_table_info('articles') WHERE name IN ('text', 'html')") == 0)
        #expect(
            try await store.integer(
                // Sync's capture triggers (migration 10) are not migration 6's business.
                // Nor are the query indexes of migration 11, nor the triggers of migrations 16 and 17.
                "SELECT count(*) FROM sqlite_schema WHERE tbl_name = 'articles' AND type IN ('index', 'trigger') AND name NOT LIKE 'sync%' AND name NOT LIKE 'account%' AND name NOT IN ('articles_read', 'articles_podcast', 'full_articles_gone')"
            ) == 9)
        #expect(try await store.integrityCheck() == "ok")
        // Rewritten once with larger pages, the old table's pages given back, WAL again.
        #expect(try await store.integer("PRAGMA page_size") == LibraryStore.pageSize)
        #expect(try await store.integer("PRAGMA freelist_count") == 0)
        #expect(FileManager.default.fileExists(atPath: library.path + "-wal"))
        // The index entries made before the migration can still be removed: the stored text
        // gives back exactly what was indexed.
        try await store.upsertArticles(
            feedURL: "https://a.example/feed", items: [item("g0", "Renamed", "lantern")])
        #expect(try await store.search("lantern", limit: 10).map(\.article.id) == ["1"])
        #expect(try await store.search("garden", limit: 500).count == before["garden"]!.count - 1)
        try await store.execute("INSERT INTO articles_fts(articles_fts) VALUES ('integrity-check')")
        try await store.execute("INSERT INTO articles_cjk(articles_cjk) VALUES ('integrity-check')")
        let after = try await store.feedSummaries().map { [$0.total, $0.unread] }
        #expect(after == [[100, 80], [100, 80], [100, 80]])
    }

    @Test("a version 12 library keeps its articles, flags, counts, search and marks, and can hide articles")
    func fromVersion12() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let feed = "https://a.example/feed"
        func rows(_ store: LibraryStore) async throws -> [String] {
            try await store.articles(in: .all, page: .first(limit: 100)).map {
                "\($0.id) \($0.title) \($0.isRead) \($0.isStarred)"
            }
        }
        let before: (rows: [String], counts: [[Int]], found: [String], removed: Int64, meta: Int64)
        do {
            let old = try await LibraryStore.open(path: library.path, upTo: 12)
            try await old.upsertFeed(url: feed, title: "A", siteURL: nil)
            try await old.upsertArticles(
                feedURL: feed, items: (0..<6).map { item("g\($0)", "Title \($0)", "garden \($0)", day: $0) })
            try await old.setRead(true, articleID: "2")
            try await old.setStarred(true, articleID: "3")
            try await old.execute(
                "INSERT INTO removed(feed_id, guid, removed_at) VALUES (1, 'gone', 1790000000)")
            try await old.deferSearchIndexing()
            before = (
                try await rows(old), try await old.feedSummaries().map { [$0.total, $0.unread] },
                try await old.search("garden", limit: 10).map(\.article.id),
                try await old.integer("SELECT count(*) FROM removed"),
                try await old.integer("SELECT count(*) FROM meta")
            )
        }
        let store = try await LibraryStore.open(path: library.path)
        #expect(await store.schemaVersion == Migrations.latest)
        #expect(try await rows(store) == before.rows)
        #expect(before.rows.count == 6)
        #expect(try await store.feedSummaries().map { [$0.total, $0.unread] } == before.counts)
        #expect(try await store.search("garden", limit: 10).map(\.article.id) == before.found)
        #expect(try await store.integer("SELECT count(*) FROM removed") == before.removed)
        #expect(try await store.integer("SELECT count(*) FROM meta") == before.meta)
        #expect(try await store.integer("SELECT count(*) FROM hidden_articles") == 0)
        #expect(try await store.integrityCheck() == "ok")
        try await store.setReloadFilters([
            QueryFilter(
                query: try ArticleQuery.parse("title:5"), action: try #require(FilterAction(rawValue: "hide"))
            )
        ])
        #expect(try await store.integer("SELECT count(*) FROM hidden_articles") == 1)
    }

    @Test("a file from a newer Herald is refused with a message that says what to do")
    func newerFileRefused() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        do {
            let store = try await LibraryStore.open(path: library.path)
            try await store.execute("PRAGMA user_version = \(Migrations.latest + 1)")
        }
        do {
            _ = try await LibraryStore.open(path: library.path)
            Issue.record("a newer file was opened")
        } catch let error as StoreError {
            #expect(error.description.contains("newer Herald"))
            #expect(error.description.contains("--db"))
        }
    }

    @Test("a file that is not a database is an error, not a crash")
    func notADatabase() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: library.path))
        await #expect(throws: SQLiteError.self) { _ = try await LibraryStore.open(path: library.path) }
    }
}
