/// Migration 17: a server account's feeds and articles in the library (issue 27).
///
/// - `feeds.remote_id`: the server's id of a feed the account brings (NULL: a local feed,
///   fetched by Herald itself). An account's articles are keyed by the server's item id (their
///   `guid`), which is what marking them there takes.
/// - `account_outbox`: what the user did to the account's articles and feeds, waiting to go
///   up, in order. Triggers on the flags write it in the same transaction as the change, on
///   every write path (reader, CLI, undo, mark-all-read), so a kill loses none; a row leaves
///   only once the server has taken it. `kind` is `read` or `starred` (`item` the server's
///   item id, `value` 1 or 0), `subscribe` (`item` the feed's URL, `value` unused) or
///   `unsubscribe` (`item` the server's feed id).
/// - `meta` keys `account.*`: the account the library is tied to, its cursor, its status.
///
/// Capture runs unless `meta` holds `account.capture = '0'`: set inside the transaction that
/// applies the server's own states, so those never go back up.
///
/// The sync folder's flag triggers (migration 10) leave the account's articles out from now
/// on: several machines on one account converge through its server, and another machine
/// without the account could never apply a flag keyed by the server's item id.
enum AccountMigration {
    static let capturing = "coalesce((SELECT value FROM meta WHERE key = 'account.capture'), '1') = '1'"
    static let accountFeed = "(SELECT remote_id FROM feeds WHERE id = NEW.feed_id) IS NOT NULL"

    static func apply(_ db: SQLiteConnection) throws {
        let now = SyncMigration.nowMilliseconds
        try db.execute(
            """
            ALTER TABLE feeds ADD COLUMN remote_id TEXT;
            -- The server's categories of the feed as last applied, tab-separated: the tags the
            -- account manages (the user's own tags on the feed stay beside them).
            ALTER TABLE feeds ADD COLUMN remote_tags TEXT;
            CREATE UNIQUE INDEX feeds_remote ON feeds(remote_id) WHERE remote_id IS NOT NULL;
            CREATE TABLE account_outbox(
                seq INTEGER PRIMARY KEY,
                kind TEXT NOT NULL,
                item TEXT NOT NULL,
                value INTEGER NOT NULL DEFAULT 0,
                at INTEGER NOT NULL
            );
            DROP TRIGGER sync_capture_read;
            DROP TRIGGER sync_capture_star;
            CREATE TRIGGER sync_capture_read AFTER UPDATE OF read ON articles
                WHEN OLD.read != NEW.read AND \(SyncMigration.capturing) AND NOT \(accountFeed) BEGIN
                INSERT INTO sync_outbox(kind, feed_url, guid, value, at)
                    SELECT 'read', url, NEW.guid, NEW.read, \(now) FROM feeds WHERE id = NEW.feed_id;
            END;
            CREATE TRIGGER sync_capture_star AFTER UPDATE OF starred ON articles
                WHEN OLD.starred != NEW.starred AND \(SyncMigration.capturing) AND NOT \(accountFeed) BEGIN
                INSERT INTO sync_outbox(kind, feed_url, guid, value, at)
                    SELECT 'star', url, NEW.guid, NEW.starred, \(now) FROM feeds WHERE id = NEW.feed_id;
            END;
            CREATE TRIGGER account_capture_read AFTER UPDATE OF read ON articles
                WHEN OLD.read != NEW.read AND \(accountFeed) AND \(capturing) BEGIN
                INSERT INTO account_outbox(kind, item, value, at) VALUES ('read', NEW.guid, NEW.read, \(now));
            END;
            CREATE TRIGGER account_capture_star AFTER UPDATE OF starred ON articles
                WHEN OLD.starred != NEW.starred AND \(accountFeed) AND \(capturing) BEGIN
                INSERT INTO account_outbox(kind, item, value, at)
                    VALUES ('starred', NEW.guid, NEW.starred, \(now));
            END;
            """)
    }
}
