/// The library's schema, as ordered migrations. `PRAGMA user_version` records the last one
/// applied; opening a file runs the missing ones in one transaction each, so a newer Herald
/// opens an older file, and an older Herald refuses a newer one.
enum Migrations {
    struct Step: Sendable {
        var version: Int
        var summary: String
        var apply: @Sendable (SQLiteConnection) throws -> Void
    }

    static var latest: Int { steps.last!.version }

    static let steps: [Step] = [
        Step(version: 1, summary: "feeds and articles with kept counts") { db in
            try db.execute(
                """
                CREATE TABLE feeds(
                    id INTEGER PRIMARY KEY,
                    url TEXT NOT NULL UNIQUE,
                    title TEXT NOT NULL,
                    site_url TEXT,
                    tags TEXT NOT NULL DEFAULT '',
                    etag TEXT,
                    last_modified TEXT,
                    last_fetch INTEGER,
                    last_error TEXT,
                    position INTEGER NOT NULL DEFAULT 0,
                    total_count INTEGER NOT NULL DEFAULT 0,
                    unread_count INTEGER NOT NULL DEFAULT 0
                );
                CREATE TABLE articles(
                    id INTEGER PRIMARY KEY,
                    feed_id INTEGER NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
                    guid TEXT NOT NULL,
                    title TEXT NOT NULL,
                    link TEXT,
                    author TEXT,
                    published INTEGER,
                    updated INTEGER,
                    sort_time INTEGER NOT NULL,
                    html TEXT,
                    text TEXT NOT NULL DEFAULT '',
                    read INTEGER NOT NULL DEFAULT 0,
                    starred INTEGER NOT NULL DEFAULT 0,
                    first_seen INTEGER NOT NULL,
                    UNIQUE(feed_id, guid)
                );
                -- Keyset paging of one feed's list, newest first.
                CREATE INDEX articles_by_feed ON articles(feed_id, sort_time DESC, id DESC);
                -- Counts are kept, so the feed list costs the same at 1M articles as at 100.
                CREATE TRIGGER articles_count_insert AFTER INSERT ON articles BEGIN
                    UPDATE feeds SET total_count = total_count + 1,
                        unread_count = unread_count + (1 - NEW.read) WHERE id = NEW.feed_id;
                END;
                CREATE TRIGGER articles_count_delete AFTER DELETE ON articles BEGIN
                    UPDATE feeds SET total_count = total_count - 1,
                        unread_count = unread_count - (1 - OLD.read) WHERE id = OLD.feed_id;
                END;
                CREATE TRIGGER articles_count_read AFTER UPDATE OF read ON articles
                    WHEN OLD.read != NEW.read BEGIN
                    UPDATE feeds SET unread_count = unread_count + (OLD.read - NEW.read)
                        WHERE id = NEW.feed_id;
                END;
                """)
        },
        Step(version: 2, summary: "full-text search: words, and CJK/Hangul characters") { db in
            try db.execute(
                """
                -- Words, case- and diacritics-insensitive ("cafe" finds "Café"). Contentless:
                -- Herald writes what it indexes (the text without its CJK/Hangul, which would
                -- otherwise make whole unspaced sentences into single tokens).
                CREATE VIRTUAL TABLE articles_fts USING fts5(
                    title, author, text, content='', tokenize='unicode61 remove_diacritics 2');
                -- CJK and Hangul, one token per character, so a phrase query finds any
                -- substring, however short, in text written without spaces.
                CREATE VIRTUAL TABLE articles_cjk USING fts5(
                    title, text, content='', tokenize='unicode61 remove_diacritics 0');
                -- Ranking: a match in the title weighs most, then the author, then the text.
                INSERT INTO articles_fts(articles_fts, rank) VALUES ('rank', 'bm25(10.0, 2.0, 1.0)');
                INSERT INTO articles_cjk(articles_cjk, rank) VALUES ('rank', 'bm25(10.0, 1.0)');
                """)
            // SQLite cannot split the text itself: the indexes are filled from Swift.
            let rows = try db.prepare("SELECT id, title, author, text FROM articles")
            while try rows.step() {
                try SearchIndex.addWords(
                    id: rows.int64(0), title: rows.text(1) ?? "", author: rows.text(2),
                    text: rows.text(3) ?? "",
                    in: db)
            }
        },
        Step(version: 3, summary: "the word index's vocabulary, to complete the word being typed") { db in
            try db.execute("CREATE VIRTUAL TABLE articles_vocab USING fts5vocab(articles_fts, 'row');")
        },
        Step(version: 4, summary: "library settings: whether it was ever set up") { db in
            try db.execute(
                """
                CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
                -- A library with feeds was set up; only a brand-new one gets the demo feeds.
                INSERT INTO meta(key, value) SELECT 'initialized', '1' WHERE EXISTS (SELECT 1 FROM feeds);
                """)
        },
        Step(version: 5, summary: "virtual feeds, podcasts, demo feeds known as such") { db in
            try db.execute(
                """
                -- The river (All articles) and the Unread and Starred lists, newest first, in
                -- keyset pages like a feed's. The partial indexes hold only their rows, so
                -- Starred costs what it holds; read is in the starred index for its counts.
                -- The time index holds the feed too, so a tag's walk reads no article row.
                CREATE INDEX articles_by_time ON articles(sort_time DESC, id DESC, feed_id);
                CREATE INDEX articles_unread ON articles(sort_time DESC, id DESC) WHERE read = 0;
                CREATE INDEX articles_starred ON articles(sort_time DESC, id DESC, read) WHERE starred = 1;
                -- n and p within a feed (and a tag's feeds) find the next unread without
                -- stepping over the read ones.
                CREATE INDEX articles_feed_unread ON articles(feed_id, sort_time DESC, id DESC) WHERE read = 0;
                -- Media files (JSON: url, type, length, duration, title) and the article's picture.
                ALTER TABLE articles ADD COLUMN enclosures TEXT;
                ALTER TABLE articles ADD COLUMN image TEXT;
                -- Feeds of the bundled demo, removed when the user subscribes to their own.
                ALTER TABLE feeds ADD COLUMN demo INTEGER NOT NULL DEFAULT 0;
                UPDATE feeds SET demo = 1 WHERE url IN (
                    'https://example.com/field-journal/feed.json', 'https://example.org/hangul-tech/feed.json',
                    'https://example.org/herald/blog/feed.json', 'https://example.com/kabar-nusantara/feed.json');
                """)
        },
        Step(
            version: 6, summary: "text and HTML stored together, deflated", apply: ArticleBodyMigration.apply),
        Step(version: 7, summary: "feeds that asked to wait, and feeds that keep failing") { db in
            try db.execute(
                """
                -- When the server asked (Retry-After) not to be asked again before: unix seconds.
                ALTER TABLE feeds ADD COLUMN retry_after INTEGER;
                -- Reloads in a row that failed for this feed while others worked.
                ALTER TABLE feeds ADD COLUMN failures INTEGER NOT NULL DEFAULT 0;
                """)
        },
        Step(version: 8, summary: "articles removed by retention, so a reload does not bring them back") {
            db in
            try db.execute(
                """
                CREATE TABLE removed(
                    feed_id INTEGER NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
                    guid TEXT NOT NULL,
                    removed_at INTEGER NOT NULL,
                    PRIMARY KEY(feed_id, guid)
                ) WITHOUT ROWID;
                """)
        },
        Step(version: 9, summary: "per-feed settings, from the library and the config file") { db in
            try db.execute(
                """
                -- `herald feed set URL KEY VALUE` (source 'library') and the config file's
                -- `feed URL KEY VALUE` lines (source 'config', rewritten whenever Herald reads
                -- the config); the config's value of a key wins.
                CREATE TABLE feed_settings(
                    feed_id INTEGER NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
                    key TEXT NOT NULL,
                    source TEXT NOT NULL,
                    value TEXT NOT NULL,
                    PRIMARY KEY(feed_id, key, source)
                ) WITHOUT ROWID;
                -- A title or tags setting is written into title and tags, so every list and
                -- query shows it; the feed's own values wait here until the setting goes.
                ALTER TABLE feeds ADD COLUMN own_title TEXT;
                ALTER TABLE feeds ADD COLUMN own_tags TEXT;
                """)
        },
        Step(
            version: 10, summary: "sync: captured changes, merged state, other devices",
            apply: SyncMigration.apply),
        Step(
            version: 11, summary: "queries: read and podcast indexes, trigrams of titles and authors",
            apply: QueryIndexMigration.apply),
        Step(version: 12, summary: "sync: the feeds' states found without scanning the articles' ones") {
            db in
            // A feed's states (subscription, move, title, tags, mark-all-read) have no guid:
            // a few per feed, while the articles' flags are hundreds of thousands. Applying
            // looks the feeds' ones up here instead of scanning all of them.
            try db.execute("CREATE INDEX sync_state_feeds ON sync_state(kind, feed_url) WHERE guid = ''")
        },
        Step(version: 13, summary: "articles hidden by `hide` filters, kept as they were") { db in
            // A hidden article's row moves here whole (`LibraryStore+Hidden.swift`), so the
            // lists, counts, queries and search, and their indexes, never see it and need no
            // condition; it moves back when no filter hides it any more. `id` is the id it had
            // (and takes back when no article holds it since), not a key: while it is away a
            // new article may take it.
            try db.execute(
                """
                CREATE TABLE hidden_articles(
                    id INTEGER NOT NULL,
                    feed_id INTEGER NOT NULL REFERENCES feeds(id) ON DELETE CASCADE,
                    guid TEXT NOT NULL,
                    title TEXT NOT NULL,
                    link TEXT,
                    author TEXT,
                    published INTEGER,
                    updated INTEGER,
                    sort_time INTEGER NOT NULL,
                    read INTEGER NOT NULL DEFAULT 0,
                    starred INTEGER NOT NULL DEFAULT 0,
                    first_seen INTEGER NOT NULL,
                    enclosures TEXT,
                    image TEXT,
                    body BLOB NOT NULL,
                    UNIQUE(feed_id, guid)
                );
                """)
        },
        Step(version: 14, summary: "feeds found by their place in the list") { db in
            // Each new feed takes the place after the last (`max(position) + 1`): without an
            // index that read every feed, so subscribing to N feeds (an import, a sync) cost
            // N²/2 rows (220,000 feeds from an OPML file took over ten minutes).
            try db.execute("CREATE INDEX feeds_position ON feeds(position)")
        },
        Step(version: 15, summary: "the podcast download queue") { db in
            // Entries are not tied to articles: retention may remove an article whose episode
            // is still queued, downloading or on disk. `url` is unique: an episode is queued
            // once; `path` too: two entries never share a file. The bytes received are not
            // kept here but read from the file itself.
            try db.execute(
                """
                CREATE TABLE downloads(
                    id INTEGER PRIMARY KEY,
                    url TEXT NOT NULL UNIQUE,
                    path TEXT NOT NULL UNIQUE,
                    title TEXT NOT NULL,
                    feed_title TEXT NOT NULL,
                    state TEXT NOT NULL,
                    size INTEGER,
                    error TEXT,
                    added INTEGER NOT NULL
                );
                """)
        },
        Step(version: 16, summary: "whole articles read from their web pages, and their search index") { db in
            // One row per article whose page was fetched: its article (`body`, packed as the
            // articles' bodies are) or why there is none (`note`). It goes with its article.
            // `full_fts` holds the article's title, author and whole text for search; unlike
            // the articles' index it keeps its content, so the trigger can drop an entry
            // without being told what it held.
            try db.execute(
                """
                CREATE TABLE full_articles(
                    article_id INTEGER PRIMARY KEY REFERENCES articles(id) ON DELETE CASCADE,
                    state TEXT NOT NULL,
                    page TEXT NOT NULL,
                    fetched INTEGER NOT NULL,
                    note TEXT,
                    shown INTEGER NOT NULL DEFAULT 1,
                    body BLOB
                );
                CREATE VIRTUAL TABLE full_fts USING fts5(
                    title, author, text, tokenize='unicode61 remove_diacritics 2');
                INSERT INTO full_fts(full_fts, rank) VALUES ('rank', 'bm25(10.0, 2.0, 1.0)');
                CREATE VIRTUAL TABLE full_instances USING fts5vocab(full_fts, 'instance');
                CREATE TRIGGER full_articles_gone AFTER DELETE ON articles BEGIN
                    DELETE FROM full_fts WHERE rowid = OLD.id;
                END;
                """)
        },
        Step(
            version: 17, summary: "a server account's feeds, and the changes waiting to go up to it",
            apply: AccountMigration.apply),
    ]
}