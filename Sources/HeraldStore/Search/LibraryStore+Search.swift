public import HeraldCore

extension LibraryStore {
    /// Full-text search, best match first (bm25, title weighted).
    ///
    /// Cancelling the calling task stops the statement mid-run (SQLite's progress handler
    /// sees the task's token), so a superseded search gives the database back at once.
    public nonisolated func search(_ query: String, limit: Int) async throws -> [SearchHit] {
        // Articles a reload stored a moment ago may still wait for the indexer: indexed first,
        // their entries split on both cores (`runSearch` then finds nothing left to do).
        try await runSearchIndexer(batch: 2000, parts: 2)
        let token = CancellationToken()
        return try await withTaskCancellationHandler {
            try await self.runSearch(query, limit: limit, token: token)
        } onCancel: {
            token.cancel()
        }
    }

    /// How many completions of the word being typed are searched for.
    static let completionLimit = 12

    /// The first indexed words that start with `prefix`, in alphabetical order (the word
    /// itself first when it is one).
    ///
    /// Read one word at a time from the index's instances (`articles_instances`, migration
    /// 11), each lookup a seek to the next word: the vocabulary's row table counts every
    /// instance of each word it returns, 26 ms for `gard` at 1M articles (for `garden`),
    /// where this takes 1–3 ms.
    func completions(of prefix: String) throws -> [String] {
        // A library opened at an older schema (tests of migrations) has only the vocabulary.
        if schemaVersion < 11 {
            let statement = try db.prepare(
                "SELECT term FROM articles_vocab WHERE term >= ?1 AND term < ?2 ORDER BY term LIMIT ?3")
            try statement.bind(
                .text(prefix), .text(prefix + "\u{10FFFF}"), .integer(Int64(Self.completionLimit)))
            var terms: [String] = []
            while try statement.step() { terms.append(statement.text(0) ?? "") }
            return terms
        }
        // The words of the whole articles read from web pages complete too (schema 16).
        let vocabularies = schemaVersion >= 16 ? ["articles_instances", "full_instances"] : ["articles_instances"]
        var terms: [String] = []
        for vocabulary in vocabularies {
            let statement = try db.prepare("SELECT term FROM \(vocabulary) WHERE term >= ?1 AND term < ?2 LIMIT 1")
            let end = prefix + "\u{10FFFF}"
            var found = 0
            var from = prefix
            while found < Self.completionLimit {
                try statement.bind(.text(from), .text(end))
                guard let term = try statement.firstRow({ $0.text(0) }).flatMap({ $0 }) else { break }
                if !terms.contains(term) { terms.append(term) }
                found += 1
                // The next word after this one: words hold no control characters.
                from = term + "\u{1}"
            }
        }
        return Array(terms.sorted().prefix(Self.completionLimit))
    }

    /// How many of the newest matches are ranked.
    static let candidateLimit = 1000

    func runSearch(_ typed: String, limit: Int, token: CancellationToken) throws -> [SearchHit] {
        if token.isCancelled { throw CancellationError() }
        // The query language (LibraryStore+QuerySearch.swift): plain words come back as text.
        let text: String
        switch try Self.searchPlan(typed) {
        case .words(let words): text = words
        case .query(let query): return try querySearch(query, limit: limit, token: token)
        }
        let query = SearchQuery(text)
        guard !query.isEmpty else { return [] }
        // Articles a reload stored a moment ago may still wait for the indexer.
        try catchUpSearchIndex()
        db.interrupt.current = token
        defer { db.interrupt.current = nil }
        // The candidates are the newest `candidateLimit` matches, ranked with bm25; FTS5
        // walks a match list newest first and stops there, so a word found in half the
        // library costs no more than a rare one. Below the cap the ranking is exact.
        var words = query.words
        if let prefix = query.prefix {
            words = query.words(completions: try completions(of: prefix))
            if words == nil { return [] }
        }
        let (index, match, filter): (String, String, String?) =
            switch (words, query.characters) {
            case (let words?, let characters?): ("articles_fts", words, characters)
            case (let words?, nil): ("articles_fts", words, nil)
            case (nil, let characters?): ("articles_cjk", characters, nil)
            case (nil, nil): ("", "", nil)
            }
        let narrowing =
            filter == nil ? "" : "AND rowid IN (SELECT rowid FROM articles_cjk WHERE articles_cjk MATCH ?3)"
        // Words are looked for in the whole articles read from web pages too (`full_fts`,
        // their title, author and text): an article found in both counts once, at its best.
        // A `-word` leaves out an article with the word in either text (?5: the words).
        // A library opened at an older schema (tests of migrations) has no such index.
        let searchesPages = index == "articles_fts" && filter == nil && schemaVersion >= 16
        let exclusions = searchesPages ? query.exclusions : nil
        let (notInPage, notInFeed) =
            exclusions == nil
            ? ("", "")
            : (
                "AND rowid NOT IN (SELECT rowid FROM full_fts WHERE full_fts MATCH ?5)",
                "AND NOT EXISTS (SELECT 1 FROM articles_fts WHERE articles_fts MATCH ?5 AND articles_fts.rowid = full_fts.rowid)"
            )
        let pages =
            searchesPages
            ? """
                UNION ALL SELECT * FROM (SELECT rowid AS id, rank AS score FROM full_fts
                WHERE full_fts MATCH ?1 \(notInFeed) ORDER BY rowid DESC LIMIT ?4)
                """ : ""
        let statement = try db.prepare(
            """
            SELECT \(Self.summaryColumns), f.title FROM (
                SELECT id, min(score) AS score FROM (
                    SELECT * FROM (SELECT rowid AS id, rank AS score FROM \(index)
                    WHERE \(index) MATCH ?1 \(narrowing) \(notInPage) ORDER BY rowid DESC LIMIT ?4)
                    \(pages)
                ) GROUP BY id
            ) s
            JOIN articles a ON a.id = s.id JOIN feeds f ON f.id = a.feed_id
            ORDER BY s.score, a.sort_time DESC, a.id DESC LIMIT ?2
            """)
        try statement.bind(
            [
                .text(match), .integer(Int64(limit)), filter.map(SQLiteValue.text) ?? .null,
                .integer(Int64(Self.candidateLimit)),
            ] + (exclusions.map { [.text($0)] } ?? []))
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
