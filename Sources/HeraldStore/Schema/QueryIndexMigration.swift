/// Migration 11: what lets every kind of query reach its first page without walking the
/// library (issue 11).
///
/// - `articles_read` and `articles_podcast`: the read articles and those with a media file,
///   newest first, as `articles_unread` and `articles_starred` hold theirs. Without them,
///   `read` walked the unread half of a library before its first row (2.5 s at 1M
///   articles) and `podcast` the whole library when it had few (4 s).
/// - `articles_fields`: the trigrams of every title and author (`FieldIndex`), which narrow
///   `title:`/`author:` to a few candidates where they scanned every row (4 s at 1M for a
///   word found in no title). Contentless, like the other indexes; the tokenizer folds case.
/// - `articles_instances`: the word index read instance by instance, where the completions
///   of a word being typed find the next word with one seek (`completions(of:)`).
///
/// It runs in one transaction like every migration, so a crash leaves the library at
/// version 10, and the next open runs it again.
enum QueryIndexMigration {
    static func apply(_ db: SQLiteConnection) throws {
        try db.execute(
            """
            CREATE INDEX articles_read ON articles(sort_time DESC, id DESC) WHERE read = 1;
            CREATE INDEX articles_podcast ON articles(sort_time DESC, id DESC) WHERE enclosures IS NOT NULL;
            CREATE VIRTUAL TABLE articles_fields USING fts5(
                title, author, content='', columnsize=0, tokenize='trigram case_sensitive 0');
            CREATE VIRTUAL TABLE articles_instances USING fts5vocab(articles_fts, 'instance');
            """)
        let rows = try db.prepareUncached("SELECT id, title, author FROM articles")
        while try rows.step() {
            try SearchIndex.addFields(
                id: rows.int64(0), title: FieldIndex.indexed(rows.text(1) ?? ""),
                author: rows.text(2).map(FieldIndex.indexed), in: db)
        }
        rows.reset()
    }
}
