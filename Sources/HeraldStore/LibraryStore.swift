import Foundation
public import HeraldCore

/// Herald's library in SQLite: feeds, articles, flags and the search indexes.
///
/// It lives on `DatabaseActor`, which alone owns the connection; every row becomes a
/// `Sendable` struct before it leaves. The file is opened in WAL mode with
/// `synchronous=NORMAL`, foreign keys and a busy timeout; a write of one feed's articles is
/// one transaction, so a crash or kill mid-write leaves the last committed state.
@DatabaseActor
public final class LibraryStore: ArticleRepository {
    let db: SQLiteConnection
    /// Packs and unpacks the articles' text and HTML (`ArticleBody`).
    let bodies = ArticleBodyCodec()
    public let path: String
    /// Whether the library can be written (`LibraryAccess`): one that cannot is read only,
    /// and every write to it fails with SQLite's "readonly" error.
    public nonisolated let access: LibraryAccess
    /// Feed URL → row id, filled as feeds are read. Another process writing the library (a
    /// `herald sync` from cron, `herald remove`) may give a URL another row: the cache is
    /// dropped whenever the file changed under another connection (`PRAGMA data_version`).
    var feedRowIDs: [String: Int64] = [:]
    /// The data version `feedRowIDs` was filled at.
    private var feedRowIDsVersion: Int64 = -1
    /// The data version `changedElsewhere()` last saw (-1: never asked).
    private var seenVersion: Int64 = -1
    /// The config's filters, applied to what a reload brings (`LibraryStore+Filters.swift`).
    var reloadFilters: [QueryFilter] = []
    /// Stored articles `delete` filters removed since `takeRemovedByFilters()` last read it.
    var removedByFilters = 0
    /// The run of the filters' regular expressions since `takeSlowFilters()` last read it
    /// (a reload's): a filter with a pattern found too slow is left out until then.
    var filterRegexBudget = RegexBudget()
    /// Where the plans of queries change (tests read the same pages with each plan).
    var queryPlanLimits = QueryPlanLimits()

    /// Opens (creating if needed) the library at `path` and brings its schema up to date.
    /// `upgrading` hears (from, to) first when an existing library is to be migrated, which
    /// can take minutes for a large one.
    ///
    /// A library that cannot be written (`LibraryAccess.of`: a read-only mount, or a file or
    /// directory the user may not write) is opened read only, as it is: nothing is set or
    /// compacted, and one that needs upgrading throws `LibraryReadOnlyError`.
    public static func open(
        path: String, upgrading: @Sendable (_ from: Int, _ to: Int) -> Void = { _, _ in }
    ) throws -> LibraryStore {
        try open(path: path, upTo: Migrations.latest, upgrading: upgrading)
    }

    /// Opens with the schema brought only up to `version` (tests of migrations).
    static func open(
        path: String, upTo version: Int, upgrading: @Sendable (Int, Int) -> Void = { _, _ in }
    ) throws -> LibraryStore {
        let access = LibraryAccess.of(path: path)
        if let reason = access.reason, FileManager.default.fileExists(atPath: path) {
            let store = LibraryStore(
                db: try SQLiteConnection.readOnly(path: path).connection, path: path, access: access)
            try store.db.execute("PRAGMA busy_timeout = 5000; PRAGMA cache_size = -8192;")
            let found = store.schemaVersion
            if found > Migrations.latest {
                throw StoreError.newerSchema(path: path, found: found, known: Migrations.latest)
            }
            if found < version {
                throw LibraryReadOnlyError(
                    path: path, reason: reason, what: "upgrading it (schema \(found) to \(version))")
            }
            return store
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = LibraryStore(db: try SQLiteConnection(path: path), path: path, access: .writable)
        try store.configure()
        let found = store.schemaVersion
        if found > 0, found < version { upgrading(found, version) }
        try store.migrate(upTo: version)
        if version == Migrations.latest { try store.compactOnce() }
        return store
    }

    private init(db: SQLiteConnection, path: String, access: LibraryAccess) {
        self.db = db
        self.path = path
        self.access = access
    }

    /// 16 KB pages. A row does not span pages until it is too long for one, so with 4 KB
    /// pages an article (about 2.4 KB with its deflated body) often had a page to itself:
    /// a third of the file was unused page tails. 16 KB pages hold six articles.
    static let pageSize = 16384

    private func configure() throws {
        // Takes effect only in a new, empty file; an older one changes in `compactOnce()`.
        try db.execute("PRAGMA page_size = \(Self.pageSize)")
        try db.execute(
            """
            PRAGMA busy_timeout = 5000;
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = NORMAL;
            PRAGMA foreign_keys = ON;
            PRAGMA cache_size = -8192;
            """)
        // No memory map: pages read through one count as the process's memory (a reload
        // of 200 feeds peaked at 77 MB against 54 without), and it buys little: a phrase or
        // an exclusion on 100k articles takes 10–15 ms instead of 5–10, a word search the
        // same 7–9 ms (herald-bench search).
        // Checkpoint every 4 MB of WAL, as SQLite's default of 1000 pages did with 4 KB pages.
        try db.execute("PRAGMA wal_autocheckpoint = \(4 << 20 / Self.pageSize)")
    }

    /// Sets how much of the file SQLite keeps in memory (8 MiB unless set). The cache pays
    /// for itself in the reader, where searches as you type read the same index pages again
    /// (a prefix search on a million articles takes 45 ms with 8 MiB, 75 ms with 2 MiB); a
    /// command that only writes, like `herald reload`, writes as fast with 2 MiB
    /// (`herald-bench store`) and peaks 6–7 MiB lower.
    public func setCacheSize(kibibytes: Int) throws {
        try db.execute("PRAGMA cache_size = -\(max(kibibytes, 256))")
    }

    /// Forgets every feed's row id (after feeds came and went in bulk, as a sync does).
    func forgetFeedRowIDs() { feedRowIDs.removeAll() }

    /// Runs SQL directly (tests, maintenance).
    func execute(_ sql: String) throws { try db.execute(sql) }

    /// Statements left mid-rows (tests: there should never be any between calls).
    var busyStatements: Int { db.busyStatements }

    /// A single integer from a query (tests, maintenance).
    func integer(_ sql: String) throws -> Int64 { try db.integer(sql) }

    /// The result of `PRAGMA integrity_check` ("ok" when the file is sound).
    public func integrityCheck() throws -> String {
        try db.prepare("PRAGMA integrity_check").firstRow { $0.text(0) ?? "no answer" } ?? "no answer"
    }

    /// Copies the write-ahead log into the database file and truncates it (benchmarks that
    /// measure the file, maintenance).
    public func checkpoint() throws {
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// The schema version of the file.
    public var schemaVersion: Int { Int((try? db.integer("PRAGMA user_version")) ?? 0) }

    private func migrate(upTo target: Int) throws {
        let version = schemaVersion
        if version > Migrations.latest {
            throw StoreError.newerSchema(path: path, found: version, known: Migrations.latest)
        }
        for step in Migrations.steps where step.version > version && step.version <= target {
            try db.transaction {
                try step.apply(db)
                try db.execute("PRAGMA user_version = \(step.version)")
            }
        }
    }

    /// Rewrites a library made with smaller pages (before schema 6) with `pageSize` pages,
    /// once: `VACUUM` then also returns the pages migration 6 freed to the file system.
    /// The page size changes only outside WAL mode, which SQLite refuses while another
    /// connection has the file open; the library then stays as it is until the next open.
    /// A failed `VACUUM` (a full disk) leaves the file as it was, still usable, so it does
    /// not stop the library from opening either.
    private func compactOnce() throws {
        guard try db.integer("PRAGMA page_size") != Self.pageSize else { return }
        // With another connection open, leaving WAL fails at once ("database is locked"):
        // then the library opens as it is, and is compacted at a later open.
        let mode = try? db.prepareUncached("PRAGMA journal_mode = DELETE").firstRow { $0.text(0) }
        if mode == "delete" {
            try? db.execute("PRAGMA page_size = \(Self.pageSize); VACUUM;")
        }
        try? db.execute("PRAGMA journal_mode = WAL")
    }

    // MARK: Reading

    public func feedSummaries() throws -> [FeedSummary] {
        let statement = try db.prepare(
            """
            SELECT id, url, title, site_url, last_error, total_count, unread_count, tags,
                (SELECT value FROM feed_settings s WHERE s.feed_id = feeds.id AND s.key = 'disabled'
                    ORDER BY s.source = 'config' DESC LIMIT 1) = 'yes'
            FROM feeds WHERE \(Self.notArchived("feeds")) ORDER BY position, id
            """)
        var feeds: [FeedSummary] = []
        while try statement.step() {
            let url = statement.text(1) ?? ""
            feedRowIDs[url] = statement.int64(0)
            var feed = Feed(
                id: FeedID(row: statement.int64(0)), url: url, title: statement.text(2) ?? url, siteURL: statement.text(3),
                lastError: statement.text(4), tags: Self.splitTags(statement.text(7) ?? ""))
            feed.disabled = statement.bool(8)
            feeds.append(
                FeedSummary(feed: feed, total: Int(statement.int64(5)), unread: Int(statement.int64(6))))
        }
        return feeds
    }

    static let summaryColumns = "a.id, a.feed_id, a.title, a.author, a.published, a.read, a.starred, a.sort_time"

    static func summary(_ row: SQLiteStatement, offset: Int32 = 0) -> ArticleSummary {
        ArticleSummary(
            id: String(row.int64(offset)), feedID: FeedID(row: row.int64(offset + 1)),
            title: row.text(offset + 2) ?? "", author: row.text(offset + 3),
            published: row.optionalInt64(offset + 4).map { Date(timeIntervalSince1970: Double($0)) },
            isRead: row.bool(offset + 5), isStarred: row.bool(offset + 6), sortTime: row.int64(offset + 7))
    }

    public func article(id: String) throws -> Article {
        let statement = try db.prepare(
            "SELECT \(Self.summaryColumns), f.title, a.link, a.body, a.enclosures, a.image FROM articles a "
                + "JOIN feeds f ON f.id = a.feed_id WHERE a.id = ?1")
        try statement.bind(.integer(Int64(id) ?? -1))
        let article = try statement.firstRow { row in
            let body = try row.withBlob(10) { try bodies.unpack($0) }
            return Article(
                summary: Self.summary(row), feedTitle: row.text(8) ?? "", link: row.text(9),
                text: body.text, html: body.html, enclosures: Self.enclosures(row.text(11)),
                image: row.text(12))
        }
        guard var article else { throw RepositoryError.noSuchArticle(id) }
        article.full = try fullArticle(articleID: id)
        return article
    }

    /// Enclosures are stored as a JSON array (NULL when there are none, as for most articles).
    static func enclosures(_ json: String?) -> [Enclosure] {
        guard let json, !json.isEmpty else { return [] }
        return (try? JSONDecoder().decode([Enclosure].self, from: Data(json.utf8))) ?? []
    }

    nonisolated static func enclosuresJSON(_ enclosures: [Enclosure]) -> String? {
        guard !enclosures.isEmpty, let data = try? JSONEncoder().encode(enclosures) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The row of a feed the reader names by its id (its row number, as `feedSummaries`
    /// gives it; an id made from an address, `Feed(url:)`, names the feed at that address);
    /// `noSuchFeed` when the library has no such feed (any more). Addresses are never bare
    /// numbers (subscriptions are URLs or paths), so the two cannot be confused.
    func feedRowID(_ id: FeedID) throws -> Int64 {
        guard let row = id.row else { return try feedRowID(id.rawValue) }
        let statement = try db.prepare("SELECT id FROM feeds WHERE id = ?1")
        try statement.bind(.integer(row))
        guard let row = try statement.firstRow({ $0.int64(0) }) else { throw RepositoryError.noSuchFeed(id.rawValue) }
        return row
    }

    /// The id of the feed at an address (`noSuchFeed` when the library has none there).
    public func feedID(url: String) throws -> FeedID { FeedID(row: try feedRowID(url)) }

    /// Whether another connection committed to the library since the last call: SQLite's
    /// `data_version` moves for other connections' commits only, not this one's.
    public func changedElsewhere() -> Bool {
        guard let version = try? db.integer("PRAGMA data_version") else { return false }
        defer { seenVersion = version }
        return seenVersion >= 0 && version != seenVersion
    }

    /// The row of the feed at an address (the CLI, sync and imports name feeds by address).
    func feedRowID(_ url: String) throws -> Int64 {
        let version = try db.integer("PRAGMA data_version")
        if version != feedRowIDsVersion {
            feedRowIDs.removeAll()
            feedRowIDsVersion = version
        }
        if let id = feedRowIDs[url] { return id }
        let statement = try db.prepare("SELECT id FROM feeds WHERE url = ?1")
        try statement.bind(.text(url))
        guard let id = try statement.firstRow({ $0.int64(0) }) else { throw RepositoryError.noSuchFeed(url) }
        feedRowIDs[url] = id
        return id
    }

    /// Every article matching `filter` in list order (for `herald list`), at most `limit`:
    /// read in keyset pages and handed to `body` one page at a time, so the library is never
    /// in memory whole.
    ///
    /// As in the lists, `CROSS JOIN` keeps `articles` the outer loop so an article index
    /// drives the walk; a tag is its feeds' row ids (`a.feed_id IN (…)`). A tag no feed has
    /// matches nothing; an unknown feed throws `RepositoryError.noSuchFeed`.
    public func forEachArticle(
        matching filter: ArticleFilter, limit: Int? = nil, pageSize: Int = 500,
        _ body: ([ArticleListing]) throws -> Void
    ) throws {
        var conditions: [String] = []
        var values: [SQLiteValue] = []
        if let feed = filter.feed {
            values.append(.integer(try feedRowID(feed)))
            conditions.append("a.feed_id = ?\(values.count)")
        }
        if filter.starredOnly { conditions.append("a.starred = 1") }
        if filter.unreadOnly { conditions.append("a.read = 0") }
        if let tag = filter.tag {
            // A tag is read as a merge of its feeds' index walks (`a.feed_id IN (…)` would
            // make SQLite sort the tag's whole remainder for every page).
            var feeds = try feedRowIDs(tagged: tag)
            if let feed = filter.feed { feeds = feeds.filter { $0 == (try? feedRowID(feed)) } }
            try forEachMerged(feeds: feeds, where: conditions, limit: limit, pageSize: pageSize, body)
            return
        }
        var remaining = limit ?? Int.max
        var last: ArticleSortKey?
        while remaining > 0 {
            var clauses = conditions
            var bound = values
            if let last {
                bound += [.integer(last.time), .integer(Int64(last.id) ?? 0)]
                clauses.append("(a.sort_time, a.id) < (?\(bound.count - 1), ?\(bound.count))")
            }
            let wanted = min(pageSize, remaining)
            bound.append(.integer(Int64(wanted)))
            let statement = try db.prepare(
                "SELECT \(Self.summaryColumns), a.link, a.enclosures FROM articles a CROSS JOIN feeds f ON f.id = a.feed_id "
                    + (clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ") + " ")
                    + "ORDER BY a.sort_time DESC, a.id DESC LIMIT ?\(bound.count)")
            try statement.bind(bound)
            var page: [ArticleListing] = []
            while try statement.step() {
                page.append(
                    ArticleListing(
                        summary: Self.summary(statement), link: statement.text(8),
                        enclosures: Self.enclosures(statement.text(9))))
            }
            guard !page.isEmpty else { return }
            try body(page)
            remaining -= page.count
            guard page.count == wanted, let tail = page.last else { return }
            last = tail.summary.sortKey
        }
    }
}

/// Why the library could not be used, in words a user can act on.
public enum StoreError: Error, Sendable, CustomStringConvertible {
    case newerSchema(path: String, found: Int, known: Int)

    public var description: String {
        switch self {
        case .newerSchema(let path, let found, let known):
            "\(path) was written by a newer Herald (schema \(found); this Herald knows up to \(known)). "
                + "Upgrade Herald, or open another library with --db PATH."
        }
    }
}

extension LibraryStore {
    /// `forEachArticle` for a set of feeds read as a merge: pages of summaries in list order,
    /// then each page's links and enclosures in one query.
    private func forEachMerged(
        feeds: [Int64], where conditions: [String], limit: Int?, pageSize: Int,
        _ body: ([ArticleListing]) throws -> Void
    ) throws {
        guard !feeds.isEmpty else { return }
        var remaining = limit ?? Int.max
        var last: ArticleSortKey?
        while remaining > 0 {
            let wanted = min(pageSize, remaining)
            let page = try merged(
                feeds: feeds, where: conditions, after: last, forward: true, limit: wanted, skip: 0)
            guard !page.isEmpty else { return }
            let ids = page.map { Int64($0.id) ?? -1 }
            let statement = try db.prepareUncached(
                "SELECT id, link, enclosures FROM articles WHERE id IN ("
                    + ids.map(String.init).joined(separator: ",")
                    + ")")
            var extras: [String: (String?, String?)] = [:]
            while try statement.step() {
                extras[String(statement.int64(0))] = (statement.text(1), statement.text(2))
            }
            try body(
                page.map { summary in
                    let (link, enclosures) = extras[summary.id] ?? (nil, nil)
                    return ArticleListing(
                        summary: summary, link: link, enclosures: Self.enclosures(enclosures))
                })
            remaining -= page.count
            guard page.count == wanted, let tail = page.last else { return }
            last = tail.sortKey
        }
    }

    /// SQLite's plan for a query, one step per line (tests of index use).
    func queryPlan(_ sql: String) throws -> String {
        let statement = try db.prepare("EXPLAIN QUERY PLAN " + sql)
        var steps: [String] = []
        while try statement.step() { steps.append(statement.text(3) ?? "") }
        return steps.joined(separator: "\n")
    }
}
