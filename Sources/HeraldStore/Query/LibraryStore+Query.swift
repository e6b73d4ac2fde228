public import Foundation
public import HeraldCore

/// Articles selected by a query of Herald's query language (`ArticleQuery`): lists in
/// keyset pages newest first, counts, and bulk flag changes.
///
/// A query compiles to one condition on `articles a` (`QueryCompiler`) run through the
/// lists' own scan, so pages and cursors are the lists' (`ArticleSortKey`).
extension LibraryStore {
    /// Up to `limit` articles matching `query`, newest first, strictly after `key` in list
    /// order when given (the last row of the previous page).
    ///
    /// Cancelling the calling task stops the statement mid-run, as for search.
    public nonisolated func articles(
        matching query: ArticleQuery, after key: ArticleSortKey? = nil, limit: Int, now: Date = Date()
    ) async throws -> [ArticleSummary] {
        let token = CancellationToken()
        return try await withTaskCancellationHandler {
            try await self.runQuery(
                query, page: key.map { .after($0, limit: limit) } ?? .first(limit: limit), now: now,
                token: token)
        } onCancel: {
            token.cancel()
        }
    }

    /// A window of the articles matching `query` (as `articles(in:page:)` for a list).
    public nonisolated func articles(
        matching query: ArticleQuery, page: ArticlePage, now: Date = Date()
    ) async throws -> [ArticleSummary] {
        let token = CancellationToken()
        return try await withTaskCancellationHandler {
            try await self.runQuery(query, page: page, now: now, token: token)
        } onCancel: {
            token.cancel()
        }
    }

    func runQuery(_ query: ArticleQuery, page: ArticlePage, now: Date, token: CancellationToken) throws
        -> [ArticleSummary]
    {
        if token.isCancelled { throw CancellationError() }
        db.interrupt.current = token
        defer { db.interrupt.current = nil }
        let (after, forward, limit, offset): (ArticleSortKey?, Bool, Int, Int) =
            switch page {
            case .first(let limit): (nil, true, limit, 0)
            case .after(let key, let limit): (key, true, limit, 0)
            case .before(let key, let limit): (key, false, limit, 0)
            case .last(let limit): (nil, false, limit, 0)
            case .offset(let offset, let limit): (nil, true, limit, max(offset, 0))
            }
        do {
            let rows = try RegexBudget.scoped {
                try plannedScan(query, after: after, forward: forward, limit: limit, offset: offset, now: now)
            }
            return forward ? rows : rows.reversed()
        } catch let error as SlowRegexError {
            throw error
        } catch {
            if (error as? SQLiteError)?.isInterrupt == true || token.isCancelled { throw CancellationError() }
            throw error
        }
    }

    /// How many articles match `query`, and how many of those are unread.
    public func count(matching query: ArticleQuery, now: Date = Date()) throws -> ArticleCounts {
        try RegexBudget.scoped {
            let (condition, values) = try compile(query, now: now)
            let statement = try db.prepareUncached(
                "SELECT count(*), coalesce(sum(a.read = 0), 0) FROM articles a WHERE \(condition)")
            try statement.bind(values)
            return try statement.firstRow { ArticleCounts(total: Int($0.int64(0)), unread: Int($0.int64(1))) }
                ?? ArticleCounts(total: 0, unread: 0)
        }
    }

    /// Marks every article matching `query` read (or unread); returns the ids of those that
    /// changed, for an undo (`setRead(_:articleIDs:)` with the opposite flag).
    @discardableResult
    public func setRead(_ isRead: Bool, matching query: ArticleQuery, now: Date = Date()) throws -> [Int64] {
        try setFlag("read", isRead, matching: query, now: now)
    }

    /// Stars (or unstars) every article matching `query`; returns the ids that changed.
    @discardableResult
    public func setStarred(_ isStarred: Bool, matching query: ArticleQuery, now: Date = Date()) throws
        -> [Int64]
    {
        try setFlag("starred", isStarred, matching: query, now: now)
    }

    /// Sets the read flag of these articles (the undo of a bulk change); returns the ids
    /// that changed.
    @discardableResult
    public func setRead(_ isRead: Bool, articleIDs: [Int64]) throws -> [Int64] {
        try setFlag("read", isRead, ids: articleIDs)
    }

    /// Sets the starred flag of these articles; returns the ids that changed.
    @discardableResult
    public func setStarred(_ isStarred: Bool, articleIDs: [Int64]) throws -> [Int64] {
        try setFlag("starred", isStarred, ids: articleIDs)
    }

    /// A too-slow pattern stops the statement before it changes anything (`QueryFunctions`).
    private func setFlag(_ column: String, _ value: Bool, matching query: ArticleQuery, now: Date) throws
        -> [Int64]
    {
        try RegexBudget.scoped { try setFlagNow(column, value, matching: query, now: now) }
    }

    private func setFlagNow(_ column: String, _ value: Bool, matching query: ArticleQuery, now: Date) throws
        -> [Int64]
    {
        var (condition, values) = try compile(query, now: now)
        values.append(.bool(value))
        let flag = "?\(values.count)"
        return try db.transaction {
            let statement = try db.prepareUncached(
                """
                UPDATE articles SET \(column) = \(flag) WHERE id IN (
                    SELECT a.id FROM articles a WHERE \(condition) AND a.\(column) != \(flag))
                RETURNING id
                """)
            try statement.bind(values)
            var ids: [Int64] = []
            while try statement.step() { ids.append(statement.int64(0)) }
            return ids.sorted()
        }
    }

    private func setFlag(_ column: String, _ value: Bool, ids: [Int64]) throws -> [Int64] {
        guard !ids.isEmpty else { return [] }
        let json = "[" + ids.map(String.init).joined(separator: ",") + "]"
        return try db.transaction {
            let statement = try db.prepareUncached(
                """
                UPDATE articles SET \(column) = ?2
                WHERE id IN (SELECT value FROM json_each(?1)) AND \(column) != ?2 RETURNING id
                """)
            try statement.bind(.text(json), .bool(value))
            var changed: [Int64] = []
            while try statement.step() { changed.append(statement.int64(0)) }
            return changed.sorted()
        }
    }

    /// `scan` (the lists') for a query's condition, with a statement prepared for this call
    /// only: a query's SQL changes with its shape, and search as you type makes many.
    /// Stops at `end` (included) when given: a probe's window.
    func queryScan(
        _ condition: String, _ values: [SQLiteValue], after key: ArticleSortKey?,
        through end: ArticleSortKey? = nil,
        forward: Bool, limit: Int, offset: Int = 0
    ) throws -> [ArticleSummary] {
        var clauses = [condition]
        var bound = values
        if let key {
            bound += [.integer(key.time), .integer(Int64(key.id) ?? 0)]
            clauses.append(
                "(a.sort_time, a.id) \(forward ? "<" : ">") (?\(bound.count - 1), ?\(bound.count))")
        }
        if let end {
            bound += [.integer(end.time), .integer(Int64(end.id) ?? 0)]
            clauses.append(
                "(a.sort_time, a.id) \(forward ? ">=" : "<=") (?\(bound.count - 1), ?\(bound.count))")
        }
        bound.append(.integer(Int64(limit)))
        var tail = "LIMIT ?\(bound.count)"
        if offset > 0 {
            bound.append(.integer(Int64(offset)))
            tail += " OFFSET ?\(bound.count)"
        }
        let order = forward ? "DESC" : "ASC"
        let statement = try db.prepareUncached(
            "SELECT \(Self.summaryColumns) FROM articles a CROSS JOIN feeds f ON f.id = a.feed_id "
                + "WHERE " + clauses.joined(separator: " AND ")
                + " ORDER BY a.sort_time \(order), a.id \(order) \(tail)")
        try statement.bind(bound)
        var rows: [ArticleSummary] = []
        rows.reserveCapacity(min(limit, 1024))
        while try statement.step() { rows.append(Self.summary(statement)) }
        return rows
    }

    /// The query as a condition on `articles a` and its bound values.
    func compile(_ query: ArticleQuery, now: Date) throws -> (String, [SQLiteValue]) {
        let compiled = try compile(query, now: now, mode: .full)
        return (compiled.condition, compiled.values)
    }

    /// The query compiled in `mode`, with what its plan does (`LibraryStore+QueryPlan.swift`).
    ///
    /// A query that reads the search indexes first indexes the articles waiting for them
    /// (`DeferredIndexing.swift`), before its first look at an index, so it finds them too.
    func compile(_ query: ArticleQuery, now: Date, mode: QueryCompiler.Mode) throws -> CompiledQuery {
        var caughtUp = false
        let catchUp = {
            guard !caughtUp else { return }
            caughtUp = true
            try self.catchUpSearchIndex()
        }
        var compiler = QueryCompiler(
            feeds: try queryFeeds(),
            completions: {
                try catchUp()
                return try self.completions(of: $0)
            },
            matchSample: {
                try catchUp()
                return try self.matchSample(table: $0, match: $1, upTo: $2)
            },
            matchIDs: {
                try catchUp()
                return try self.matchIDs(table: $0, match: $1, upTo: $2)
            },
            now: Int64(now.timeIntervalSince1970), mode: mode, fewMatches: queryPlanLimits.fewMatches)
        let condition = try compiler.condition(query)
        if ["articles_fts", "articles_cjk", "articles_fields"].contains(where: condition.contains) {
            try catchUp()
        }
        return CompiledQuery(
            condition: condition, values: compiler.values, readsMatchLists: compiler.readsMatchLists,
            drivenByRowIDs: compiler.drivenByRowIDs, sparsestMatches: compiler.sparsestMatches,
            termsAskedPerRow: compiler.termsAskedPerRow, testsFields: compiler.testsFields)
    }

    /// How many rows of an FTS table (`articles_fts`, `articles_cjk`, `articles_fields`)
    /// match, up to `cap` (reading that many row ids costs little, however common the word),
    /// and what share of the row ids they span holds them: how densely the word occurs.
    func matchSample(table: String, match: String, upTo cap: Int) throws -> MatchSample {
        precondition(["articles_fts", "articles_cjk", "articles_fields"].contains(table))
        let statement = try db.prepare(
            "SELECT count(*), min(rowid), max(rowid) FROM (SELECT rowid FROM \(table) WHERE \(table) MATCH ?1 LIMIT ?2)"
        )
        try statement.bind(.text(match), .integer(Int64(cap)))
        return try statement.firstRow { row in
            let count = Int(row.int64(0))
            let span = row.int64(2) - row.int64(1) + 1
            return MatchSample(count: count, density: count == 0 ? 0 : Double(count) / Double(max(span, 1)))
        } ?? MatchSample(count: 0, density: 0)
    }

    /// The row ids of an FTS table that match, up to `cap`, in row id order.
    func matchIDs(table: String, match: String, upTo cap: Int) throws -> [Int64] {
        precondition(["articles_fts", "articles_cjk", "articles_fields"].contains(table))
        let statement = try db.prepare("SELECT rowid FROM \(table) WHERE \(table) MATCH ?1 LIMIT ?2")
        try statement.bind(.text(match), .integer(Int64(cap)))
        defer { statement.reset() }
        var ids: [Int64] = []
        while try statement.step() { ids.append(statement.int64(0)) }
        return ids
    }

    /// Every feed with what `feed:` and `tag:` look at.
    func queryFeeds() throws -> [QueryCompiler.FeedRow] {
        let statement = try db.prepare("SELECT id, url, title, tags, total_count FROM feeds")
        var feeds: [QueryCompiler.FeedRow] = []
        while try statement.step() {
            feeds.append(
                QueryCompiler.FeedRow(
                    id: statement.int64(0), url: statement.text(1) ?? "", title: statement.text(2) ?? "",
                    tags: Self.splitTags(statement.text(3) ?? ""), total: statement.int64(4)))
        }
        return feeds
    }
}

extension LibraryStore {
    /// Every article matching `query` in list order (for `herald list --query`), at most
    /// `limit`, only of the feed at `feedURL` when given: read in keyset pages handed to
    /// `body` one at a time, like `forEachArticle(matching:)`.
    ///
    /// Its pages are one run of regular expressions (`RegexBudget`): a pattern found too slow
    /// on one page ends the listing with `SlowRegexError`.
    public func forEachArticle(
        matching query: ArticleQuery, feedURL: String? = nil, limit: Int? = nil, pageSize: Int = 500,
        now: Date = Date(), _ body: ([ArticleListing]) throws -> Void
    ) throws {
        try RegexBudget.scoped {
            try forEachArticleNow(
                matching: query, feedURL: feedURL, limit: limit, pageSize: pageSize, now: now, body)
        }
    }

    private func forEachArticleNow(
        matching query: ArticleQuery, feedURL: String?, limit: Int?, pageSize: Int,
        now: Date, _ body: ([ArticleListing]) throws -> Void
    ) throws {
        var (condition, values) = try compile(query, now: now)
        if let feedURL {
            values.append(.integer(try feedRowID(feedURL)))
            condition = "a.feed_id = ?\(values.count) AND \(condition)"
        }
        var remaining = limit ?? Int.max
        var last: ArticleSortKey?
        while remaining > 0 {
            var bound = values
            var clauses = [condition]
            if let last {
                bound += [.integer(last.time), .integer(Int64(last.id) ?? 0)]
                clauses.append("(a.sort_time, a.id) < (?\(bound.count - 1), ?\(bound.count))")
            }
            let wanted = min(pageSize, remaining)
            bound.append(.integer(Int64(wanted)))
            let statement = try db.prepareUncached(
                "SELECT \(Self.summaryColumns), a.link, a.enclosures FROM articles a "
                    + "CROSS JOIN feeds f ON f.id = a.feed_id WHERE " + clauses.joined(separator: " AND ")
                    + " ORDER BY a.sort_time DESC, a.id DESC LIMIT ?\(bound.count)")
            try statement.bind(bound)
            var page: [ArticleListing] = []
            while try statement.step() {
                page.append(
                    ArticleListing(
                        summary: Self.summary(statement), link: statement.text(8),
                        enclosures: Self.enclosures(statement.text(9))))
            }
            guard !page.isEmpty else { return }
            try body(page)
            remaining -= page.count
            guard page.count == wanted, let tail = page.last else { return }
            last = tail.summary.sortKey
        }
    }
}
