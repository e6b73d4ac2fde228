/// Keeps the two full-text indexes in step with the articles table.
///
/// Both FTS5 tables are contentless (they store no copy of the text), so removing an entry
/// means handing FTS5 the same values that were indexed: `remove` recomputes them from the
/// article's stored columns, which is deterministic.
enum SearchIndex {
    static func add(id: Int64, title: String, author: String?, text: String, in db: SQLiteConnection) throws {
        try add(id: id, entry: SearchEntry(title: title, author: author, text: text), in: db)
    }

    /// Adds an entry split beforehand (see `SearchEntry`), perhaps on another thread.
    static func add(id: Int64, entry: SearchEntry, in db: SQLiteConnection) throws {
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
