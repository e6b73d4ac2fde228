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
