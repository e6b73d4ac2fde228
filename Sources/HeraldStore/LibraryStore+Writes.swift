public import Foundation
public import HeraldCore

extension LibraryStore {
    /// Adds a feed or updates its title and site; returns its row id.
    @discardableResult
    public func upsertFeed(url: String, title: String, siteURL: String?) throws -> Int64 {
        let statement = try db.prepare(
            """
            INSERT INTO feeds(url, title, site_url, position)
                VALUES (?1, ?2, ?3, (SELECT coalesce(max(position), 0) + 1 FROM feeds))
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
    @discardableResult
    public func upsertArticles(feedURL: String, items: [ParsedItem], now: Date = Date()) throws -> Int {
        let feed = try feedRowID(feedURL)
        let seen = Int64(now.timeIntervalSince1970)
        return try db.transaction {
            let find = try db.prepare(
                "SELECT id, title, author, text FROM articles WHERE feed_id = ?1 AND guid = ?2")
            var added = 0
            for item in items {
                try find.bind(.integer(feed), .text(item.id))
                let published = item.published.map { Int64($0.timeIntervalSince1970) }
                let updated = item.updated.map { Int64($0.timeIntervalSince1970) }
                let known = try find.firstRow { row in
                    (id: row.int64(0), title: row.text(1) ?? "", author: row.text(2), text: row.text(3) ?? "")
                }
                if let old = known {
                    let id = old.id
                    let update = try db.prepare(
                        """
                        UPDATE articles SET title = ?2, link = ?3, author = ?4, published = ?5,
                            sort_time = coalesce(?5, first_seen), text = ?6, html = ?7, updated = ?8,
                            enclosures = ?9, image = ?10
                        WHERE id = ?1
                        """)
                    try update.bind(
                        .integer(id), .text(item.title), .optional(item.link), .optional(item.author),
                        .optional(published), .text(item.text), .optional(item.html), .optional(updated),
                        .optional(Self.enclosuresJSON(item.enclosures)), .optional(item.image)
                    ).run()
                    if (old.title, old.author, old.text) != (item.title, item.author, item.text) {
                        try SearchIndex.remove(
                            id: id, title: old.title, author: old.author, text: old.text, in: db)
                        try SearchIndex.add(
                            id: id, title: item.title, author: item.author, text: item.text, in: db)
                    }
                } else {
                    let insert = try db.prepare(
                        """
                        INSERT INTO articles(feed_id, guid, title, link, author, published, sort_time,
                            text, first_seen, html, updated, enclosures, image)
                        VALUES (?1, ?2, ?3, ?4, ?5, ?6, coalesce(?6, ?7), ?8, ?7, ?9, ?10, ?11, ?12)
                        """)
                    try insert.bind(
                        .integer(feed), .text(item.id), .text(item.title), .optional(item.link),
                        .optional(item.author), .optional(published), .integer(seen), .text(item.text),
                        .optional(item.html), .optional(updated),
                        .optional(Self.enclosuresJSON(item.enclosures)),
                        .optional(item.image)
                    ).run()
                    try SearchIndex.add(
                        id: db.lastInsertRowID, title: item.title, author: item.author, text: item.text,
                        in: db)
                    added += 1
                }
            }
            return added
        }
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
            try upsertFeed(url: feed.id, title: feed.title, siteURL: feed.siteURL)
            try setFeedError(url: feed.id, feed.lastError)
            if demo { try db.prepare("UPDATE feeds SET demo = 1 WHERE url = ?1").bind(.text(feed.id)).run() }
            let items = articles.map { article in
                ParsedItem(
                    id: String(article.id.split(separator: "#", maxSplits: 1).last ?? Substring(article.id)),
                    title: article.summary.title, link: article.link, author: article.summary.author,
                    published: article.summary.published, text: article.text, html: article.html,
                    enclosures: article.enclosures, image: article.image)
            }
            try upsertArticles(feedURL: feed.id, items: items, now: now)
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

    private func setFlag(_ column: String, _ value: Bool, _ articleID: String) throws {
        let statement = try db.prepare("UPDATE articles SET \(column) = ?2 WHERE id = ?1")
        try statement.bind(.integer(Int64(articleID) ?? -1), .bool(value)).run()
        if db.changes == 0 { throw RepositoryError.noSuchArticle(articleID) }
    }

}
