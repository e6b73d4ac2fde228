import Foundation
public import HeraldCore

/// Reading lists: one feed, or a virtual feed (all, unread, starred, a tag), in keyset pages.
///
/// A feed, All articles, Unread and Starred each walk one index newest first (the feed's,
/// `articles_by_time` and the partial `articles_unread` / `articles_starred`), so a page
/// costs the same at 1M articles as at 100. A tag is read from its feeds' own indexes
/// (`LibraryStore+TagPages.swift`).
extension LibraryStore {
    public func articles(in source: ArticleSource, page: ArticlePage) throws -> [ArticleSummary] {
        try RegexBudget.scoped {
            if case .oldestFirst(let list) = source {
                // Read from the other end of the newest-first list, and turned around.
                let total = page.isOffset ? try counts(in: list).total : 0
                return try articles(in: list, page: page.reversed(total: total)).reversed()
            }
            let (after, forward, limit, offset): (ArticleSortKey?, Bool, Int, Int) =
                switch page {
                case .first(let limit): (nil, true, limit, 0)
                case .after(let key, let limit): (key, true, limit, 0)
                case .before(let key, let limit): (key, false, limit, 0)
                case .last(let limit): (nil, false, limit, 0)
                case .offset(let offset, let limit): (nil, true, limit, max(offset, 0))
                }
            let rows: [ArticleSummary]
            if case .tag(let name) = source {
                rows = try tagPage(name, after: after, forward: forward, limit: limit, skip: offset)
            } else if case .query(let text) = source {
                rows = try plannedScan(
                    ArticleQuery.parse(text), after: after, forward: forward, limit: limit, offset: offset,
                    now: Date())
            } else {
                let (conditions, values) = try filter(source)
                rows = try scan(conditions, values, after: after, forward: forward, limit: limit, offset: offset)
            }
            return forward ? rows : rows.reversed()
        }
    }

    public func position(of key: ArticleSortKey, in source: ArticleSource) throws -> Int {
        try RegexBudget.scoped {
            // Oldest first, the rows before an article are the older ones.
            let older = source.isOldestFirst
            let source = source.unordered
            if case .tag(let name) = source {
                return try feedRowIDs(tagged: name).reduce(0) { sum, feed in
                    sum + (try count(["a.feed_id = ?1"], [.integer(feed)], before: key, older: older))
                }
            }
            let (conditions, values) = try filter(source)
            return try count(conditions, values, before: key, older: older)
        }
    }

    public func rows(between a: ArticleSortKey, and b: ArticleSortKey, in source: ArticleSource) throws -> Int
    {
        try RegexBudget.scoped {
            let (first, last) = a < b ? (a, b) : (b, a)
            let source = source.unordered
            if case .tag(let name) = source {
                return try feedRowIDs(tagged: name).reduce(0) { sum, feed in
                    sum + (try count(["a.feed_id = ?1"], [.integer(feed)], between: first, and: last))
                }
            }
            let (conditions, values) = try filter(source)
            return try count(conditions, values, between: first, and: last)
        }
    }

    public func firstUnread(
        in source: ArticleSource, after key: ArticleSortKey?, direction: ListDirection
    ) throws -> ArticleSummary? {
        try RegexBudget.scoped {
            if case .oldestFirst(let list) = source {
                return try firstUnread(
                    in: list, after: key, direction: direction == .forward ? .backward : .forward)
            }
            let forward = direction == .forward
            let candidates: [ArticleSummary]
            switch source {
            case .tag(let name):
                candidates = try feedRowIDs(tagged: name).compactMap { feed in
                    try scan(
                        ["a.feed_id = ?1", "a.read = 0"], [.integer(feed)], after: key, forward: forward, limit: 1
                    ).first
                }
            case .starred:
                candidates = try scan(
                    ["a.starred = 1", "a.read = 0"], [], after: key, forward: forward, limit: 1)
            case .feed, .query:
                let (conditions, values) = try filter(source)
                candidates = try scan(conditions + ["a.read = 0"], values, after: key, forward: forward, limit: 1)
            case .all, .unread:
                candidates = try scan(["a.read = 0"], [], after: key, forward: forward, limit: 1)
            case .unreadOf(let list):
                return try firstUnread(in: list, after: key, direction: direction)
            case .oldestFirst: preconditionFailure("turned around above")
            }
            return forward
                ? candidates.min { $0.sortKey < $1.sortKey } : candidates.max { $0.sortKey < $1.sortKey }
        }
    }

    /// How many articles a list has and how many are unread, counted in SQL (a query's
    /// cost is its condition's: the feed list shows a query's counts as they arrive).
    public func counts(in source: ArticleSource) throws -> ArticleCounts {
        try RegexBudget.scoped {
            let (conditions, values): ([String], [SQLiteValue])
            let source = source.unordered
            switch source {
            case .tag(let name), .unreadOf(.tag(let name)):
                let feeds = try feedRowIDs(tagged: name).map(String.init).joined(separator: ",")
                conditions =
                    ["a.feed_id IN (\(feeds))"] + (source == .tag(name) ? [] : ["a.read = 0"])
                values = []
            default: (conditions, values) = try filter(source)
            }
            let statement = try db.prepareUncached(
                "SELECT count(*), coalesce(sum(a.read = 0), 0) FROM articles a"
                    + (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")))
            try statement.bind(values)
            return try statement.firstRow { ArticleCounts(total: Int($0.int64(0)), unread: Int($0.int64(1))) }
                ?? ArticleCounts(total: 0, unread: 0)
        }
    }

    public func starredCounts() throws -> ArticleCounts {
        // Both counts come from the starred index alone (it holds `read`).
        let statement = try db.prepare(
            "SELECT count(*), coalesce(sum(read = 0), 0) FROM articles WHERE starred = 1")
        let counts = try statement.firstRow {
            ArticleCounts(total: Int($0.int64(0)), unread: Int($0.int64(1)))
        }
        return counts ?? ArticleCounts(total: 0, unread: 0)
    }

    public func markRead(in source: ArticleSource) throws {
        try RegexBudget.scoped {
            try db.transaction {
                switch source.unordered {
                case .feed(let id):
                    try db.prepare("UPDATE articles SET read = 1 WHERE feed_id = ?1 AND read = 0")
                        .bind(.integer(try feedRowID(id))).run()
                case .all, .unread:
                    try db.execute("UPDATE articles SET read = 1 WHERE read = 0")
                case .starred:
                    try db.execute("UPDATE articles SET read = 1 WHERE starred = 1 AND read = 0")
                case .tag(let name):
                    for feed in try feedRowIDs(tagged: name) {
                        try db.prepare("UPDATE articles SET read = 1 WHERE feed_id = ?1 AND read = 0")
                            .bind(.integer(feed)).run()
                    }
                case .query:
                    let (conditions, values) = try filter(source)
                    try db.prepareUncached(
                        "UPDATE articles AS a SET read = 1 WHERE "
                            + (conditions + ["a.read = 0"]).joined(separator: " AND ")
                    ).bind(values).run()
                case .unreadOf(let list):
                    try markRead(in: list)
                case .oldestFirst: preconditionFailure("unordered above")
                }
            }
        }
    }

    /// The list open when the reader last closed, with its feed (if any) by id. Readers
    /// before feed ids saved a feed's list by the feed's address: that is read as the id of
    /// the feed at that address now.
    public func lastOpenedList() -> ArticleSource? {
        let key = try? db.prepare("SELECT value FROM meta WHERE key = 'last_list'").firstRow { $0.text(0) }
        return key.flatMap { $0 }.flatMap(ArticleSource.init(key:))?.renamingFeed { id in
            (try? feedRowID(id)).map(FeedID.init(row:))
        }
    }

    public func setLastOpenedList(_ source: ArticleSource?) {
        // Best effort: a reader that cannot remember its place still reads.
        if let source {
            try? db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('last_list', ?1)")
                .bind(.text(source.key)).run()
        } else {
            try? db.execute("DELETE FROM meta WHERE key = 'last_list'")
        }
    }

    // MARK: Queries

    /// A source as conditions on `articles a` and the values they bind (`?1` …); not for tags
    /// (but for a tag's unread articles).
    func filter(_ source: ArticleSource) throws -> ([String], [SQLiteValue]) {
        let source = source.unordered
        if case .unreadOf(let list) = source {
            if case .tag(let name) = list {
                // The unread index walked in order, kept to the tag's feeds (row ids: numbers).
                let feeds = try feedRowIDs(tagged: name).map(String.init).joined(separator: ",")
                return (["a.read = 0", "a.feed_id IN (\(feeds))"], [])
            }
            let (conditions, values) = try filter(list)
            return (conditions + ["a.read = 0"], values)
        }
        if case .query(let text) = source {
            let (condition, values) = try compile(ArticleQuery.parse(text), now: Date())
            return ([condition], values)
        }
        return switch source {
        case .feed(let id): (["a.feed_id = ?1"], [.integer(try feedRowID(id))])
        case .all: ([], [])
        case .unread: (["a.read = 0"], [])
        case .starred: (["a.starred = 1"], [])
        case .tag, .unreadOf, .query, .oldestFirst:
            preconditionFailure("a tag is read as a merge of its feeds")
        }
    }

    /// Up to `limit` rows matching `conditions`, in scan order: list order going forward,
    /// reversed going backward; strictly past `after` when given.
    ///
    /// `CROSS JOIN` keeps `articles` the outer loop, so SQLite walks an article index in
    /// order and stops at the limit, instead of starting from the (small) feeds table and
    /// sorting everything.
    func scan(
        _ conditions: [String], _ values: [SQLiteValue], after key: ArticleSortKey?, forward: Bool,
        limit: Int,
        offset: Int = 0
    ) throws -> [ArticleSummary] {
        var clauses = conditions
        var bound = values
        if let key {
            bound += [.integer(key.time), .integer(Int64(key.id) ?? 0)]
            clauses.append(
                "(a.sort_time, a.id) \(forward ? "<" : ">") (?\(bound.count - 1), ?\(bound.count))")
        }
        bound.append(.integer(Int64(limit)))
        var tail = "LIMIT ?\(bound.count)"
        if offset > 0 {
            bound.append(.integer(Int64(offset)))
            tail += " OFFSET ?\(bound.count)"
        }
        let order = forward ? "DESC" : "ASC"
        let statement = try db.prepare(
            "SELECT \(Self.summaryColumns) FROM articles a CROSS JOIN feeds f ON f.id = a.feed_id "
                + (clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ") + " ")
                + "ORDER BY a.sort_time \(order), a.id \(order) \(tail)")
        try statement.bind(bound)
        var rows: [ArticleSummary] = []
        rows.reserveCapacity(min(limit, 1024))
        while try statement.step() { rows.append(Self.summary(statement)) }
        return rows
    }

    /// How many rows matching `conditions` come before `key` in list order (newest first;
    /// `older`: in a list read oldest first, so the rows older than `key`).
    func count(
        _ conditions: [String], _ values: [SQLiteValue], before key: ArticleSortKey, older: Bool = false
    )
        throws -> Int
    {
        let bound = values + [.integer(key.time), .integer(Int64(key.id) ?? 0)]
        let clauses =
            conditions + ["(a.sort_time, a.id) \(older ? "<" : ">") (?\(bound.count - 1), ?\(bound.count))"]
        let statement = try db.prepare(
            "SELECT count(*) FROM articles a WHERE " + clauses.joined(separator: " AND "))
        try statement.bind(bound)
        return Int(try statement.firstRow { $0.int64(0) } ?? 0)
    }

    /// How many rows matching `conditions` lie strictly between `first` and `last` (`first`
    /// comes first in list order).
    func count(
        _ conditions: [String], _ values: [SQLiteValue], between first: ArticleSortKey,
        and last: ArticleSortKey
    )
        throws -> Int
    {
        let bound =
            values + [
                .integer(first.time), .integer(Int64(first.id) ?? 0), .integer(last.time),
                .integer(Int64(last.id) ?? 0),
            ]
        let n = bound.count
        let clauses =
            conditions + [
                "(a.sort_time, a.id) < (?\(n - 3), ?\(n - 2))", "(a.sort_time, a.id) > (?\(n - 1), ?\(n))",
            ]
        let statement = try db.prepare(
            "SELECT count(*) FROM articles a WHERE " + clauses.joined(separator: " AND "))
        try statement.bind(bound)
        return Int(try statement.firstRow { $0.int64(0) } ?? 0)
    }
}
