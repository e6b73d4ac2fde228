public import Foundation
public import HeraldCore

extension LibraryStore {
    /// Adds a feed or updates its title and site; returns its row id.
    @discardableResult
    public func upsertFeed(url: String, title: String, siteURL: String?) throws -> Int64 {
        let statement = try db.prepare(
            """
            INSERT INTO feeds(url, title, site_url, position)
                VALUES (?1, ?2, ?3, \(Self.nextPosition))
            ON CONFLICT(url) DO UPDATE SET title = excluded.title, site_url = excluded.site_url
            RETURNING id
            """)
        try statement.bind(.text(url), .text(title), .optional(siteURL))
        guard let id = try statement.firstRow({ $0.int64(0) }) else { throw RepositoryError.noSuchFeed(url) }
        feedRowIDs[url] = id
        return id
    }

    /// Stores a feed's items in one transaction: new ones are inserted unread, known ones
    /// (same feed and id) updated in place, keeping their read and starred flags. Returns
    /// how many were new.
    ///
    /// The known ones are found with one query for the batch. An item whose stored row would
    /// not change (the usual case when a feed is read again) is not written at all, and the
    /// search index is touched only when the title, author or text changed.
    @discardableResult
    public func upsertArticles(feedURL: String, items: [ParsedItem], now: Date = Date()) throws -> Int {
        let known = try knownArticles(feedURL: feedURL, guids: items.map(\.id))
        return try upsertArticles(feedURL: feedURL, prepared: Self.prepare(items, known: known), now: now)
    }

    /// Stores items prepared by `prepare(_:known:)` (on another thread), as above. An item
    /// prepared as unchanged that has changed since is packed here.
    @discardableResult
    public func upsertArticles(feedURL: String, prepared: [PreparedItem], now: Date = Date()) throws -> Int {
        try db.transaction {
            var index = SearchIndex.Pending()
            let added = try upsertArticles(feedURL: feedURL, prepared: prepared, now: now, index: &index)
            try index.apply(in: db)
            return added
        }
    }

    /// Writes the rows and leaves the search index's changes in `index`, for the caller to
    /// apply after its other row writes (see `SearchIndex.Pending`). Runs in the caller's
    /// transaction.
    ///
    /// New items go in together, several to a statement (`insertArticles`); then known ones
    /// are updated one by one, and so is an item the feed lists twice (its second copy
    /// updates what its first inserted, as when they came one after the other).
    func upsertArticles(
        feedURL: String, prepared: [PreparedItem], now: Date, index: inout SearchIndex.Pending
    ) throws -> Int {
        let feed = try feedRowID(feedURL)
        let guids = prepared.map(\.item.id)
        var known = try storedArticles(feed: feed, guids: guids)
        // Retention took some away: they stay away while the feed still lists them. Hidden
        // ones stay as they are, out of sight (`LibraryStore+Hidden.swift`).
        let away = try removedGuids(feed: feed, among: guids).union(try hiddenGuids(feed: feed, among: guids))
        var new: [NewArticle] = []
        var again: [PreparedItem] = []
        var newGuids = Set<String>()
        for entry in prepared where !away.contains(entry.item.id) {
            if known[entry.item.id] == nil, newGuids.insert(entry.item.id).inserted {
                let body = entry.body ?? bodies.pack(text: entry.item.text, html: entry.item.html)
                new.append(NewArticle(entry: entry, body: body))
            } else {
                again.append(entry)
            }
        }
        let ids = try insertArticles(new, feed: feed, seen: Int64(now.timeIntervalSince1970))
        for (article, id) in zip(new, ids) {
            let item = article.entry.item
            index.add(id: id, item: item, entry: article.entry.search)
            known[item.id] = (id, article.entry.row, article.body)
        }
        for entry in again {
            let (item, row) = (entry.item, entry.row)
            guard let old = known[item.id], old.row != row else { continue }
            let body = entry.body ?? bodies.pack(text: item.text, html: item.html)
            try db.prepare(
                """
                UPDATE articles SET title = ?2, link = ?3, author = ?4, published = ?5,
                    sort_time = coalesce(?5, first_seen), updated = ?6, enclosures = ?7, image = ?8,
                    body = ?9
                WHERE id = ?1
                """
            ).bind([.integer(old.id)] + row.values + [.blob(body)]).run()
            let oldText = try old.blob.withUnsafeBytes { try bodies.unpackText($0) }
            if (old.row.title, old.row.author, oldText) != (item.title, item.author, item.text) {
                index.remove(id: old.id, title: old.row.title, author: old.row.author, text: oldText)
                index.add(id: old.id, item: item, entry: entry.search)
            }
            known[item.id] = (old.id, row, body)
        }
        return new.count
    }

    /// The stored rows of a feed's articles with these guids, by guid.
    func storedArticles(feed: Int64, guids: [String]) throws -> [String: StoredRow] {
        guard !guids.isEmpty else { return [:] }
        // The guids go in as one JSON array; CROSS JOIN keeps it the outer loop, so each is
        // one probe of the (feed_id, guid) index however many articles the feed has.
        let statement = try db.prepare(
            """
            SELECT a.guid, a.id, a.title, a.link, a.author, a.published, a.updated, a.enclosures, a.image, a.body
            FROM json_each(?2) AS j CROSS JOIN articles a ON a.feed_id = ?1 AND a.guid = j.value
            """)
        let json = String(decoding: try JSONEncoder().encode(guids), as: UTF8.self)
        try statement.bind(.integer(feed), .text(json))
        var rows: [String: StoredRow] = [:]
        while try statement.step() {
            let row = StoredArticle(
                title: statement.text(2) ?? "", link: statement.text(3), author: statement.text(4),
                published: statement.optionalInt64(5), updated: statement.optionalInt64(6),
                enclosures: statement.text(7), image: statement.text(8),
                body: try statement.withBlob(9) { try ArticleBody.Digest(blob: $0) })
            rows[statement.text(0) ?? ""] = (statement.int64(1), row, statement.blob(9))
        }
        return rows
    }

    /// Records why the last read of a feed failed (nil: it worked).
    public func setFeedError(url: String, _ error: String?) throws {
        try db.prepare("UPDATE feeds SET last_error = ?2 WHERE url = ?1").bind(.text(url), .optional(error))
            .run()
    }

    /// Imports parsed feeds (the bundled demo, a directory of feed files). With `demo`, the
    /// feeds are marked as the demo's, to be removed when the user subscribes to their own.
    public func importFeeds(_ feeds: [(Feed, [Article])], demo: Bool = false, now: Date = Date()) throws {
        try markInitialized()
        for (feed, articles) in feeds {
            try upsertFeed(url: feed.url, title: feed.title, siteURL: feed.siteURL)
            try setFeedError(url: feed.url, feed.lastError)
            if demo { try db.prepare("UPDATE feeds SET demo = 1 WHERE url = ?1").bind(.text(feed.url)).run() }
            let items = articles.map { article in
                ParsedItem(
                    id: String(article.id.split(separator: "#", maxSplits: 1).last ?? Substring(article.id)),
                    title: article.summary.title, link: article.link, author: article.summary.author,
                    published: article.summary.published, text: article.text, html: article.html,
                    enclosures: article.enclosures, image: article.image)
            }
            try upsertArticles(feedURL: feed.url, items: items, now: now)
        }
    }

    /// True when the library holds no feed.
    public var isEmpty: Bool { ((try? db.integer("SELECT count(*) FROM feeds")) ?? 0) == 0 }

    /// True for a brand-new library: no feed was ever added (removing every feed later does
    /// not make it new again, so the demo feeds never come back uninvited).
    public var isNew: Bool {
        ((try? db.integer("SELECT count(*) FROM meta WHERE key = 'initialized'")) ?? 0) == 0
    }

    /// Records that the library has been set up (feeds imported or subscribed).
    /// The place after the last in the feed list, for a new feed: read from the
    /// `feeds_position` index (schema 14), not a scan of every feed.
    static let nextPosition = "(SELECT coalesce(max(position), 0) + 1 FROM feeds)"

    func markInitialized() throws {
        try db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('initialized', '1')")
    }

    // MARK: Flags

    public func setRead(_ isRead: Bool, articleID: String) throws {
        try setFlag("read", isRead, articleID)
    }

    public func setStarred(_ isStarred: Bool, articleID: String) throws {
        try setFlag("starred", isStarred, articleID)
    }

    /// Sets a flag on these articles in one transaction; returns the ids whose flag changed
    /// (undo restores exactly those).
    public func setFlag(_ flag: ArticleFlag, _ value: Bool, articleIDs: [String]) throws -> [String] {
        // The ids go in as one JSON array of numbers: one statement however many there are.
        let numbers = articleIDs.compactMap { Int64($0) }
        let json = String(decoding: try JSONEncoder().encode(numbers), as: UTF8.self)
        let sql =
            "UPDATE articles SET \(flag.rawValue) = ?2 WHERE id IN (SELECT value FROM json_each(?1))"
            + " AND \(flag.rawValue) != ?2 RETURNING id"
        return try db.transaction {
            try changedIDs(db.prepare(sql).bind(.text(json), .bool(value)))
        }
    }

    /// Sets a flag on every article of a list that lacks it, in one transaction; returns
    /// their ids.
    public func setFlag(_ flag: ArticleFlag, _ value: Bool, in source: ArticleSource) throws -> [String] {
        // The new value is bound after the source's own values (?1 …).
        func update(_ conditions: [String], _ values: [SQLiteValue]) throws -> [String] {
            let slot = values.count + 1
            let sql =
                "UPDATE articles AS a SET \(flag.rawValue) = ?\(slot) WHERE "
                + (conditions + ["a.\(flag.rawValue) != ?\(slot)"]).joined(separator: " AND ")
                + " RETURNING id"
            return try changedIDs(db.prepare(sql).bind(values + [.bool(value)]))
        }
        func all() throws -> [String] {
            try db.transaction {
                guard case .tag(let name) = source.unordered else {
                    let (conditions, values) = try filter(source)
                    return try update(conditions, values)
                }
                return try feedRowIDs(tagged: name).flatMap { try update(["a.feed_id = ?1"], [.integer($0)]) }
            }
        }
        // Marking whole feeds read syncs as one operation per feed. A query's too-slow
        // pattern stops its statement before it changes anything (`QueryFunctions`).
        return try RegexBudget.scoped {
            flag == .read && value ? try markingAllRead(source, all) : try all()
        }
    }

    /// Steps an `UPDATE … RETURNING id` to its end: the ids it changed.
    private func changedIDs(_ statement: SQLiteStatement) throws -> [String] {
        var ids: [String] = []
        while try statement.step() { ids.append(String(statement.int64(0))) }
        return ids
    }

    private func setFlag(_ column: String, _ value: Bool, _ articleID: String) throws {
        let statement = try db.prepare("UPDATE articles SET \(column) = ?2 WHERE id = ?1")
        try statement.bind(.integer(Int64(articleID) ?? -1), .bool(value)).run()
        if db.changes == 0 { throw RepositoryError.noSuchArticle(articleID) }
    }

}

/// A known article: its id, what it holds, and its body as stored.
typealias StoredRow = (id: Int64, row: StoredArticle, blob: [UInt8])

/// The columns an item's own content sets, as stored (the body by its digest): equal values
/// mean nothing to write.
struct StoredArticle: Equatable, Sendable {
    var title: String
    var link: String?
    var author: String?
    var published: Int64?
    var updated: Int64?
    var enclosures: String?
    var image: String?
    var body: ArticleBody.Digest

    init(
        title: String, link: String?, author: String?, published: Int64?, updated: Int64?,
        enclosures: String?,
        image: String?, body: ArticleBody.Digest
    ) {
        (self.title, self.link, self.author, self.published) = (title, link, author, published)
        (self.updated, self.enclosures, self.image, self.body) = (updated, enclosures, image, body)
    }

    init(_ item: ParsedItem) {
        self.init(
            title: item.title, link: item.link, author: item.author,
            published: item.published.flatMap(FeedDate.seconds),
            updated: item.updated.flatMap(FeedDate.seconds),
            enclosures: LibraryStore.enclosuresJSON(item.enclosures), image: item.image,
            body: ArticleBody.Digest(text: item.text, html: item.html))
    }

    /// Title, link, author, published, updated, enclosures, image: in statement order.
    var values: [SQLiteValue] {
        [
            .text(title), .optional(link), .optional(author), .optional(published), .optional(updated),
            .optional(enclosures), .optional(image),
        ]
    }
}
