import HeraldCore

/// Keeps the full-text indexes in step with the articles table: words, CJK/Hangul
/// characters, and the trigrams of titles and authors (`FieldIndex`).
///
/// The FTS5 tables are contentless (they store no copy of the text), so removing an entry
/// means handing FTS5 the same values that were indexed: `remove` recomputes them from the
/// article's stored columns, which is deterministic.
///
/// Writers collect their index changes in `Pending` and apply them after the transaction's
/// row writes (see there).
enum SearchIndex {
    /// Index changes waiting for the end of a batch of row writes.
    ///
    /// FTS5 keeps new entries in memory until the transaction commits, then writes them as
    /// one segment. But every statement that opens a statement journal (an INSERT into
    /// `articles`, with its trigger and indexes; a savepoint) makes SQLite call each FTS
    /// table's savepoint method, which writes the pending entries out as a segment of their
    /// own. Interleaved with the row writes, each article became a segment, and merging them
    /// back cost more than the indexing itself: a 10,000-article reload spent about 170 µs
    /// more per article than with the index writes gathered at the end.
    struct Pending {
        enum Change {
            case add(id: Int64, entry: SearchEntry)
            /// An article whose entries were not split beforehand: split only if they are
            /// written (a new article waiting for the indexer gets none here).
            case addItem(id: Int64, item: ParsedItem)
            case remove(id: Int64, title: String, author: String?, text: String)
        }
        private(set) var changes: [Change] = []

        /// Adds `item`'s entries, `entry` when they were split already.
        mutating func add(id: Int64, item: ParsedItem, entry: SearchEntry?) {
            changes.append(entry.map { .add(id: id, entry: $0) } ?? .addItem(id: id, item: item))
        }

        /// Adds an entry split beforehand.
        mutating func add(id: Int64, entry: SearchEntry) { changes.append(.add(id: id, entry: entry)) }

        mutating func remove(id: Int64, title: String, author: String?, text: String) {
            changes.append(.remove(id: id, title: title, author: author, text: text))
        }

        mutating func append(_ other: Pending) { changes += other.changes }

        /// Writes the changes, in order; the caller's transaction then commits them. An
        /// article above the marker of deferred indexing (`DeferredIndexing.swift`) has no
        /// entries to remove and gets none now: the indexer writes them as it is then.
        func apply(in db: SQLiteConnection) throws {
            let through = try SearchIndex.indexedThrough(in: db) ?? .max
            for change in changes {
                switch change {
                case .add(let id, let entry):
                    guard id <= through else { continue }
                    try SearchIndex.add(id: id, entry: entry, in: db)
                case .addItem(let id, let item):
                    guard id <= through else { continue }
                    try SearchIndex.add(id: id, entry: SearchEntry(item), in: db)
                case .remove(let id, let title, let author, let text):
                    guard id <= through else { continue }
                    try SearchIndex.remove(id: id, title: title, author: author, text: text, in: db)
                }
            }
        }
    }

    /// Adds an article to the word and character indexes only (migration 2, before the
    /// trigram index existed).
    static func addWords(id: Int64, title: String, author: String?, text: String, in db: SQLiteConnection)
        throws
    {
        try addWords(id: id, entry: SearchEntry(title: title, author: author, text: text), in: db)
    }

    /// Adds an entry split beforehand (see `SearchEntry`), perhaps on another thread.
    static func add(id: Int64, entry: SearchEntry, in db: SQLiteConnection) throws {
        try addFields(id: id, title: entry.fieldTitle, author: entry.fieldAuthor, in: db)
        try addWords(id: id, entry: entry, in: db)
    }

    /// Adds a title and author, as `FieldIndex.indexed` made them, to the trigram index.
    static func addFields(id: Int64, title: String, author: String?, in db: SQLiteConnection) throws {
        try db.prepare("INSERT INTO articles_fields(rowid, title, author) VALUES (?1, ?2, ?3)")
            .bind(.integer(id), .text(title), .optional(author)).run()
    }

    private static func addWords(id: Int64, entry: SearchEntry, in db: SQLiteConnection) throws {
        try db.prepare("INSERT INTO articles_fts(rowid, title, author, text) VALUES (?1, ?2, ?3, ?4)")
            .bind(.integer(id), .text(entry.title), .optional(entry.author), .text(entry.text)).run()
        guard !entry.cjkTitle.isEmpty || !entry.cjkText.isEmpty else { return }
        try db.prepare("INSERT INTO articles_cjk(rowid, title, text) VALUES (?1, ?2, ?3)")
            .bind(.integer(id), .text(entry.cjkTitle), .text(entry.cjkText)).run()
    }

    static func remove(id: Int64, title: String, author: String?, text: String, in db: SQLiteConnection)
        throws
    {
        try write(
            "INSERT INTO articles_fts(articles_fts, rowid, title, author, text) VALUES ('delete', ?1, ?2, ?3, ?4)",
            id: id, title: title, author: author, text: text, db: db)
        try db.prepare(
            "INSERT INTO articles_fields(articles_fields, rowid, title, author) VALUES ('delete', ?1, ?2, ?3)"
        )
        .bind(.integer(id), .text(FieldIndex.indexed(title)), .optional(author.map(FieldIndex.indexed))).run()
        let (titleChars, textChars) = (CJKText.characters(title), CJKText.characters(text))
        guard !titleChars.isEmpty || !textChars.isEmpty else { return }
        try db.prepare(
            "INSERT INTO articles_cjk(articles_cjk, rowid, title, text) VALUES ('delete', ?1, ?2, ?3)"
        )
        .bind(.integer(id), .text(titleChars), .text(textChars)).run()
    }

    private static func write(
        _ sql: String, id: Int64, title: String, author: String?, text: String, db: SQLiteConnection
    ) throws {
        try db.prepare(sql).bind(
            .integer(id), .text(CJKText.withoutIndexed(title)), .optional(author.map(CJKText.withoutIndexed)),
            .text(CJKText.withoutIndexed(text))
        ).run()
    }
}
