import CSQLite3
import Glibc
import HeraldCore
import HeraldStore

/// newsboat's `cache.db`, read as hostile input: its feeds and its articles (those not deleted).
///
/// newsboat's schema (2.x): `rss_feed(rssurl, url, title, …)` and `rss_item(id, guid, title,
/// author, url, feedurl, pubDate, content, unread, enclosure_url, enclosure_type, flags,
/// deleted, base, …)`. A file without those tables and columns is refused with
/// `NewsboatCacheError` before anything is read, whatever SQLite says about it, so a stray
/// file is never mistaken for a damaged Herald library.
///
/// It is another program's file, which anyone may have written: only a regular file is
/// opened, read only and with its schema distrusted (`SQLiteConnection.untrusted`); the two
/// tables must be plain tables (a view, a virtual table, a table with a trigger or with
/// computed columns in their place is refused, named); each statement has a budget of steps
/// (`InputLimits.newsboatCacheSteps`); and every value is bounded before it is used (see
/// `InputLimits`: values, titles, addresses, a feed's articles in all, dates).
///
/// Not `Sendable`: one command opens, reads and closes it; what it returns is plain values.
public final class NewsboatCacheFile {
    private let db: SQLiteConnection
    public let path: String
    /// The steps each read may take, and the bytes of a feed's articles in all
    /// (`InputLimits.newsboatCacheSteps` and `newsboatCacheFeedBytes`; tests give less).
    let stepBudget: Int
    let feedBytes: Int

    static let feedColumns: Set = ["rssurl", "url", "title"]
    static let itemColumns: Set = [
        "guid", "title", "author", "url", "feedurl", "pubDate", "content", "unread", "enclosure_url",
        "enclosure_type", "flags", "deleted", "base",
    ]

    public convenience init(path: String) throws(NewsboatCacheError) {
        try self.init(
            path: path, stepBudget: InputLimits.newsboatCacheSteps,
            feedBytes: InputLimits.newsboatCacheFeedBytes)
    }

    init(path: String, stepBudget: Int, feedBytes: Int) throws(NewsboatCacheError) {
        self.path = path
        (self.stepBudget, self.feedBytes) = (stepBudget, feedBytes)
        // SQLite would wait on a FIFO (its open blocks until a writer comes) and read a device.
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw NewsboatCacheError(
                path: path, reason: "cannot open it (\(String(cString: strerror(errno))))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw NewsboatCacheError(
                path: path, reason: "it is not a regular file (a directory, FIFO or device)")
        }
        do {
            db = try SQLiteConnection.untrusted(
                path: path, maxValueBytes: InputLimits.newsboatCacheValueBytes)
        } catch {
            throw NewsboatCacheError(path: path, reason: "cannot open it (\(error.message))")
        }
        for (table, wanted) in [("rss_feed", Self.feedColumns), ("rss_item", Self.itemColumns)] {
            try checkPlainTable(table, columns: wanted)
        }
    }

    /// Refuses anything but a plain table of that name with those columns, none computed.
    private func checkPlainTable(_ table: String, columns wanted: Set<String>) throws(NewsboatCacheError) {
        var kind: (type: String, sql: String)?
        var triggers: [String] = []
        var columns: [String: Int64] = [:]
        var withoutRowID = false
        do {
            let found = try db.prepareUncached(
                "SELECT type, sql FROM sqlite_schema WHERE name = ?1 COLLATE NOCASE AND type IN ('table', 'view')"
            )
            try found.bind(.text(table))
            kind = try found.firstRow { ($0.text(0) ?? "", $0.text(1) ?? "") }
            let fired = try db.prepareUncached(
                "SELECT name FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = ?1 COLLATE NOCASE")
            try fired.bind(.text(table))
            while try fired.step() { triggers.append(fired.text(0) ?? "") }
            if kind?.type == "table", !Self.isVirtual(kind?.sql ?? "") {
                let described = try db.prepareUncached("SELECT name, hidden FROM pragma_table_xinfo(?1)")
                try described.bind(.text(table))
                while try described.step() { columns[described.text(0) ?? ""] = described.int64(1) }
                let listed = try db.prepareUncached(
                    "SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ?1 COLLATE NOCASE")
                try listed.bind(.text(table))
                withoutRowID = try listed.firstRow { $0.int64(0) != 0 } ?? false
            }
        } catch {
            throw NewsboatCacheError(path: path, reason: "not an SQLite database (\(Self.message(error)))")
        }
        guard let kind else { throw NewsboatCacheError(path: path, reason: "it has no table \(table)") }
        if kind.type == "view" {
            throw NewsboatCacheError(
                path: path,
                reason: "its \(table) is a view, not a table (newsboat's are plain tables): not read")
        }
        if Self.isVirtual(kind.sql) {
            throw NewsboatCacheError(
                path: path, reason: "its \(table) is a virtual table (newsboat's are plain tables): not read")
        }
        if let trigger = triggers.first {
            throw NewsboatCacheError(
                path: path,
                reason:
                    "its table \(table) has a trigger, \(TextSanitizer.singleLine(String(trigger.prefix(100)))) "
                    + "(newsboat makes none): not read")
        }
        if withoutRowID {
            throw NewsboatCacheError(
                path: path, reason: "its table \(table) is WITHOUT ROWID (newsboat's are not): not read")
        }
        let missing = wanted.subtracting(columns.keys)
        if !missing.isEmpty {
            throw NewsboatCacheError(
                path: path,
                reason: "its table \(table) has no column \(missing.sorted().joined(separator: ", "))")
        }
        if let computed = wanted.sorted().first(where: { columns[$0] != 0 }) {
            throw NewsboatCacheError(
                path: path,
                reason: "its table \(table) computes its column \(computed) (newsboat stores it): not read")
        }
    }

    /// Whether a table's `CREATE` statement makes a virtual table.
    static func isVirtual(_ sql: String) -> Bool {
        let words = sql.prefix(100).split(whereSeparator: \.isWhitespace).prefix(3).map { $0.uppercased() }
        return words.count == 3 && words[1] == "VIRTUAL"
    }

    /// SQLite's words for an error, the step budget's when that stopped it.
    static func message(_ error: any Error) -> String {
        (error as? SQLiteError)?.message ?? "\(error)"
    }

    private func failure(_ what: String, _ error: any Error) -> NewsboatCacheError {
        if db.interrupt.budgetSpent {
            return NewsboatCacheError(
                path: path,
                reason: "reading \(what) took more than \(stepBudget) SQLite steps: stopped")
        }
        return NewsboatCacheError(path: path, reason: "cannot read \(what) (\(Self.message(error)))")
    }

    /// Runs `body` with a fresh budget of steps for its statements.
    private func budgeted<T>(_ body: () throws -> T) rethrows -> T {
        db.interrupt.setBudget(steps: stepBudget)
        defer { db.interrupt.setBudget(steps: nil) }
        return try body()
    }

    /// How many distinct feeds the cache holds.
    public func feedCount() throws(NewsboatCacheError) -> Int {
        do {
            return try budgeted {
                Int(
                    try db.prepareUncached("SELECT count(DISTINCT rssurl) FROM rss_feed").firstRow {
                        $0.int64(0)
                    } ?? 0)
            }
        } catch {
            throw failure("its feeds", error)
        }
    }

    /// Every feed the cache knows (the first row of each address), in the order newsboat
    /// stored them, at most `limit`: the feeds of an import without a `urls` file. An
    /// address longer than an address may be is left out.
    public func feeds(limit: Int = 100_000) throws(NewsboatCacheError) -> [NewsboatCachedFeed] {
        do {
            return try budgeted {
                // A bare column beside min() is read from the row that min() chose.
                let statement = try db.prepareUncached(
                    "SELECT rssurl, title, url, min(rowid) FROM rss_feed GROUP BY rssurl ORDER BY 4 LIMIT ?1")
                try statement.bind(.integer(Int64(limit)))
                var feeds: [NewsboatCachedFeed] = []
                while try statement.step() {
                    guard let url = Self.address(statement.text(0)), !url.isEmpty else { continue }
                    feeds.append(
                        NewsboatCachedFeed(
                            url: url, title: Self.title(statement.text(1)),
                            siteURL: Self.address(statement.text(2)) ?? ""))
                }
                return feeds
            }
        } catch {
            throw failure("its feeds", error)
        }
    }

    /// The feed the cache knows at `url` (its first row, should there be several), bounded.
    public func feed(url: String) throws(NewsboatCacheError) -> NewsboatCachedFeed? {
        do {
            return try budgeted {
                let statement = try db.prepare(
                    "SELECT title, url FROM rss_feed WHERE rssurl = ?1 ORDER BY rowid LIMIT 1")
                try statement.bind(.text(url))
                return try statement.firstRow {
                    NewsboatCachedFeed(
                        url: url, title: Self.title($0.text(0)), siteURL: Self.address($0.text(1)) ?? "")
                }
            }
        } catch {
            throw failure("its feed \(URLText.escapingUnsafe(String(url.prefix(200))))", error)
        }
    }

    /// The articles of one feed that newsboat has not deleted, oldest first, and how many
    /// were left out: past the feed's budget (`InputLimits.newsboatCacheFeedBytes`: the
    /// newest are kept), or with a value over `newsboatCacheValueBytes` or a guid longer
    /// than an address may be.
    ///
    /// Their row ids first, newest first; then each article by its id, so one with a value
    /// too long is left out alone (SQLite stops the statement that meets it). `+deleted`
    /// keeps SQLite off newsboat's index on `deleted`, which it otherwise prefers: that walked
    /// every article of the cache for each feed (4 GB read for an 83 MB cache of 50 feeds),
    /// where the index on `feedurl` reads only the feed's.
    public func items(feedURL: String) throws(NewsboatCacheError) -> (
        items: [NewsboatCachedItem], leftOut: Int
    ) {
        var rowIDs: [Int64] = []
        do {
            try budgeted {
                let statement = try db.prepare(
                    "SELECT rowid FROM rss_item WHERE feedurl = ?1 AND +deleted = 0 ORDER BY pubDate DESC, rowid DESC"
                )
                try statement.bind(.text(feedURL))
                defer { statement.reset() }
                while try statement.step() { rowIDs.append(statement.int64(0)) }
            }
        } catch {
            throw failure("its articles", error)
        }
        var items: [NewsboatCachedItem] = []
        var spent = 0
        var leftOut = 0
        for (index, rowID) in rowIDs.enumerated() {
            let read: NewsboatCachedItem?
            do {
                read = try budgeted { try item(rowID: rowID, cost: &spent) }
            } catch let error as SQLiteError where error.code & 0xFF == SQLITE_TOOBIG {
                leftOut += 1
                continue
            } catch {
                throw failure("its articles", error)
            }
            guard spent <= feedBytes else {
                leftOut += rowIDs.count - index
                break
            }
            if let read { items.append(read) } else { leftOut += 1 }
        }
        return (items.reversed(), leftOut)
    }

    /// One article by its row id, its values' bytes added to `cost`; nil when its guid is
    /// longer than an address may be (or it is gone).
    private func item(rowID: Int64, cost: inout Int) throws -> NewsboatCachedItem? {
        let statement = try db.prepare(
            """
            SELECT guid, title, author, url, feedurl, pubDate, content, unread, enclosure_url, enclosure_type,
                flags, base
            FROM rss_item WHERE rowid = ?1
            """)
        try statement.bind(.integer(rowID))
        let read = try statement.firstRow { row -> NewsboatCachedItem? in
            // The date and the sizes before anything reads a value as text.
            let published = Self.date(row)
            cost += InputLimits.newsboatCacheArticleCost
            for column in Int32(0)..<12 { cost += row.valueBytes(column) }
            let guid = row.text(0) ?? ""
            guard guid.utf8.count <= FeedAddress.maximumLength else { return nil }
            return NewsboatCachedItem(
                guid: guid, title: Self.title(row.text(1)), author: Self.title(row.text(2)),
                link: Self.address(row.text(3)) ?? "", feedURL: row.text(4) ?? "",
                published: published, content: row.text(6) ?? "", unread: row.bool(7),
                enclosureURL: Self.address(row.text(8)).flatMap { $0.isEmpty ? nil : $0 },
                enclosureType: row.text(9).flatMap { $0.isEmpty || $0.utf8.count > 255 ? nil : $0 },
                flags: row.text(10).map { String($0.prefix(64)) }, base: Self.address(row.text(11)) ?? "")
        }
        return read ?? nil
    }

    /// `pubDate` as seconds within `InputLimits.dateSeconds`, nil outside (or not a number):
    /// read as SQLite stores it, so a real or a text is never converted unchecked.
    static func date(_ row: SQLiteStatement) -> Int64? {
        let seconds: Int64
        switch row.value(5) {
        case .integer(let value): seconds = value
        case .text(let text):
            guard let value = Double(text), value.isFinite, value.rounded(.towardZero) == value,
                let whole = Int64(exactly: value)
            else { return nil }
            seconds = whole
        default: return nil
        }
        return InputLimits.dateSeconds.contains(seconds) ? seconds : nil
    }

    /// A title or author: its first `InputLimits.newsboatCacheTitleCharacters` characters.
    static func title(_ text: String?) -> String {
        guard let text else { return "" }
        let limit = InputLimits.newsboatCacheTitleCharacters
        guard text.utf8.count > limit, text.count > limit else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }

    /// An address, nil when longer than an address may be (a cut one would lead elsewhere).
    static func address(_ text: String?) -> String? {
        guard let text, text.utf8.count <= FeedAddress.maximumLength else { return nil }
        return text
    }

    /// A feed's articles (not deleted), how many of them are read, and how many flagged,
    /// counted without reading them.
    public func counts(feedURL: String) throws(NewsboatCacheError) -> (articles: Int, read: Int, flagged: Int)
    {
        do {
            return try budgeted {
                let statement = try db.prepare(
                    """
                    SELECT count(*), coalesce(sum(unread = 0), 0), coalesce(sum(flags GLOB '*[A-Za-z]*'), 0)
                    FROM rss_item WHERE feedurl = ?1 AND +deleted = 0
                    """)
                try statement.bind(.text(feedURL))
                return try statement.firstRow { (Int($0.int64(0)), Int($0.int64(1)), Int($0.int64(2))) }
                    ?? (0, 0, 0)
            }
        } catch {
            throw failure("its articles", error)
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
            total += (try? budgeted { try statement.bind(.text(url)).firstRow { Int($0.int64(0)) } }) ?? 0
        }
        return total
    }
}
