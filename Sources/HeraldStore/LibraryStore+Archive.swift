import Foundation
import HeraldCore

/// Archived feeds: a feed unsubscribed by something other than the user's own hand (another
/// device through sync) whose articles include starred ones. Nothing but the user deletes a
/// starred article, so the feed's row stays to hold them, marked archived (a `feed_settings`
/// row of key `archived`, which no config or command can set): it leaves the feed list, the
/// reloads, the subscriptions and sync's list of them, its other articles go, and its
/// starred ones stay in Starred, All articles and search. Subscribing to it again (here or
/// on another device) brings it back; an article unstarred goes, and the feed once none is
/// left.
extension LibraryStore {
    /// The `feed_settings` key that marks a feed archived.
    static let archivedKey = "archived"

    /// SQL true for a feed row (`alias.id`) that is not archived.
    static func notArchived(_ alias: String) -> String {
        "NOT EXISTS (SELECT 1 FROM feed_settings WHERE feed_id = \(alias).id AND key = '\(archivedKey)')"
    }

    /// Unsubscribes from the feed at `url` for another device: without starred articles it
    /// goes whole (`unsubscribe`); with them, it is archived and only its other articles go.
    /// Returns the articles removed and the starred ones kept (nil: no such feed here).
    func unsubscribeKeepingStarred(url: String) throws -> (removed: Int, kept: Int)? {
        guard let starred = try starredCount(url: url), let total = try articleCount(url: url) else { return nil }
        guard starred > 0 else { return try unsubscribe(url: url) ? (total, 0) : nil }
        let feed = try feedRowID(url)
        try db.transaction {
            try removeArticles(feed: feed, where: "starred = 0")
            // Hidden articles are never starred: they go too.
            try db.prepare("DELETE FROM hidden_articles WHERE feed_id = ?1").bind(.integer(feed)).run()
            try db.prepare(
                "INSERT OR REPLACE INTO feed_settings(feed_id, key, source, value) VALUES (?1, ?2, 'library', 'yes')"
            ).bind(.integer(feed), .text(Self.archivedKey)).run()
            // Subscribed again, it is fetched whole: the articles removed come back.
            try db.prepare(
                "UPDATE feeds SET tags = '', own_tags = NULL, etag = NULL, last_modified = NULL WHERE id = ?1"
            ).bind(.integer(feed)).run()
        }
        return (total - starred, starred)
    }

    /// Takes the feed at `url` out of the archive; true when it was archived.
    @discardableResult
    func unarchive(url: String) throws -> Bool {
        try db.prepare(
            "DELETE FROM feed_settings WHERE key = ?2 AND feed_id = (SELECT id FROM feeds WHERE url = ?1)"
        ).bind(.text(url), .text(Self.archivedKey)).run()
        return db.changes > 0
    }

    /// Whether the feed at `url` is archived.
    public func isArchived(url: String) throws -> Bool {
        try db.prepare(
            """
            SELECT 1 FROM feeds f JOIN feed_settings s ON s.feed_id = f.id AND s.key = ?2 WHERE f.url = ?1
            """
        ).bind(.text(url), .text(Self.archivedKey)).firstRow { _ in true } ?? false
    }

    /// An archived feed keeps starred articles only: those unstarred since (here, or by a flag
    /// from another device) go, and a feed left with none goes too.
    func tidyArchivedFeeds() throws {
        // Not the user's doing: nothing is captured for sync (a feed row deleted would
        // otherwise go out as an unsubscription).
        try withoutCapture { try tidyArchive() }
    }

    private func tidyArchive() throws {
        let statement = try db.prepare(
            """
            SELECT f.id, f.url, EXISTS (SELECT 1 FROM articles a WHERE a.feed_id = f.id AND a.starred = 1)
            FROM feeds f JOIN feed_settings s ON s.feed_id = f.id AND s.key = ?1
            """)
        try statement.bind(.text(Self.archivedKey))
        var feeds: [(id: Int64, url: String, starred: Bool)] = []
        while try statement.step() { feeds.append((statement.int64(0), statement.text(1) ?? "", statement.bool(2))) }
        for feed in feeds {
            if feed.starred {
                try removeArticles(feed: feed.id, where: "starred = 0")
            } else {
                try unsubscribe(url: feed.url)
            }
        }
    }

    /// The starred articles of the feed at `url` (nil: no such feed).
    func starredCount(url: String) throws -> Int? {
        guard let feed = try? feedRowID(url) else { return nil }
        return Int(
            try db.prepare("SELECT count(*) FROM articles WHERE feed_id = ?1 AND starred = 1").bind(
                .integer(feed)
            ).firstRow { $0.int64(0) } ?? 0)
    }

    /// The articles of the feed at `url` (nil: no such feed).
    func articleCount(url: String) throws -> Int? {
        guard let feed = try? feedRowID(url) else { return nil }
        return Int(
            try db.prepare("SELECT count(*) FROM articles WHERE feed_id = ?1").bind(.integer(feed)).firstRow {
                $0.int64(0)
            } ?? 0)
    }
}
