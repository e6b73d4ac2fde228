public import HeraldCore

/// newsboat's `cache.db`, opened read-only: its feeds and its articles (those not deleted).
///
/// newsboat's schema (2.x): `rss_feed(rssurl, url, title, …)` and `rss_item(id, guid, title,
/// author, url, feedurl, pubDate, content, unread, enclosure_url, enclosure_type, flags,
/// deleted, base, …)`. A file without those tables and columns is refused with
/// `NewsboatCacheError` before anything is read, whatever SQLite says about it, so a stray
/// file is never mistaken for a damaged Herald library.
///
/// Not `Sendable`: one command opens, reads and closes it; what it returns is plain values.
public final class NewsboatCacheFile {
    private let db: SQLiteConnection
    public let path: String

    static let feedColumns: Set = ["rssurl", "url", "title"]
    static let itemColumns: Set = [
        "guid", "title", "author", "url", "feedurl", "pubDate", "content", "unread", "enclosure_url",
        "enclosure_type", "flags", "deleted", "base",
    ]

    public init(path: String) throws(NewsboatCacheError) {
        self.path = path
        do {
            db = try SQLiteConnection(path: path, readOnly: true)
        } catch {
            throw NewsboatCacheError(path: path, reason: "cannot open it (\(error.message))")
        }
        for (table, wanted) in [("rss_feed", Self.feedColumns), ("rss_item", Self.itemColumns)] {
            let columns: Set<String>
            do {
                let statement = try db.prepareUncached("SELECT name FROM pragma_table_info(?1)")
                try statement.bind(.text(table))
                var names: Set<String> = []
                while try statement.step() { names.insert(statement.text(0) ?? "") }
                columns = names
            } catch {
                throw NewsboatCacheError(path: path, reason: "not an SQLite database (\(error.message))")
            }
            if columns.isEmpty { throw NewsboatCacheError(path: path, reason: "it has no table \(table)") }
            let missing = wanted.subtracting(columns)
            if !missing.isEmpty {
                throw NewsboatCacheError(
                    path: path,
                    reason: "its table \(table) has no column \(missing.sorted().joined(separator: ", "))")
            }
        }
    }

    /// Every feed of the cache, by its address.
    public func feeds() throws(NewsboatCacheError) -> [NewsboatCachedFeed] {
        do {
            let statement = try db.prepareUncached("SELECT rssurl, title, url FROM rss_feed ORDER BY rowid")
            var feeds: [NewsboatCachedFeed] = []
            while try statement.step() {
                feeds.append(
                    NewsboatCachedFeed(
                        url: statement.text(0) ?? "", title: statement.text(1) ?? "",
                        siteURL: statement.text(2) ?? ""))
            }
            return feeds
        } catch {
            throw NewsboatCacheError(path: path, reason: "cannot read its feeds (\(error.message))")
        }
    }

    /// The articles of one feed that newsboat has not deleted, oldest first.
    ///
    /// `+deleted` keeps SQLite off newsboat's index on `deleted`, which it otherwise
    /// prefers: that walked every article of the cache for each feed (4 GB read for an
    /// 83 MB cache of 50 feeds), where the index on `feedurl` reads only the feed's.
    public func items(feedURL: String) throws(NewsboatCacheError) -> [NewsboatCachedItem] {
        do {
            let statement = try db.prepare(
                """
                SELECT guid, title, author, url, feedurl, pubDate, content, unread, enclosure_url, enclosure_type,
                    flags, base
                FROM rss_item WHERE feedurl = ?1 AND +deleted = 0 ORDER BY pubDate, id
                """)
            try statement.bind(.text(feedURL))
            var items: [NewsboatCachedItem] = []
            while try statement.step() {
                items.append(
                    NewsboatCachedItem(
                        guid: statement.text(0) ?? "", title: statement.text(1) ?? "",
                        author: statement.text(2) ?? "", link: statement.text(3) ?? "",
                        feedURL: statement.text(4) ?? "", published: statement.int64(5),
                        content: statement.text(6) ?? "", unread: statement.bool(7),
                        enclosureURL: statement.text(8).flatMap { $0.isEmpty ? nil : $0 },
                        enclosureType: statement.text(9).flatMap { $0.isEmpty ? nil : $0 },
                        flags: statement.text(10), base: statement.text(11) ?? ""))
            }
            return items
        } catch {
            throw NewsboatCacheError(path: path, reason: "cannot read its articles (\(error.message))")
        }
    }

    /// A feed's articles (not deleted), how many of them are read, and how many flagged,
    /// counted without reading them.
    public func counts(feedURL: String) throws(NewsboatCacheError) -> (articles: Int, read: Int, flagged: Int)
    {
        do {
            let statement = try db.prepare(
                """
                SELECT count(*), coalesce(sum(unread = 0), 0), coalesce(sum(flags GLOB '*[A-Za-z]*'), 0)
                FROM rss_item WHERE feedurl = ?1 AND +deleted = 0
                """)
            try statement.bind(.text(feedURL))
            guard try statement.step() else { return (0, 0, 0) }
            defer { statement.reset() }
            return (Int(statement.int64(0)), Int(statement.int64(1)), Int(statement.int64(2)))
        } catch {
            throw NewsboatCacheError(path: path, reason: "cannot count its articles (\(error.message))")
        }
    }

    /// How many articles newsboat deleted (`deleted = 1`): not imported.
    public func deletedCount(feedURLs: [String]) -> Int {
        guard
            let statement = try? db.prepareUncached(
                "SELECT count(*) FROM rss_item WHERE +deleted != 0 AND feedurl = ?1")
        else { return 0 }
        var total = 0
        for url in feedURLs {
            statement.reset()
            total += (try? statement.bind(.text(url)).firstRow { Int($0.int64(0)) }) ?? 0
        }
        return total
    }
}
