/// Migration 10: what sync needs in the library (issue 12).
///
/// - `sync_outbox`: what the user did, captured by triggers on every write path (reader,
///   CLI, bulk commands, undo) without touching them, waiting to be stamped and written to
///   the sync folder. Reloads inserting articles and retention deleting them are not user
///   operations and are not captured; the bundled demo feeds are not either.
/// - `sync_state`: the last-writer-wins register of every key seen (this device's and the
///   others'): its value, its stamp (hybrid logical clock) and device. `applied = 0` marks a
///   state the library does not show yet (an article not fetched yet, a feed not there).
/// - `sync_devices`: how far each other device's files were read.
///
/// Capture runs only while `meta` holds `sync.capture = '1'`: set by the first sync (so a
/// library that never syncs collects nothing), and turned off inside the transaction that
/// applies other devices' operations, so those are never captured again.
enum SyncMigration {
    /// Unix milliseconds now, in SQL.
    static let nowMilliseconds = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"
    static let capturing = "(SELECT value FROM meta WHERE key = 'sync.capture') = '1'"

    /// The flag triggers as this migration made them (migration 17 redefines them; the
    /// migration tests that rebuild an old library use these).
    static var flagTriggers: String {
        let now = nowMilliseconds
        return """
            CREATE TRIGGER sync_capture_read AFTER UPDATE OF read ON articles
                WHEN OLD.read != NEW.read AND \(capturing) BEGIN
                INSERT INTO sync_outbox(kind, feed_url, guid, value, at)
                    SELECT 'read', url, NEW.guid, NEW.read, \(now) FROM feeds WHERE id = NEW.feed_id;
            END;
            CREATE TRIGGER sync_capture_star AFTER UPDATE OF starred ON articles
                WHEN OLD.starred != NEW.starred AND \(capturing) BEGIN
                INSERT INTO sync_outbox(kind, feed_url, guid, value, at)
                    SELECT 'star', url, NEW.guid, NEW.starred, \(now) FROM feeds WHERE id = NEW.feed_id;
            END;
            """
    }

    static func apply(_ db: SQLiteConnection) throws {
        let now = nowMilliseconds
        try db.execute(
            """
            CREATE TABLE sync_outbox(
                seq INTEGER PRIMARY KEY,
                kind TEXT NOT NULL,
                feed_url TEXT NOT NULL,
                guid TEXT NOT NULL DEFAULT '',
                value TEXT NOT NULL,
                at INTEGER NOT NULL
            );
            CREATE TABLE sync_state(
                feed_url TEXT NOT NULL,
                guid TEXT NOT NULL,
                kind TEXT NOT NULL,
                value TEXT NOT NULL,
                stamp INTEGER NOT NULL,
                device TEXT NOT NULL,
                applied INTEGER NOT NULL,
                PRIMARY KEY(feed_url, guid, kind)
            ) WITHOUT ROWID;
            -- No index of the pending states: it would hold every key a second time (a merge
            -- writes its states pending), and applying scans the state in file order anyway.
            CREATE TABLE sync_devices(
                device TEXT PRIMARY KEY,
                segment INTEGER NOT NULL DEFAULT 0,
                offset INTEGER NOT NULL DEFAULT 0,
                last_stamp INTEGER NOT NULL DEFAULT 0,
                operations INTEGER NOT NULL DEFAULT 0
            );
            \(flagTriggers)
            CREATE TRIGGER sync_capture_subscribe AFTER INSERT ON feeds
                WHEN NEW.demo = 0 AND \(capturing) BEGIN
                INSERT INTO sync_outbox(kind, feed_url, value, at)
                    VALUES ('sub', NEW.url, '1', \(now)), ('tags', NEW.url, NEW.tags, \(now));
            END;
            -- A demo feed the user subscribes to becomes theirs.
            CREATE TRIGGER sync_capture_adopt AFTER UPDATE OF demo ON feeds
                WHEN OLD.demo = 1 AND NEW.demo = 0 AND \(capturing) BEGIN
                INSERT INTO sync_outbox(kind, feed_url, value, at)
                    VALUES ('sub', NEW.url, '1', \(now)), ('tags', NEW.url, NEW.tags, \(now));
            END;
            -- The demo import inserts a feed, then marks it: its subscription was not the user's.
            CREATE TRIGGER sync_forget_demo AFTER UPDATE OF demo ON feeds
                WHEN OLD.demo = 0 AND NEW.demo = 1 BEGIN
                DELETE FROM sync_outbox WHERE feed_url = NEW.url AND kind IN ('sub', 'tags');
            END;
            CREATE TRIGGER sync_capture_unsubscribe AFTER DELETE ON feeds
                WHEN OLD.demo = 0 AND \(capturing) BEGIN
                INSERT INTO sync_outbox(kind, feed_url, value, at) VALUES ('sub', OLD.url, '0', \(now));
            END;
            CREATE TRIGGER sync_capture_tags AFTER UPDATE OF tags ON feeds
                WHEN OLD.tags != NEW.tags AND NEW.demo = 0 AND \(capturing) BEGIN
                INSERT INTO sync_outbox(kind, feed_url, value, at) VALUES ('tags', NEW.url, NEW.tags, \(now));
            END;
            """)
    }
}
