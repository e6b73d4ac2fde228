/// Deferred search indexing: a reload stores its new articles without their search entries,
/// and the indexes catch up afterwards, a small transaction at a time.
///
/// Indexing is about half of the database's work per new article (the word index, one
/// token per CJK character, the trigrams of titles and authors). Left out of a reload's
/// transactions, it no longer stands between the network and the end of the reload; done
/// later in larger batches, it also writes fewer, larger index segments.
///
/// `meta` holds `search.indexed-through`: every article whose id is at most that value is in
/// the indexes, exactly as stored, and no article above it is. Without the key, every article
/// is. Every write of the indexes keeps to that rule (`SearchIndex.Pending.apply` skips the
/// rows above the marker, so nothing removes an entry that was never written: FTS5's
/// `delete` of a contentless row that is not there corrupts the index), and the indexer
/// moves the marker in the same transaction as the entries it writes, so a kill mid-way
/// loses nothing and the next run goes on from the marker.
///
/// A search first indexes whatever waits (`catchUpSearchIndex`): it finds every article,
/// as before, at the price of doing the rest of the work itself when it runs before the
/// indexer has finished.
extension LibraryStore {
    /// The `meta` key of the marker.
    nonisolated static let indexedThroughKey = "search.indexed-through"

    /// How many articles one transaction of the reader's indexer takes. A batch of 50
    /// articles of 1–10 KB of text, half of it CJK, took 27 ms in all (its split off the
    /// database actor included) on the 2-core machine at load 5; 200 took 95 ms, for 10%
    /// less time in all. Between batches, the reader's own requests get the database.
    public nonisolated static let indexingBatch = 50

    /// From now on, new articles wait for the indexer: the marker is set at the newest
    /// article (all of them are indexed when there is no marker), so the next ones are above
    /// it. Runs in the caller's transaction, if any.
    public func deferSearchIndexing() throws {
        try db.prepare(
            "INSERT OR IGNORE INTO meta(key, value) SELECT ?1, coalesce(max(id), 0) FROM articles"
        ).bind(.text(Self.indexedThroughKey)).run()
    }

    /// How many articles wait for their search entries.
    public func articlesWaitingForIndex() throws -> Int {
        guard let through = try SearchIndex.indexedThrough(in: db) else { return 0 }
        return Int(
            try db.prepare("SELECT count(*) FROM articles WHERE id > ?1").bind(.integer(through))
                .firstRow { $0.int64(0) } ?? 0)
    }

    /// Indexes up to `limit` waiting articles, oldest id first, in one transaction that
    /// moves the marker past them (and removes it when none are left). Returns how many it
    /// indexed: fewer than `limit` means it has caught up.
    @discardableResult
    public func indexWaitingArticles(limit: Int = LibraryStore.indexingBatch) throws -> Int {
        try db.transaction {
            guard let through = try SearchIndex.indexedThrough(in: db) else { return 0 }
            let rows = try db.prepare(
                "SELECT id, title, author, body FROM articles WHERE id > ?1 ORDER BY id LIMIT ?2")
            try rows.bind(.integer(through), .integer(Int64(limit)))
            var entries: [(id: Int64, entry: SearchEntry)] = []
            while try rows.step() {
                let text = try rows.withBlob(3) { try bodies.unpackText($0) }
                entries.append(
                    (rows.int64(0), SearchEntry(title: rows.text(1) ?? "", author: rows.text(2), text: text)))
            }
            for (id, entry) in entries { try SearchIndex.add(id: id, entry: entry, in: db) }
            if entries.count < limit {
                try db.prepare("DELETE FROM meta WHERE key = ?1").bind(.text(Self.indexedThroughKey)).run()
            } else if let last = entries.last {
                try db.prepare("UPDATE meta SET value = ?2 WHERE key = ?1")
                    .bind(.text(Self.indexedThroughKey), .integer(last.id)).run()
            }
            return entries.count
        }
    }

    /// Indexes everything that waits, in batches, on the database actor alone: what a query
    /// compiled on the actor does before it reads an index. Returns how many it indexed.
    @discardableResult
    public func catchUpSearchIndex(batch: Int = 2000) throws -> Int {
        var total = 0
        while true {
            let done = try indexWaitingArticles(limit: batch)
            total += done
            if done < batch { return total }
        }
    }

    /// Indexes in the background, a batch of `batch` articles at a time: the rows are read
    /// on the database actor, their entries split (inflating the text, finding its CJK
    /// characters and trigrams) off it on `parts` tasks at once, and written back on it in
    /// one transaction, so the actor is held only to read and to write, and the reader's
    /// requests queued meanwhile run between. `progress` hears how many articles still wait
    /// before each batch (and 0 at the end). Cancelling stops it between batches; the next
    /// run goes on from the marker.
    public nonisolated func runSearchIndexer(
        batch: Int = LibraryStore.indexingBatch, parts: Int = 1,
        progress: @escaping @Sendable (Int) -> Void = { _ in }
    ) async throws {
        var waiting = try await articlesWaitingForIndex()
        while waiting > 0, !Task.isCancelled {
            progress(waiting)
            let rows = try await waitingRows(limit: batch)
            let entries = try await Self.entries(rows.rows, parts: parts)
            var done = try await writeEntries(entries, of: rows, limit: batch)
            // Something was written between the read and the write: this batch, done here.
            if done == nil { done = try await indexWaitingArticles(limit: batch) }
            let indexed = done ?? 0
            // A reload may have added rows meanwhile: count again when this pass looks done.
            waiting = indexed < batch ? try await articlesWaitingForIndex() : max(waiting - indexed, 1)
        }
        progress(0)
    }

    /// Articles waiting for the index as read for `runSearchIndexer`, with what the library
    /// was when they were read.
    public struct WaitingRows: Sendable {
        struct Row: Sendable {
            var id: Int64
            var title: String
            var author: String?
            var body: [UInt8]
        }
        var rows: [Row]
        /// The marker, this connection's count of changed rows and the file's data version:
        /// while all three stay, the rows are as read.
        var stamp: [Int64]
    }

    func waitingRows(limit: Int) throws -> WaitingRows {
        let stamp = try librarySnapshotStamp()
        guard stamp[0] >= 0 else { return WaitingRows(rows: [], stamp: stamp) }
        let statement = try db.prepare(
            "SELECT id, title, author, body FROM articles WHERE id > ?1 ORDER BY id LIMIT ?2")
        try statement.bind(.integer(stamp[0]), .integer(Int64(limit)))
        var rows: [WaitingRows.Row] = []
        while try statement.step() {
            rows.append(
                WaitingRows.Row(
                    id: statement.int64(0), title: statement.text(1) ?? "", author: statement.text(2),
                    body: statement.blob(3)))
        }
        return WaitingRows(rows: rows, stamp: stamp)
    }

    /// Writes the entries of rows read by `waitingRows` and moves the marker past them, when
    /// nothing was written in between; returns how many it indexed, nil when something was.
    func writeEntries(_ entries: [SearchEntry], of read: WaitingRows, limit: Int) throws -> Int? {
        try db.transaction {
            guard try librarySnapshotStamp() == read.stamp, read.stamp[0] >= 0 else {
                return read.stamp[0] < 0 ? 0 : nil
            }
            for (row, entry) in zip(read.rows, entries) {
                try SearchIndex.add(id: row.id, entry: entry, in: db)
            }
            if read.rows.count < limit {
                try db.prepare("DELETE FROM meta WHERE key = ?1").bind(.text(Self.indexedThroughKey)).run()
            } else if let last = read.rows.last {
                try db.prepare("UPDATE meta SET value = ?2 WHERE key = ?1")
                    .bind(.text(Self.indexedThroughKey), .integer(last.id)).run()
            }
            return read.rows.count
        }
    }

    /// The marker (-1 without one), `total_changes()` and `PRAGMA data_version`.
    private func librarySnapshotStamp() throws -> [Int64] {
        let marker = try SearchIndex.indexedThrough(in: db) ?? -1
        return [marker, try db.integer("SELECT total_changes()"), try db.integer("PRAGMA data_version")]
    }

    /// The search entries of rows, split on `parts` tasks.
    nonisolated static func entries(_ rows: [WaitingRows.Row], parts: Int) async throws -> [SearchEntry] {
        guard parts > 1, rows.count >= 2 * parts else { return try split(rows[...]) }
        let size = (rows.count + parts - 1) / parts
        return try await withThrowingTaskGroup(of: (Int, [SearchEntry]).self) { group in
            for start in stride(from: 0, to: rows.count, by: size) {
                let slice = rows[start..<min(start + size, rows.count)]
                group.addTask { (start, try split(slice)) }
            }
            var done: [(Int, [SearchEntry])] = []
            for try await part in group { done.append(part) }
            return done.sorted { $0.0 < $1.0 }.flatMap(\.1)
        }
    }

    nonisolated static func split(_ rows: ArraySlice<WaitingRows.Row>) throws -> [SearchEntry] {
        let codec = ArticleBodyCodec()
        return try rows.map { row in
            let text = try row.body.withUnsafeBytes { try codec.unpackText($0) }
            return SearchEntry(title: row.title, author: row.author, text: text)
        }
    }
}

extension SearchIndex {
    /// The marker of deferred indexing (see `LibraryStore.deferSearchIndexing`): the id up
    /// to which the indexes hold every article, nil when they hold them all.
    static func indexedThrough(in db: SQLiteConnection) throws -> Int64? {
        // A library opened at a schema before `meta` (tests of migrations) defers nothing.
        guard let statement = try? db.prepare("SELECT CAST(value AS INTEGER) FROM meta WHERE key = ?1") else {
            return nil
        }
        return try statement.bind(.text(LibraryStore.indexedThroughKey)).firstRow { $0.int64(0) }
    }
}
