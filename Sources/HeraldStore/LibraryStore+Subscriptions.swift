public import HeraldCore

extension LibraryStore {
    /// Adds a subscription, or updates the title, site and tags of a known one. Returns true
    /// when the feed is new.
    @discardableResult
    public func subscribe(_ subscription: Subscription) throws -> Bool {
        try markInitialized()
        let known = try db.prepare("SELECT 1 FROM feeds WHERE url = ?1").bind(.text(subscription.url))
            .firstRow { _ in true } ?? false
        let statement = try db.prepare(
            """
            INSERT INTO feeds(url, title, site_url, tags, position)
                VALUES (?1, ?2, ?3, ?4, (SELECT coalesce(max(position), 0) + 1 FROM feeds))
            ON CONFLICT(url) DO UPDATE SET
                title = coalesce(?5, feeds.title), site_url = coalesce(excluded.site_url, feeds.site_url),
                tags = excluded.tags
            """)
        try statement.bind(
            .text(subscription.url), .text(subscription.title ?? subscription.url), .optional(subscription.siteURL),
            .text(Self.joinTags(subscription.tags)), .optional(subscription.title)
        ).run()
        return !known
    }

    /// Every subscription, in feed-list order.
    public func subscriptions() throws -> [Subscription] {
        let statement = try db.prepare("SELECT url, title, site_url, tags FROM feeds ORDER BY position, id")
        var found: [Subscription] = []
        while try statement.step() {
            found.append(
                Subscription(
                    url: statement.text(0) ?? "", title: statement.text(1), siteURL: statement.text(2),
                    tags: Self.splitTags(statement.text(3) ?? "")))
        }
        return found
    }

    /// Tags are stored tab-separated (a tab cannot be in a tag: tags are single-line text).
    static func joinTags(_ tags: [String]) -> String { tags.joined(separator: "\t") }
    static func splitTags(_ text: String) -> [String] { text.split(separator: "\t").map(String.init) }
}

extension LibraryStore {
    /// Removes a feed with all its articles (and their search index entries). Returns false
    /// when there was no such feed.
    @discardableResult
    public func unsubscribe(url: String) throws -> Bool {
        guard let feed = try? feedRowID(url) else { return false }
        try db.transaction {
            let rows = try db.prepare("SELECT id, title, author, text FROM articles WHERE feed_id = ?1")
            try rows.bind(.integer(feed))
            var entries: [(Int64, String, String?, String)] = []
            while try rows.step() {
                entries.append((rows.int64(0), rows.text(1) ?? "", rows.text(2), rows.text(3) ?? ""))
            }
            for (id, title, author, text) in entries {
                try SearchIndex.remove(id: id, title: title, author: author, text: text, in: db)
            }
            try db.prepare("DELETE FROM articles WHERE feed_id = ?1").bind(.integer(feed)).run()
            try db.prepare("DELETE FROM feeds WHERE id = ?1").bind(.integer(feed)).run()
        }
        feedRowIDs[url] = nil
        return true
    }
}
