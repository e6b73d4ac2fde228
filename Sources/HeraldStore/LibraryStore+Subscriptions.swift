import Foundation
public import HeraldCore

/// What subscribing did to the library.
public enum SubscribeResult: Sendable, Hashable {
    /// The feed was not in the library; it is now.
    case new
    /// The feed was known and gained tags (those listed, in order) or a title (nil: kept).
    case updated(newTags: [String], title: String?)
    /// The feed was known and nothing changed.
    case unchanged
}

extension LibraryStore {
    /// Adds a subscription, or merges it into the known feed with that URL.
    ///
    /// A merge never takes anything away: the feed keeps its tags and gains the new ones,
    /// keeps its site address (one is only filled in when missing) and keeps its title. A
    /// title replaces the stored one only when `replacingTitle` (the user typed it: `herald
    /// add --title`), when the stored one is still the URL placeholder, or for a demo feed
    /// (its title is the feed's own). A title the feed gave itself on a reload cannot be told
    /// from one the user chose (the schema does not record who set a title), so it is kept.
    ///
    /// A demo feed named here becomes the user's own: it stays when the demo feeds go.
    @discardableResult
    public func subscribe(_ subscription: Subscription, replacingTitle: Bool = false) throws
        -> SubscribeResult
    {
        try markInitialized()
        let url = subscription.url
        let tags = Self.cleanTags(subscription.tags)
        let title = subscription.title.map {
            TextSanitizer.singleLine($0).trimmingCharacters(in: .whitespaces)
        }
        .flatMap { $0.isEmpty ? nil : $0 }
        return try db.transaction {
            // A feed's own title and tags (a `title` or `tags` setting may be shown instead).
            let known = try db.prepare(
                "SELECT coalesce(own_title, title), coalesce(own_tags, tags), demo FROM feeds WHERE url = ?1"
            ).bind(.text(url))
                .firstRow { row in
                    (title: row.text(0) ?? "", tags: Self.splitTags(row.text(1) ?? ""), demo: row.bool(2))
                }
            // An archived feed subscribed to again is a new subscription (with the tags given).
            if known != nil, try unarchive(url: url) {
                try db.prepare("UPDATE feeds SET demo = 0, tags = ?2 WHERE url = ?1").bind(
                    .text(url), .text(Self.joinTags(tags))
                ).run()
                // No row was inserted, so no trigger saw it: the subscription is captured here.
                try capture(SyncChange(kind: .sub, feedURL: url, value: "1"))
                try capture(SyncChange(kind: .tags, feedURL: url, value: Self.joinTags(tags)))
                return .new
            }
            guard let known else {
                try db.prepare(
                    """
                    INSERT INTO feeds(url, title, site_url, tags, position)
                        VALUES (?1, ?2, ?3, ?4, \(Self.nextPosition))
                    """
                ).bind(
                    .text(url), .text(title ?? url), .optional(subscription.siteURL),
                    .text(Self.joinTags(tags))
                )
                .run()
                return .new
            }
            let newTags = tags.filter { !known.tags.contains($0) }
            var newTitle: String?
            if let title, title != known.title, replacingTitle || known.title == url || known.demo {
                newTitle = title
            }
            try db.prepare(
                """
                UPDATE feeds SET site_url = coalesce(site_url, ?4), demo = 0,
                    -- Under a setting, the feed's own title and tags change, not what is shown.
                    title = CASE WHEN own_title IS NULL THEN coalesce(?2, title) ELSE title END,
                    own_title = CASE WHEN own_title IS NULL THEN NULL ELSE coalesce(?2, own_title) END,
                    tags = CASE WHEN own_tags IS NULL THEN ?3 ELSE tags END,
                    own_tags = CASE WHEN own_tags IS NULL THEN NULL ELSE ?3 END
                WHERE url = ?1
                """
            ).bind(
                .text(url), .optional(newTitle), .text(Self.joinTags(known.tags + newTags)),
                .optional(subscription.siteURL)
            ).run()
            return newTags.isEmpty && newTitle == nil
                ? .unchanged : .updated(newTags: newTags, title: newTitle)
        }
    }

    /// Subscribes to each of `subscriptions` in order (see `subscribe`), in one transaction:
    /// an import of thousands of feeds writes the file once, not once per feed.
    public func subscribe(all subscriptions: [Subscription]) throws -> [SubscribeResult] {
        try db.transaction { try subscriptions.map { try subscribe($0) } }
    }

    /// True when a feed with this URL is in the library (an archived one is not).
    public func hasFeed(url: String) throws -> Bool {
        try db.prepare("SELECT 1 FROM feeds f WHERE url = ?1 AND \(Self.notArchived("f"))").bind(.text(url))
            .firstRow { _ in true } ?? false
    }

    /// Every subscription, in feed-list order.
    public func subscriptions() throws -> [Subscription] {
        let statement = try db.prepare(
            "SELECT url, title, site_url, tags FROM feeds f WHERE \(Self.notArchived("f")) ORDER BY position, id")
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

    /// Tags as they may be stored: one line each (so never a tab), trimmed, none empty, each once.
    static func cleanTags(_ tags: [String]) -> [String] {
        var clean: [String] = []
        for tag in tags {
            let line = TextSanitizer.singleLine(tag).trimmingCharacters(in: .whitespaces)
            if !line.isEmpty, !clean.contains(line) { clean.append(line) }
        }
        return clean
    }
}

extension LibraryStore {
    /// Removes a feed with all its articles (and their search index entries), the hidden
    /// ones too. Returns false when there was no such feed.
    @discardableResult
    public func unsubscribe(url: String) throws -> Bool {
        guard let feed = try? feedRowID(url) else { return false }
        try db.transaction {
            try removeArticles(feed: feed, where: "1")
            // The foreign key would take them with the feed; said here, as the articles are.
            try db.prepare("DELETE FROM hidden_articles WHERE feed_id = ?1").bind(.integer(feed)).run()
            try db.prepare("DELETE FROM feeds WHERE id = ?1").bind(.integer(feed)).run()
        }
        feedRowIDs[url] = nil
        return true
    }

    /// Removes the articles of `feed` that `condition` (SQL over `articles`) holds for, with
    /// their search entries.
    func removeArticles(feed: Int64, where condition: String) throws {
        let rows = try db.prepare(
            "SELECT id, title, author, body FROM articles WHERE feed_id = ?1 AND (\(condition))")
        try rows.bind(.integer(feed))
        var entries: [(Int64, String, String?, String)] = []
        while try rows.step() {
            let text = try rows.withBlob(3) { try bodies.unpackText($0) }
            entries.append((rows.int64(0), rows.text(1) ?? "", rows.text(2), text))
        }
        // Articles still waiting for the indexer have no entries to remove.
        let through = try SearchIndex.indexedThrough(in: db) ?? .max
        for (id, title, author, text) in entries where id <= through {
            try SearchIndex.remove(id: id, title: title, author: author, text: text, in: db)
        }
        try db.prepare("DELETE FROM articles WHERE feed_id = ?1 AND (\(condition))").bind(.integer(feed)).run()
    }
}
