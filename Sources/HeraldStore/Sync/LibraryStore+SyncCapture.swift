import Foundation
import HeraldCore

/// Capturing what the user did that no trigger of migration 10 sees (a title, a move, a
/// mark-all-read), and keeping out what the user did not do (the config file's `feed` lines,
/// applied at every start). The SQL against `sync_outbox` of these kinds is here.
extension LibraryStore {
    /// Runs `body` with capture off, in a transaction (a savepoint inside one), so the
    /// triggers record nothing it writes; capture is back on when it returns, and a throw
    /// rolls the switch back with the rest.
    func withoutCapture<T>(_ body: () throws -> T) throws -> T {
        try db.transaction {
            guard let capture = try syncValue("capture"), capture == "1" else { return try body() }
            try setSyncValue("capture", "0")
            let result = try body()
            try setSyncValue("capture", capture)
            return result
        }
    }

    /// Records `change` as the user's, stamped later by the sync, when capture is on.
    func capture(_ change: SyncChange) throws {
        try db.prepare(
            """
            INSERT INTO sync_outbox(kind, feed_url, guid, value, at)
                SELECT ?1, ?2, ?3, ?4, \(SyncMigration.nowMilliseconds) WHERE \(SyncMigration.capturing)
            """
        ).bind(.text(change.kind.rawValue), .text(change.feedURL), .text(change.guid), .text(change.value))
            .run()
    }

    /// A feed's title and tags as the user set them in the library, which is what sync
    /// carries: the library's `title` setting ("" for none), and its tags without the config
    /// file's (a config `tags` line keeps the feed's own under it, in `own_tags`).
    struct UserFeedValues: Equatable {
        var url: String
        var title: String
        var tags: String
    }

    /// The user's title and tags of every non-demo feed (`id` nil) or of one.
    func userFeedValues(feed id: Int64? = nil) throws -> [UserFeedValues] {
        let statement = try db.prepare(
            """
            SELECT f.url,
                (SELECT value FROM feed_settings WHERE feed_id = f.id AND key = 'title' AND source = 'library'),
                (SELECT value FROM feed_settings WHERE feed_id = f.id AND key = 'tags' AND source = 'library'),
                CASE WHEN EXISTS (
                    SELECT 1 FROM feed_settings WHERE feed_id = f.id AND key = 'tags' AND source = 'config'
                ) THEN coalesce(f.own_tags, f.tags) ELSE f.tags END
            FROM feeds f WHERE ((?1 IS NULL AND f.demo = 0 AND \(notAccountFeed("f"))) OR f.id = ?1)
                AND \(Self.notArchived("f"))
            ORDER BY f.position, f.id
            """)
        try statement.bind(.optional(id))
        var values: [UserFeedValues] = []
        while try statement.step() {
            let tags = statement.text(2).map { Self.joinTags(Self.cleanTags(FeedSettingKey.splitTags($0))) }
            values.append(
                UserFeedValues(
                    url: statement.text(0) ?? "", title: statement.text(1) ?? "",
                    tags: tags ?? statement.text(3) ?? ""))
        }
        return values
    }

    /// Writes a feed's settings with `body` (capture off: the config's values in force are
    /// not the user's), then captures what changed of the user's title and tags.
    func changingUserFeedValues(feed id: Int64, _ body: () throws -> Void) throws {
        try db.transaction {
            let before = try userFeedValues(feed: id).first
            try withoutCapture(body)
            guard let before, let after = try userFeedValues(feed: id).first,
                try !isDemoFeed(id)
            else { return }
            if after.title != before.title {
                try capture(SyncChange(kind: .title, feedURL: after.url, value: after.title))
            }
            if after.tags != before.tags {
                try capture(SyncChange(kind: .tags, feedURL: after.url, value: after.tags))
            }
        }
    }

    private func isDemoFeed(_ id: Int64) throws -> Bool {
        try db.prepare("SELECT demo FROM feeds WHERE id = ?1").bind(.integer(id)).firstRow { $0.bool(0) }
            ?? false
    }
}
