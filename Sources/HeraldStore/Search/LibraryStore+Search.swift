public import HeraldCore

extension LibraryStore {
    /// Full-text search, best match first (bm25, title weighted).
    ///
    /// Cancelling the calling task stops the statement mid-run (SQLite's progress handler
    /// sees the task's token), so a superseded search gives the database back at once.
    public nonisolated func search(_ query: String, limit: Int) async throws -> [SearchHit] {
        let token = CancellationToken()
        return try await withTaskCancellationHandler {
            try await self.runSearch(query, limit: limit, token: token)
        } onCancel: {
            token.cancel()
        }
    }

    func runSearch(_ text: String, limit: Int, token: CancellationToken) throws -> [SearchHit] {
        if token.isCancelled { throw CancellationError() }
        let query = SearchQuery(text)
        guard !query.isEmpty else { return [] }
        db.interrupt.current = token
        defer { db.interrupt.current = nil }
        let columns = Self.summaryColumns + ", f.title"
        let statement: SQLiteStatement
        switch (query.words, query.characters) {
        case (let words?, let characters?):
            statement = try db.prepare(
                """
                SELECT \(columns) FROM articles_fts s JOIN articles a ON a.id = s.rowid
                JOIN feeds f ON f.id = a.feed_id
                WHERE articles_fts MATCH ?1
                  AND s.rowid IN (SELECT rowid FROM articles_cjk WHERE articles_cjk MATCH ?2)
                ORDER BY s.rank LIMIT ?3
                """)
            try statement.bind(.text(words), .text(characters), .integer(Int64(limit)))
        case (let words?, nil):
            statement = try db.prepare(
                """
                SELECT \(columns) FROM articles_fts s JOIN articles a ON a.id = s.rowid
                JOIN feeds f ON f.id = a.feed_id
                WHERE articles_fts MATCH ?1 ORDER BY s.rank LIMIT ?2
                """)
            try statement.bind(.text(words), .integer(Int64(limit)))
        case (nil, let characters?):
            statement = try db.prepare(
                """
                SELECT \(columns) FROM articles_cjk s JOIN articles a ON a.id = s.rowid
                JOIN feeds f ON f.id = a.feed_id
                WHERE articles_cjk MATCH ?1 ORDER BY s.rank LIMIT ?2
                """)
            try statement.bind(.text(characters), .integer(Int64(limit)))
        case (nil, nil):
            return []
        }
        var hits: [SearchHit] = []
        do {
            while try statement.step() {
                hits.append(SearchHit(article: Self.summary(statement), feedTitle: statement.text(8) ?? ""))
            }
        } catch {
            if error.isInterrupt || token.isCancelled { throw CancellationError() }
            throw error
        }
        return hits
    }
}
