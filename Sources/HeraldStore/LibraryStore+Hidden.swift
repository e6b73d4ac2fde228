import Foundation
import HeraldCore

/// Hidden articles: what `hide` filters keep in the library but out of sight.
///
/// A hidden article's row moves whole from `articles` to `hidden_articles` (schema 13), with
/// its search entries removed, so every list, count, query feed and search, and the indexes
/// they read, leave it out without a condition of their own; the feeds' kept counts follow
/// through the triggers on `articles`. It moves back, with its search entries (or left to
/// the deferred indexer when its id is above the marker, as for a new article), when no
/// hide filter matches it any more. Starred articles never hide.
///
/// The hide filters are evaluated on the stored articles whenever they differ from those
/// last applied (a signature kept in `meta`): at every start that reads the config, so a
/// filter taken out of the config shows its articles at once. A reload also hides the
/// stored articles of the feeds it writes that they match (ages and flags change), and
/// never stores a hidden article again as new (`hiddenGuids`).
extension LibraryStore {
    /// The `meta` key of the hide filters last applied.
    nonisolated static let hideFiltersKey = "filters.hide"

    /// The columns a hidden article keeps, in both tables.
    static let movedColumns = ArticleBodyMigration.columns + ", body"

    /// Hides and shows what the hide filters of `reloadFilters` decide, when they are not
    /// those applied last. When one's pattern proves too slow (`filterRegexBudget`), nothing
    /// changes: the hidden articles stay as they were, and the next reload names the pattern.
    func applyHideFilters(now: Date) throws {
        let budget = filterRegexBudget
        let known = budget.tooSlow.count
        do {
            try budget.run { try applyHideFiltersNow(now: now) }
        } catch where budget.tooSlow.count > known || error is SlowRegexError {
            return
        }
    }

    private func applyHideFiltersNow(now: Date) throws {
        let hides = reloadFilters.filter { $0.action == .hide }.map(\.query)
        let signature = hides.map { String(reflecting: $0) }.sorted().joined(separator: "\n")
        let applied =
            try db.prepare("SELECT value FROM meta WHERE key = ?1").bind(.text(Self.hideFiltersKey))
            .firstRow { $0.text(0) } ?? ""
        guard signature != applied else { return }
        try db.transaction {
            try showHidden(unlessMatching: hides, now: now)
            if !hides.isEmpty {
                let (condition, values) = try compile(.or(hides), now: now)
                try hideStored(where: condition, values, feed: nil)
            }
            try db.prepare("DELETE FROM meta WHERE key = ?1").bind(.text(Self.hideFiltersKey)).run()
            if !signature.isEmpty {
                try db.prepare("INSERT INTO meta(key, value) VALUES (?1, ?2)")
                    .bind(.text(Self.hideFiltersKey), .text(signature)).run()
            }
        }
    }

    /// The guids among `guids` that the feed has hidden.
    func hiddenGuids(feed: Int64, among guids: [String]) throws -> Set<String> {
        // A library opened at a schema before `hidden_articles` (tests of migrations) hides nothing.
        guard !guids.isEmpty,
            let statement = try? db.prepare(
                "SELECT j.value FROM json_each(?2) AS j CROSS JOIN hidden_articles h ON h.feed_id = ?1 AND h.guid = j.value"
            )
        else { return [] }
        let json = String(decoding: try JSONEncoder().encode(guids), as: UTF8.self)
        try statement.bind(.integer(feed), .text(json))
        var found = Set<String>()
        while try statement.step() { found.insert(statement.text(0) ?? "") }
        return found
    }

    /// Hides the unstarred stored articles matching `condition` (compiled on `articles a`),
    /// of one feed or all; returns how many it hid.
    @discardableResult
    func hideStored(where condition: String, _ values: [SQLiteValue], feed: Int64?) throws -> Int {
        var bound = values
        var sql = "SELECT a.id FROM articles a WHERE a.starred = 0 AND \(condition)"
        if let feed {
            bound.append(.integer(feed))
            sql += " AND a.feed_id = ?\(bound.count)"
        }
        let select = try db.prepareUncached(sql)
        try select.bind(bound)
        var ids: [Int64] = []
        while try select.step() { ids.append(select.int64(0)) }
        return try hide(articleIDs: ids)
    }

    /// Hides the feed's stored articles with these guids (new ones a filter hides as they
    /// arrive); returns how many it hid.
    func hide(feed: Int64, guids: [String]) throws -> Int {
        guard !guids.isEmpty else { return 0 }
        let select = try db.prepare(
            "SELECT a.id FROM json_each(?2) AS j CROSS JOIN articles a ON a.feed_id = ?1 AND a.guid = j.value"
        )
        try select.bind(
            .integer(feed), .text(String(decoding: try JSONEncoder().encode(guids), as: UTF8.self)))
        var ids: [Int64] = []
        while try select.step() { ids.append(select.int64(0)) }
        return try hide(articleIDs: ids)
    }

    /// Moves these articles, unless starred, to `hidden_articles` and removes their search
    /// entries (an article still waiting for the indexer has none); returns how many moved.
    private func hide(articleIDs ids: [Int64]) throws -> Int {
        guard !ids.isEmpty else { return 0 }
        let through = try SearchIndex.indexedThrough(in: db) ?? .max
        var index = SearchIndex.Pending()
        var moved = 0
        for id in ids {
            let row = try db.prepare("SELECT title, author, body FROM articles WHERE id = ?1 AND starred = 0")
                .bind(.integer(id))
            let found = try row.firstRow { row in
                (
                    title: row.text(0) ?? "", author: row.text(1),
                    text: id <= through ? try row.withBlob(2) { try bodies.unpackText($0) } : ""
                )
            }
            guard let found else { continue }
            index.remove(id: id, title: found.title, author: found.author, text: found.text)
            try db.prepare(
                "INSERT OR REPLACE INTO hidden_articles(\(Self.movedColumns)) SELECT \(Self.movedColumns) FROM articles WHERE id = ?1"
            ).bind(.integer(id)).run()
            try db.prepare("DELETE FROM articles WHERE id = ?1").bind(.integer(id)).run()
            moved += 1
        }
        try index.apply(in: db)
        return moved
    }

    /// Shows again the hidden articles none of `hides` matches (all of them without hides),
    /// evaluated in memory as a reload evaluates new articles.
    private func showHidden(unlessMatching hides: [ArticleQuery], now: Date) throws {
        let seconds = Int64(now.timeIntervalSince1970)
        let feeds = Dictionary(try queryFeeds().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let rows = try db.prepareUncached(
            "SELECT rowid, feed_id, title, author, read, starred, enclosures IS NOT NULL, sort_time, body FROM hidden_articles"
        )
        var showing: [Int64] = []
        while try rows.step() {
            guard !hides.isEmpty else {
                showing.append(rows.int64(0))
                continue
            }
            let feed = feeds[rows.int64(1)]
            let fields = QueryFields(
                title: rows.text(2) ?? "", author: rows.text(3),
                text: try rows.withBlob(8) { try bodies.unpackText($0) }, feedTitle: feed?.title ?? "",
                feedURL: feed?.url ?? "", tags: feed?.tags ?? [], isRead: rows.bool(4),
                isStarred: rows.bool(5),
                hasEnclosure: rows.bool(6), time: rows.int64(7))
            // A pattern too slow throws, and the whole change is undone.
            if !(try hides.contains(where: { try $0.matches(fields, now: seconds) })) {
                showing.append(rows.int64(0))
            }
        }
        try show(hiddenRows: showing)
    }

    /// Moves hidden rows back into `articles`, each with the id it had unless an article has
    /// taken it since (then a new one), and writes their search entries (a row above the
    /// marker of deferred indexing is left to the indexer).
    private func show(hiddenRows rowids: [Int64]) throws {
        guard !rowids.isEmpty else { return }
        let through = try SearchIndex.indexedThrough(in: db) ?? .max
        let columns = ArticleBodyMigration.columns.split(separator: ",").dropFirst()
            .map { "h." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")
        var index = SearchIndex.Pending()
        for rowid in rowids {
            // OR IGNORE: should the feed hold the same guid again, the shown copy stays.
            let shown = try db.prepare(
                """
                INSERT OR IGNORE INTO articles(\(Self.movedColumns))
                SELECT CASE WHEN EXISTS (SELECT 1 FROM articles WHERE id = h.id) THEN NULL ELSE h.id END,
                    \(columns), h.body
                FROM hidden_articles h WHERE h.rowid = ?1
                RETURNING id, title, author, body
                """
            ).bind(.integer(rowid)).firstRow { row in
                let id = row.int64(0)
                guard id <= through else { return (id, nil as SearchEntry?) }
                let text = try row.withBlob(3) { try bodies.unpackText($0) }
                return (id, SearchEntry(title: row.text(1) ?? "", author: row.text(2), text: text))
            }
            if let (id, entry) = shown, let entry { index.add(id: id, entry: entry) }
            try db.prepare("DELETE FROM hidden_articles WHERE rowid = ?1").bind(.integer(rowid)).run()
        }
        try index.apply(in: db)
    }
}
