import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

/// Migration 11: the read and podcast indexes, the trigram index of titles and authors and
/// the word index's instances, on a library written at version 10.
@Suite("Query indexes migration")
struct QueryMigrationTests {
    /// Turns a library at the latest schema back into what version 10 wrote: the same tables
    /// and word indexes, without migration 11's (nor 12's to 17's).
    static let downgrade = """
        DROP TRIGGER account_capture_read;
        DROP TRIGGER account_capture_star;
        DROP TABLE account_outbox;
        DROP TRIGGER sync_capture_read;
        DROP TRIGGER sync_capture_star;
        DROP INDEX feeds_remote;
        ALTER TABLE feeds DROP COLUMN remote_id;
        ALTER TABLE feeds DROP COLUMN remote_tags;
        \(SyncMigration.flagTriggers)
        DROP TRIGGER full_articles_gone;
        DROP TABLE full_instances;
        DROP TABLE full_fts;
        DROP TABLE full_articles;
        DROP TABLE downloads;
        DROP INDEX feeds_position;
        DROP TABLE hidden_articles;
        DROP INDEX sync_state_feeds;
        DROP INDEX articles_read;
        DROP INDEX articles_podcast;
        DROP TABLE articles_fields;
        DROP TABLE articles_instances;
        PRAGMA user_version = 10;
        """

    @Test(
        "a version 10 library gains the query indexes, and title:, author:, read and podcast find what they did"
    )
    func fromVersion10() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let words = ["garden", "river", "Café", "도서관", "東京タワー", "harbour"]
        let queries = [
            "title:garden", "title:/^title 1[0-9] /", "author:zoë", "author:/^ann/", "title:tower", "read",
            "podcast", "-podcast read", "title:東京タ", "garden -river", "gard",
        ]
        var before: [String: [String]] = [:]
        do {
            let store = try await LibraryStore.open(path: library.path)
            for feed in 0..<3 {
                try await store.subscribe(
                    Subscription(url: "https://\(feed).example/feed", title: "Feed \(feed)"))
            }
            for n in 0..<240 {
                var entry = item(
                    "g\(n)", "Title \(n) \(words[n % words.count])", words[(n + 1) % words.count],
                    author: n % 2 == 0 ? "Zoë Dupont" : "Ann Lee", day: n)
                if n % 9 == 0 {
                    entry.enclosures = [Enclosure(url: "https://x.example/\(n).mp3", type: "audio/mpeg")]
                }
                try await store.upsertArticles(feedURL: "https://\(n % 3).example/feed", items: [entry])
            }
            for row in try await store.articles(in: .all, page: .first(limit: 240))
            where (Int(row.id) ?? 0) % 4 == 0 {
                try await store.setRead(true, articleID: row.id)
            }
            for text in queries {
                before[text] = try await store.articles(
                    matching: ArticleQuery.parse(text, typing: text == "gard"), limit: 500
                ).map(\.id)
            }
            try await store.execute(Self.downgrade)
            #expect(await store.schemaVersion == 10)
        }
        let heard = Heard()
        let store = try await LibraryStore.open(path: library.path) { from, to in heard.add(from, to) }
        #expect(heard.calls == [[10, Migrations.latest]])
        #expect(await store.schemaVersion == Migrations.latest)
        for text in queries {
            let after = try await store.articles(
                matching: ArticleQuery.parse(text, typing: text == "gard"), limit: 500
            ).map(\.id)
            #expect(after == before[text], "\(text)")
            #expect(after.isEmpty == (text == "title:tower"), "\(text)")
        }
        #expect(try await store.completions(of: "gar") == ["garden"])
        try await store.execute("INSERT INTO articles_fields(articles_fields) VALUES ('integrity-check')")
        // The entries migration 11 made can be removed: they are what a write would make.
        try await store.unsubscribe(url: "https://0.example/feed")
        #expect(try await store.articles(matching: ArticleQuery.parse("author:zoë"), limit: 500).count == 80)
        try await store.execute("INSERT INTO articles_fields(articles_fields) VALUES ('integrity-check')")
        #expect(try await store.integrityCheck() == "ok")
    }

    @Test("SIGKILL in the middle of migration 11 leaves version 10, which migrates at the next open")
    func killMidMigration() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let bench = try CrashSafetyTests.benchBinary()
        let populate = Process()
        populate.executableURL = bench
        populate.arguments = ["populate", "--articles", "10000", "--db", library.path, "--seed", "3"]
        populate.standardOutput = FileHandle.nullDevice
        populate.standardError = FileHandle.nullDevice
        try populate.run()
        populate.waitUntilExit()
        #expect(populate.terminationStatus == 0)
        do {
            let store = try await LibraryStore.open(path: library.path)
            try await store.execute(Self.downgrade)
        }

        // Another process opens the library, which migrates it; it is killed as it starts.
        let child = Process()
        child.executableURL = bench
        child.arguments = ["query", "--db", library.path, "--runs", "1", "--query", "unread"]
        let output = Pipe()
        child.standardOutput = output
        child.standardError = FileHandle.nullDevice
        try child.run()
        var heard = Data()
        while !String(decoding: heard, as: UTF8.self).contains("migrating") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            heard += chunk
        }
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        #expect(String(decoding: heard, as: UTF8.self).contains("from schema 10 to \(Migrations.latest)"))
        #expect(child.terminationReason == .uncaughtSignal)

        // Still version 10, sound; opening again migrates it, and queries find their rows.
        do {
            let old = try await LibraryStore.open(path: library.path, upTo: 10)
            #expect(await old.schemaVersion == 10)
            #expect(try await old.integrityCheck() == "ok")
        }
        let store = try await LibraryStore.open(path: library.path)
        #expect(await store.schemaVersion == Migrations.latest)
        #expect(try await store.integrityCheck() == "ok")
        let authors = try await store.articles(matching: ArticleQuery.parse("author:\"author 7\""), limit: 20)
        #expect(
            authors.count == 20 && authors.allSatisfy { $0.author?.lowercased().contains("author 7") == true }
        )
        try await store.execute("INSERT INTO articles_fields(articles_fields) VALUES ('integrity-check')")
    }
}
