import Foundation
import HeraldCore
import Testing

@testable import HeraldStore
@testable import HeraldNewsboat

/// `NewsboatCacheFile` against caches a statement could run away on: each read has a budget
/// of SQLite steps, and stops with an error past it (the end-to-end tests cover views,
/// triggers, dates and sizes through the command).
@Suite("reading a newsboat cache within a budget")
struct NewsboatCacheFileTests {
    static let feed = "https://a.example/feed"

    /// A cache with newsboat's columns and `articles` articles of one feed.
    func cache(_ library: TemporaryLibrary, articles: Int) throws -> String {
        let path = library.directory.appendingPathComponent("cache.db").path
        try SQLiteConnection(path: path).execute(
            """
            CREATE TABLE rss_feed (rssurl TEXT PRIMARY KEY NOT NULL, url TEXT NOT NULL, title TEXT NOT NULL);
            CREATE TABLE rss_item (id INTEGER PRIMARY KEY, guid TEXT, title TEXT, author TEXT, url TEXT,
                feedurl TEXT, pubDate INTEGER, content TEXT, unread INTEGER, enclosure_url TEXT,
                enclosure_type TEXT, flags TEXT, deleted INTEGER DEFAULT 0, base TEXT DEFAULT '');
            CREATE INDEX idx_feedurl ON rss_item(feedurl);
            INSERT INTO rss_feed VALUES ('\(Self.feed)', 'https://a.example/', 'A');
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(articles))
            INSERT INTO rss_item(guid, title, author, url, feedurl, pubDate, content, unread)
                SELECT 'g' || i, 'T' || i, '', 'https://a.example/' || i, '\(Self.feed)', 1790000000 + i, 'x', 1
                FROM n;
            """)
        return path
    }

    @Test("a read that takes more steps than its budget is stopped with an error saying so")
    func stepBudget() throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let path = try cache(library, articles: 20_000)
        let small = try NewsboatCacheFile(
            path: path, stepBudget: 10_000, feedBytes: InputLimits.newsboatCacheFeedBytes)
        #expect(throws: NewsboatCacheError.self) { try small.counts(feedURL: Self.feed) }
        do {
            _ = try small.counts(feedURL: Self.feed)
        } catch {
            #expect(error.reason.contains("took more than 10000 SQLite steps"), "\(error)")
        }
        // The budget is per read: one that fits runs after one that did not.
        #expect(try small.feed(url: Self.feed)?.title == "A")
        let honest = try NewsboatCacheFile(path: path)
        #expect(try honest.counts(feedURL: Self.feed).articles == 20_000)
        let (items, leftOut) = try honest.items(feedURL: Self.feed)
        #expect(items.count == 20_000 && leftOut == 0)
        #expect(items.first?.guid == "g1" && items.last?.guid == "g20000", "oldest first")
    }

    @Test("past a feed's budget of bytes the newest articles are kept and the rest counted")
    func feedBudget() throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let path = try cache(library, articles: 10)
        // Bodies of 10,000 bytes: with their other values and what an article costs besides,
        // about 10,560 bytes an article, and 100,000 bytes hold nine.
        try SQLiteConnection(path: path).execute(
            "UPDATE rss_item SET content = replace(hex(zeroblob(5000)), '0', 'a')")
        let file = try NewsboatCacheFile(
            path: path, stepBudget: InputLimits.newsboatCacheSteps, feedBytes: 100_000)
        let (items, leftOut) = try file.items(feedURL: Self.feed)
        #expect(items.map(\.guid) == (2...10).map { "g\($0)" }, "the newest are kept, oldest first")
        #expect(leftOut == 1)
    }

    @Test("the limits table (docs/LIMITS.md) says what InputLimits holds for a newsboat cache and for dates")
    func readmeStatesTheLimits() throws {
        let readme = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("../../docs/LIMITS.md").standardized, encoding: .utf8)
        let row = try #require(
            readme.split(separator: "\n").first { $0.hasPrefix("| a newsboat cache") }, "no row for the cache"
        )
        func thousands(_ n: Int) -> String {
            n.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
        }
        for said in [
            "no value over \(InputLimits.newsboatCacheValueBytes >> 20) MiB",
            "titles and authors keep \(thousands(InputLimits.newsboatCacheTitleCharacters)) characters",
            "addresses \(thousands(FeedAddress.maximumLength)) bytes",
            "a feed's articles \(InputLimits.newsboatCacheFeedBytes >> 20) MiB in all",
            "counting \(InputLimits.newsboatCacheArticleCost) bytes an article",
            "at most \(InputLimits.newsboatCacheSteps / 1_000_000) million SQLite steps",
        ] {
            #expect(row.contains(said), "docs/LIMITS.md's row does not say: \(said)")
        }
        #expect(InputLimits.dateSeconds.lowerBound == Int64(FeedDate.earliest.timeIntervalSince1970))
        #expect(
            InputLimits.dateSeconds.upperBound + 1
                == Int64(try Date("10000-01-01T00:00:00Z", strategy: .iso8601).timeIntervalSince1970))
        #expect(readme.contains("| dates | before 1900 (year 0000, 0001-01-01) or after 9999"))
    }
}
