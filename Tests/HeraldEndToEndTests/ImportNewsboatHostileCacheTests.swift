import Foundation
import HeraldTestSupport
import Testing

/// `herald import-newsboat` on a `cache.db` someone made to hurt it (issue 23, item 5): the
/// cache is another program's file. Each case is built with the sqlite3 tool on newsboat's
/// own schema; the import must end at once, with a clear error or with what it could read.
@Suite("herald import-newsboat on a hostile cache", .serialized)
struct ImportNewsboatHostileCacheTests {
    typealias Library = CommandLineTests.Library
    typealias Newsboat = ImportNewsboatTests.Newsboat

    static let feed = "https://example.org/feed.xml"

    /// newsboat 2.x's tables, one feed and one article, then `sql`.
    static func cache(_ library: Library, _ sql: String) throws -> Newsboat {
        let newsboat = Newsboat(library: library)
        try newsboat.write(urls: feed + "\n", config: "")
        try newsboat.sql(
            """
            CREATE TABLE rss_feed (rssurl VARCHAR(1024) PRIMARY KEY NOT NULL, url VARCHAR(1024) NOT NULL,
                title VARCHAR(1024) NOT NULL, lastmodified INTEGER(11) NOT NULL DEFAULT 0,
                is_rtl INTEGER(1) NOT NULL DEFAULT 0, etag VARCHAR(128) NOT NULL DEFAULT '');
            CREATE TABLE rss_item (id INTEGER PRIMARY KEY AUTOINCREMENT, guid VARCHAR(64) NOT NULL,
                title VARCHAR(1024) NOT NULL, author VARCHAR(1024) NOT NULL, url VARCHAR(1024) NOT NULL,
                feedurl VARCHAR(1024) NOT NULL, pubDate INTEGER NOT NULL, content VARCHAR(65535) NOT NULL,
                unread INTEGER(1) NOT NULL, enclosure_url VARCHAR(1024), enclosure_type VARCHAR(1024),
                enqueued INTEGER(1) NOT NULL DEFAULT 0, flags VARCHAR(52), deleted INTEGER(1) NOT NULL DEFAULT 0,
                base VARCHAR(128) NOT NULL DEFAULT '', content_mime_type VARCHAR(255) NOT NULL DEFAULT '');
            CREATE INDEX idx_feedurl ON rss_item(feedurl);
            INSERT INTO rss_feed(rssurl, url, title) VALUES ('\(feed)', 'https://example.org/', 'Example');
            INSERT INTO rss_item(guid, title, author, url, feedurl, pubDate, content, unread)
                VALUES ('g0', 'Honest', 'Ann', 'https://example.org/0', '\(feed)', 1790000000, '<p>Hello</p>', 1);
            \(sql)
            """)
        return newsboat
    }

    /// An article of the feed with these values (SQL expressions) for its title and date.
    static func item(
        _ guid: String, title: String = "'Article'", date: String = "1790000000", content: String = "'x'"
    )
        -> String
    {
        """
        INSERT INTO rss_item(guid, title, author, url, feedurl, pubDate, content, unread)
            VALUES ('\(guid)', \(title), 'Ann', 'https://example.org/\(guid)', '\(feed)', \(date), \(content), 1);
        """
    }

    @Test(
        "dates no calendar holds (Int64's extremes, 1e300, text) import their articles undated, never a crash"
    )
    func impossibleDates() throws {
        let library = Library()
        defer { library.cleanUp() }
        let newsboat = try Self.cache(
            library,
            [
                Self.item("max", date: "9223372036854775807"), Self.item("min", date: "-9223372036854775808"),
                Self.item("real", date: "1e300"), Self.item("text", date: "'soon'"),
                Self.item("year10000", date: "253402300800"),
            ].joined(separator: "\n"))
        let result = try newsboat.importing()
        #expect(result.exitStatus == 0, "\(result.exitStatus.map(String.init) ?? "killed"): \(result.errors)")
        #expect(result.output.contains("6 articles"), "\(result.output)")
        let rows = try library.jsonLines(["list"])
        #expect(rows.count == 6)
        #expect(rows.filter { $0["published"] != nil }.map { $0["title"] as? String } == ["Honest"])
    }

    @Test("a view named rss_item whose query never ends is refused by name at once")
    func recursiveView() throws {
        let library = Library()
        defer { library.cleanUp() }
        let newsboat = try Self.cache(
            library,
            """
            ALTER TABLE rss_item RENAME TO real_item;
            CREATE VIEW rss_item AS WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n)
                SELECT r.* FROM real_item r, n;
            """)
        let result = try newsboat.importing(timeout: 20)
        #expect(!result.timedOut, "the import was still running after 20 s")
        #expect(result.exitStatus == 1)
        #expect(result.errors.contains("its rss_item is a view, not a table"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: library.path), "nothing was written")
    }

    @Test("a view of randomblob()s in place of rss_item is refused before it makes a byte")
    func randomBlobView() throws {
        let library = Library()
        defer { library.cleanUp() }
        let newsboat = try Self.cache(
            library,
            """
            ALTER TABLE rss_item RENAME TO real_item;
            CREATE VIEW rss_item AS WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
                SELECT id, guid || i AS guid, title, author, url, feedurl, pubDate,
                    randomblob(100000000) AS content, unread, enclosure_url, enclosure_type, flags, deleted, base
                FROM real_item, n;
            """)
        let result = try newsboat.importing(timeout: 20)
        #expect(!result.timedOut && result.exitStatus == 1, "\(result.errors)")
        #expect(result.errors.contains("its rss_item is a view"), "\(result.errors)")
    }

    @Test(
        "a table with a trigger, a virtual table or computed columns in place of newsboat's is refused, named",
        arguments: [
            (
                "CREATE TRIGGER spy AFTER UPDATE ON rss_feed BEGIN SELECT 1; END;",
                "its table rss_feed has a trigger, spy"
            ),
            (
                """
                DROP TABLE rss_item;
                CREATE VIRTUAL TABLE rss_item USING fts5(guid, title, author, url, feedurl, pubDate, content,
                    unread, enclosure_url, enclosure_type, flags, deleted, base);
                """, "its rss_item is a virtual table"
            ),
            (
                """
                DROP TABLE rss_feed;
                CREATE TABLE rss_feed (rssurl TEXT, url TEXT, title TEXT GENERATED ALWAYS AS (rssurl || url));
                """, "its table rss_feed computes its column title"
            ),
        ])
    func notPlainTables(sql: String, error: String) throws {
        let library = Library()
        defer { library.cleanUp() }
        let newsboat = try Self.cache(library, sql)
        let result = try newsboat.importing(timeout: 20)
        #expect(result.exitStatus == 1, "\(result.output)")
        #expect(result.errors.contains(error), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: library.path), "nothing was written")
    }

    @Test(
        "a body over 4 MiB leaves its article out (said), a 1,500-character title keeps 1,000, a 5,000-byte link is dropped"
    )
    func oversizedValues() throws {
        let library = Library()
        defer { library.cleanUp() }
        let newsboat = try Self.cache(
            library,
            """
            \(Self.item("huge", content: "replace(hex(zeroblob(2200000)), '0', 'a')"))
            \(Self.item("long", title: "replace(hex(zeroblob(750)), '0', 't')"))
            UPDATE rss_item SET url = 'https://example.org/' || replace(hex(zeroblob(2500)), '0', 'u')
                WHERE guid = 'long';
            """)
        let result = try newsboat.importing()
        #expect(result.exitStatus == 0, "\(result.errors)")
        #expect(result.output.contains("1 article of \(Self.feed) left out"), "\(result.output)")
        let rows = try library.jsonLines(["list"])
        #expect(Set(rows.map { $0["link"] as? String }) == [nil, "https://example.org/0"])
        let title = try #require(rows.first { $0["link"] as? String == nil }?["title"] as? String)
        #expect(title.count == 1_000 && title.hasSuffix("…"), "\(title.count) characters")
    }

    @Test(
        "a FIFO under the name of cache.db or urls is refused without waiting on it",
        arguments: ["cache.db", "urls"])
    func fifo(name: String) throws {
        let library = Library()
        defer { library.cleanUp() }
        let newsboat = try Self.cache(library, "")
        let path = newsboat.directory.appendingPathComponent(name).path
        try FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o600) == 0)
        let result = try newsboat.importing(timeout: 20)
        #expect(!result.timedOut, "the import waited on the FIFO")
        #expect(result.exitStatus != 0 && result.errors.contains("not a regular file"), "\(result.errors)")
    }
}
