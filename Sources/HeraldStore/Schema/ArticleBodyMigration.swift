/// Migration 6: an article's `text` and `html` columns become one deflated `body` blob
/// (`ArticleBody`), which halves what an article costs on disk.
///
/// SQLite cannot change a column in place, so the table is rebuilt: rows are copied in id
/// order (ids stay, so the search indexes, whose rowids are article ids and whose indexed
/// values do not change, are kept as they are), the old table is dropped, the new one
/// renamed and its indexes and triggers made again. The pages the old table held go to the
/// free list and are reused by new articles; `VACUUM` gives them back to the file system.
enum ArticleBodyMigration {
    /// The articles table from version 6 on. `body` comes last, so the small columns stay on
    /// the row's first page when a long article overflows.
    static let table = """
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
            read INTEGER NOT NULL DEFAULT 0,
            starred INTEGER NOT NULL DEFAULT 0,
            first_seen INTEGER NOT NULL,
            enclosures TEXT,
            image TEXT,
            body BLOB NOT NULL,
            UNIQUE(feed_id, guid)
        );
        """

    /// Indexes and triggers of the articles table, as migrations 1 and 5 made them.
    static let indexesAndTriggers = """
        CREATE INDEX articles_by_feed ON articles(feed_id, sort_time DESC, id DESC);
        CREATE INDEX articles_by_time ON articles(sort_time DESC, id DESC, feed_id);
        CREATE INDEX articles_unread ON articles(sort_time DESC, id DESC) WHERE read = 0;
        CREATE INDEX articles_starred ON articles(sort_time DESC, id DESC, read) WHERE starred = 1;
        CREATE INDEX articles_feed_unread ON articles(feed_id, sort_time DESC, id DESC) WHERE read = 0;
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
        """

    static let columns =
        "id, feed_id, guid, title, link, author, published, updated, sort_time, read, starred, first_seen, "
        + "enclosures, image"

    static func apply(_ db: SQLiteConnection) throws {
        try db.execute(
            table.replacingOccurrences(of: "CREATE TABLE articles(", with: "CREATE TABLE articles_v6("))
        let codec = ArticleBodyCodec()
        let read = try db.prepareUncached("SELECT \(columns), text, html FROM articles ORDER BY id")
        let write = try db.prepareUncached(
            "INSERT INTO articles_v6(\(columns), body) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)"
        )
        while try read.step() {
            var values: [SQLiteValue] = []
            values.reserveCapacity(15)
            for column in Int32(0)..<14 { values.append(read.value(column)) }
            values.append(.blob(codec.pack(text: read.text(14) ?? "", html: read.text(15))))
            write.reset()
            try write.bind(values).run()
        }
        read.reset()
        // Dropping the table drops its indexes and triggers; with foreign keys on, its
        // implicit DELETE fires no trigger, so the feeds' kept counts stay.
        try db.execute("DROP TABLE articles; ALTER TABLE articles_v6 RENAME TO articles;")
        try db.execute(indexesAndTriggers)
    }
}
