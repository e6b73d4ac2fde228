public import Foundation

/// Retention: the library does not grow without bound. Articles older than `keepDays`, and
/// a feed's articles beyond its `keepArticles` newest, are removed with their search
/// entries; starred articles never are. A removed article leaves its guid behind (the
/// `removed` table), so the next reload does not bring it back while the feed still lists
/// it; those marks go after a year. Hidden articles (`LibraryStore+Hidden.swift`) go by the
/// same limits: by age, and by count as if they were shown (beyond the feed's newest N of
/// its shown and hidden articles together), so they never pile up out of sight.
extension LibraryStore {
    /// Removes what the limits allow (nil or 0: no limit); returns how many articles went.
    @discardableResult
    public func applyRetention(keepDays: Int?, keepArticles: Int?, now: Date = Date()) throws -> Int {
        // A feed's own `keep-days`/`keep-articles` (schema 9) replace the global limits for it
        // (its row id is left out of the global queries, whose text then changes: uncached).
        let overrides = try retentionOverrides()
        guard (keepDays ?? 0) > 0 || (keepArticles ?? 0) > 0 || !overrides.isEmpty else { return 0 }
        let excluded = { (limit: KeyPath<(days: Int?, articles: Int?), Int?>) in
            overrides.filter { $0.value[keyPath: limit] != nil }.keys.map { String($0) }.joined(
                separator: ",")
        }
        var doomed: [Int64] = []
        if let keepDays, keepDays > 0 {
            let cutoff = Int64(now.timeIntervalSince1970) - Int64(keepDays) * 86_400
            let statement = try db.prepareUncached(
                "SELECT id FROM articles WHERE starred = 0 AND sort_time < ?1 AND feed_id NOT IN (\(excluded(\.days)))"
            )
            try statement.bind(.integer(cutoff))
            while try statement.step() { doomed.append(statement.int64(0)) }
        }
        if let keepArticles, keepArticles > 0 {
            let statement = try db.prepareUncached(
                """
                SELECT id FROM (
                    SELECT id, starred, row_number() OVER (
                        PARTITION BY feed_id ORDER BY sort_time DESC, id DESC) AS position
                    FROM articles WHERE feed_id NOT IN (\(excluded(\.articles))))
                WHERE starred = 0 AND position > ?1
                """)
            try statement.bind(.integer(Int64(keepArticles)))
            while try statement.step() { doomed.append(statement.int64(0)) }
        }
        for (feed, limits) in overrides {
            if let days = limits.days, days > 0 {
                let cutoff = Int64(now.timeIntervalSince1970) - Int64(days) * 86_400
                let statement = try db.prepare(
                    "SELECT id FROM articles WHERE feed_id = ?1 AND starred = 0 AND sort_time < ?2")
                try statement.bind(.integer(feed), .integer(cutoff))
                while try statement.step() { doomed.append(statement.int64(0)) }
            }
            if let articles = limits.articles, articles > 0 {
                // Starred articles count toward the newest N but are never removed.
                let statement = try db.prepare(
                    """
                    SELECT id FROM (SELECT id, starred FROM articles WHERE feed_id = ?1
                        ORDER BY sort_time DESC, id DESC LIMIT -1 OFFSET ?2)
                    WHERE starred = 0
                    """)
                try statement.bind(.integer(feed), .integer(Int64(articles)))
                while try statement.step() { doomed.append(statement.int64(0)) }
            }
        }
        var hidden = try hiddenBeyond(
            days: keepDays, articles: nil, feeds: "feed_id NOT IN (\(excluded(\.days)))", now: now)
        hidden += try hiddenBeyond(
            days: nil, articles: keepArticles, feeds: "feed_id NOT IN (\(excluded(\.articles)))", now: now)
        for (feed, limits) in overrides {
            hidden += try hiddenBeyond(
                days: limits.days, articles: limits.articles, feeds: "feed_id = \(feed)", now: now)
        }
        let ids = Array(Set(doomed)).sorted()
        let seconds = Int64(now.timeIntervalSince1970)
        hidden = Array(Set(hidden))
        try removeHidden(hidden, at: seconds)
        // In batches: the reader's queries get the database between them.
        for start in stride(from: 0, to: ids.count, by: 500) {
            try db.transaction {
                var index = SearchIndex.Pending()
                for id in ids[start..<min(start + 500, ids.count)] {
                    let row = try db.prepare(
                        "SELECT feed_id, guid, title, author, body FROM articles WHERE id = ?1")
                    try row.bind(.integer(id))
                    // Read its one row, then finished: a statement left mid-rows holds a read
                    // of the file (and made the compaction after retention fail).
                    defer { row.reset() }
                    guard try row.step() else { continue }
                    let text = try row.withBlob(4) { try bodies.unpackText($0) }
                    index.remove(id: id, title: row.text(2) ?? "", author: row.text(3), text: text)
                    try db.prepare(
                        "INSERT OR IGNORE INTO removed(feed_id, guid, removed_at) VALUES (?1, ?2, ?3)"
                    )
                    .bind(.integer(row.int64(0)), .text(row.text(1) ?? ""), .integer(seconds)).run()
                    try db.prepare("DELETE FROM articles WHERE id = ?1").bind(.integer(id)).run()
                }
                try index.apply(in: db)
            }
        }
        try db.prepare("DELETE FROM removed WHERE removed_at < ?1").bind(.integer(seconds - 366 * 86_400))
            .run()
        try tidyArchivedFeeds()
        return ids.count + hidden.count
    }

    /// The hidden articles (their rowids) of the feeds `feeds` selects (a condition on
    /// `feed_id`) older than `days`, or beyond the feed's `articles` newest, shown and hidden.
    private func hiddenBeyond(days: Int?, articles: Int?, feeds: String, now: Date) throws -> [Int64] {
        var found: [Int64] = []
        if let days, days > 0 {
            let cutoff = Int64(now.timeIntervalSince1970) - Int64(days) * 86_400
            let statement = try db.prepareUncached(
                "SELECT rowid FROM hidden_articles WHERE sort_time < ?1 AND \(feeds)")
            try statement.bind(.integer(cutoff))
            while try statement.step() { found.append(statement.int64(0)) }
        }
        if let articles, articles > 0 {
            // Only the feeds with hidden articles: the shown ones of the others are not read.
            let statement = try db.prepareUncached(
                """
                SELECT hidden FROM (
                    SELECT hidden, row_number() OVER (
                        PARTITION BY feed_id ORDER BY sort_time DESC, id DESC) AS position
                    FROM (
                        SELECT rowid AS hidden, feed_id, sort_time, id FROM hidden_articles WHERE \(feeds)
                        UNION ALL
                        SELECT NULL, feed_id, sort_time, id FROM articles
                        WHERE feed_id IN (SELECT feed_id FROM hidden_articles WHERE \(feeds))))
                WHERE hidden IS NOT NULL AND position > ?1
                """)
            try statement.bind(.integer(Int64(articles)))
            while try statement.step() { found.append(statement.int64(0)) }
        }
        return found
    }

    /// Removes hidden articles (they have no search entries) and remembers them as removed.
    private func removeHidden(_ rowids: [Int64], at seconds: Int64) throws {
        guard !rowids.isEmpty else { return }
        let json = "[" + rowids.map(String.init).joined(separator: ",") + "]"
        try db.transaction {
            try db.prepare(
                """
                INSERT OR IGNORE INTO removed(feed_id, guid, removed_at)
                SELECT feed_id, guid, ?2 FROM hidden_articles WHERE rowid IN (SELECT value FROM json_each(?1))
                """
            ).bind(.text(json), .integer(seconds)).run()
            try db.prepare("DELETE FROM hidden_articles WHERE rowid IN (SELECT value FROM json_each(?1))")
                .bind(.text(json)).run()
        }
    }

    /// Compacts the file when retention left a quarter or more of it free (a command that
    /// only writes runs this, never the reader); returns whether it did. Compaction is never
    /// an error: when it cannot run now (another program reading or writing the library, too
    /// little disk for the copy VACUUM makes) it is skipped, the file is as it was (VACUUM is
    /// one transaction), and the next command that writes tries again.
    @discardableResult
    public func compactIfMostlyFree() throws -> Bool {
        let free = try db.integer("PRAGMA freelist_count")
        let pages = try db.integer("PRAGMA page_count")
        guard pages > 0, free * 4 >= pages, !db.isInTransaction else { return false }
        db.resetBusyStatements()
        do {
            try db.execute("VACUUM")
            return true
        } catch {
            return false
        }
    }

    /// The guids among `guids` that retention removed from `feed`.
    func removedGuids(feed: Int64, among guids: [String]) throws -> Set<String> {
        guard !guids.isEmpty else { return [] }
        let statement = try db.prepare(
            "SELECT j.value FROM json_each(?2) AS j CROSS JOIN removed r ON r.feed_id = ?1 AND r.guid = j.value"
        )
        let json = String(decoding: try JSONEncoder().encode(guids), as: UTF8.self)
        try statement.bind(.integer(feed), .text(json))
        var found = Set<String>()
        while try statement.step() { found.insert(statement.text(0) ?? "") }
        return found
    }
}
