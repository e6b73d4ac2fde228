public import Foundation
public import HeraldCore

/// The config's filters, applied to the articles a reload brings (`filter EXPR… ACTION`).
///
/// A new article (not stored, not hidden, not removed before) that a filter matches is
/// stored read (`mark-read`), stored hidden (`hide`, `LibraryStore+Hidden.swift`), not
/// stored (`skip`: nothing is remembered, so without the filter it comes at the next
/// reload that lists it) or not stored and remembered as removed (`delete`, as retention
/// remembers). When the feed is written, a `delete` filter also removes its stored
/// articles it matches, and a `hide` filter hides those that are left. Starred articles are
/// never removed or hidden.
///
/// The filters' regular expressions run within the reload's time (`filterRegexBudget`): a
/// filter whose pattern proves too slow is left out for the rest of the reload, in memory
/// and in SQL (a statement its pattern stopped changed nothing, and runs again without it),
/// and the reload's summary names the pattern (`takeSlowFilters()`).
extension LibraryStore {
    /// The filters `storeFetchedFiltered` applies (none until set). The stored articles the
    /// hide filters among them match are hidden, and the hidden ones they no longer match
    /// shown, when these hide filters are not the ones applied last.
    public func setReloadFilters(_ filters: [QueryFilter], now: Date = Date()) throws {
        reloadFilters = filters
        try applyHideFilters(now: now)
    }

    /// `storeFetched` with the reload filters applied, in one transaction. A new article a
    /// filter hides is not counted as new.
    public func storeFetchedFiltered(_ feeds: [FetchedFeed], at time: Date) throws -> [Result<Int, any Error>]
    {
        guard !reloadFilters.isEmpty else { return try storeFetched(feeds, at: time) }
        return try filterRegexBudget.run { try storeFiltered(feeds, at: time) }
    }

    private func storeFiltered(_ feeds: [FetchedFeed], at time: Date) throws -> [Result<Int, any Error>] {
        let now = Int64(time.timeIntervalSince1970)
        let budget = filterRegexBudget
        return try db.transaction {
            let rows = Dictionary(
                try queryFeeds().map { ($0.url, $0) }, uniquingKeysWith: { first, _ in first })
            var deleting = try compiledFilters(.delete, now: time)
            var hiding = try compiledFilters(.hide, now: time)
            // Runs `write`; when a filter's pattern proved too slow in it (its statement
            // stopped before changing anything), again with the filters left without it.
            @DatabaseActor func leavingOutSlowFilters(_ write: () throws -> Void) throws {
                while true {
                    let known = budget.tooSlow.count
                    do {
                        return try write()
                    } catch where budget.tooSlow.count > known {
                        deleting = try compiledFilters(.delete, now: time)
                        hiding = try compiledFilters(.hide, now: time)
                    }
                }
            }
            var kept: [FetchedFeed] = []
            var toMarkRead: [(feed: Int64, guids: [String])] = []
            var toHide: [Int: (feed: Int64, guids: [String])] = [:]
            for var feed in feeds {
                guard let row = rows[feed.url] else {
                    kept.append(feed)
                    continue
                }
                let guids = feed.items.map(\.item.id)
                let stored = try storedGuids(feed: row.id, among: guids)
                    .union(try hiddenGuids(feed: row.id, among: guids))
                let removed = try removedGuids(feed: row.id, among: guids)
                var read: [String] = []
                var hidden: [String] = []
                feed.items = try feed.items.filter { prepared in
                    let item = prepared.item
                    if stored.contains(item.id) || removed.contains(item.id) { return true }
                    let fields = QueryFields(
                        title: item.title, author: item.author, text: item.text,
                        feedTitle: row.title, feedURL: row.url, tags: row.tags,
                        hasEnclosure: !item.enclosures.isEmpty,
                        time: item.published.map { Int64($0.timeIntervalSince1970) } ?? now)
                    switch reloadFilters.action(for: fields, now: now) {
                    case nil: return true
                    case .markRead:
                        read.append(item.id)
                        return true
                    case .hide:
                        hidden.append(item.id)
                        return true
                    case .skip: return false
                    case .delete:
                        try remember(feed: row.id, guid: item.id, at: now)
                        return false
                    }
                }
                try leavingOutSlowFilters {
                    if let (condition, values) = deleting {
                        try removeStored(feed: row.id, where: condition, values, at: now)
                    }
                }
                try leavingOutSlowFilters {
                    if let (condition, values) = hiding {
                        try hideStored(where: condition, values, feed: row.id)
                    }
                }
                if !read.isEmpty { toMarkRead.append((row.id, read)) }
                if !hidden.isEmpty { toHide[kept.count] = (row.id, hidden) }
                kept.append(feed)
            }
            var results = try storeFetched(kept, at: time)
            for (feed, guids) in toMarkRead {
                let json = String(decoding: try JSONEncoder().encode(guids), as: UTF8.self)
                try db.prepare(
                    """
                    UPDATE articles SET read = 1
                    WHERE feed_id = ?1 AND guid IN (SELECT value FROM json_each(?2)) AND read = 0
                    """
                ).bind(.integer(feed), .text(json)).run()
            }
            // Stored like the others (they wait for the indexer), then moved out of sight.
            for (position, new) in toHide {
                let moved = try hide(feed: new.feed, guids: new.guids)
                if case .success(let added) = results[position] {
                    results[position] = .success(added - moved)
                }
            }
            return results
        }
    }

    /// How many stored articles `delete` filters removed since the last call (a reload's
    /// report counts every delete that was not the user's own key).
    public func takeRemovedByFilters() -> Int {
        defer { removedByFilters = 0 }
        return removedByFilters
    }

    /// The patterns of filters found too slow since the last call (a reload's report names
    /// them: the filters holding them were left out); the next reload tries them again.
    public func takeSlowFilters() -> [String] {
        defer { filterRegexBudget = RegexBudget() }
        return filterRegexBudget.tooSlow
    }

    /// The filters with `action`, as one condition on `articles a` (nil when there are none),
    /// but for those with a pattern found too slow.
    private func compiledFilters(_ action: FilterAction, now: Date) throws -> (String, [SQLiteValue])? {
        let queries = reloadFilters.leavingOut(filterRegexBudget.tooSlow).filter { $0.action == action }
            .map(\.query)
        return queries.isEmpty ? nil : try compile(.or(queries), now: now)
    }

    /// The guids among `guids` that the feed has stored.
    private func storedGuids(feed: Int64, among guids: [String]) throws -> Set<String> {
        guard !guids.isEmpty else { return [] }
        let statement = try db.prepare(
            "SELECT j.value FROM json_each(?2) AS j CROSS JOIN articles a ON a.feed_id = ?1 AND a.guid = j.value"
        )
        try statement.bind(
            .integer(feed), .text(String(decoding: try JSONEncoder().encode(guids), as: UTF8.self)))
        var found = Set<String>()
        while try statement.step() { found.insert(statement.text(0) ?? "") }
        return found
    }

    private func remember(feed: Int64, guid: String, at now: Int64) throws {
        try db.prepare("INSERT OR IGNORE INTO removed(feed_id, guid, removed_at) VALUES (?1, ?2, ?3)")
            .bind(.integer(feed), .text(guid), .integer(now)).run()
    }

    /// Removes the feed's stored, unstarred articles matching `condition`, with their search
    /// entries, and remembers them as removed.
    private func removeStored(feed: Int64, where condition: String, _ values: [SQLiteValue], at now: Int64)
        throws
    {
        let bound = values + [.integer(feed)]
        let select = try db.prepareUncached(
            "SELECT a.id, a.guid, a.title, a.author, a.body FROM articles a "
                + "WHERE a.feed_id = ?\(bound.count) AND a.starred = 0 AND \(condition)")
        try select.bind(bound)
        var doomed: [(id: Int64, guid: String, title: String, author: String?, text: String)] = []
        while try select.step() {
            let text = try select.withBlob(4) { try bodies.unpackText($0) }
            doomed.append((select.int64(0), select.text(1) ?? "", select.text(2) ?? "", select.text(3), text))
        }
        guard !doomed.isEmpty else { return }
        removedByFilters += doomed.count
        var index = SearchIndex.Pending()
        for article in doomed {
            index.remove(id: article.id, title: article.title, author: article.author, text: article.text)
            try remember(feed: feed, guid: article.guid, at: now)
            try db.prepare("DELETE FROM articles WHERE id = ?1").bind(.integer(article.id)).run()
        }
        try index.apply(in: db)
    }
}
