import HeraldCore

/// A tag's articles in list order, read from its feeds' own indexes.
///
/// A tag is a k-way merge of its feeds' index walks, a few rows from each at a time: it
/// costs what its page holds plus a probe per feed, however the tag's articles are spread
/// in time. A tag holding a large share of the library first walks the time index and
/// keeps its own rows (a few keys read per row kept, no probe per feed), within a budget
/// after which the merge takes over.
extension LibraryStore {
    /// A page of a tag's articles: `skip + limit` rows in scan order, without the first
    /// `skip`.
    func tagPage(_ name: String, after key: ArticleSortKey?, forward: Bool, limit: Int, skip: Int) throws
        -> [ArticleSummary]
    {
        let statement = try db.prepare(
            """
            SELECT id, url, total_count FROM feeds
            WHERE instr(char(9) || tags || char(9), char(9) || ?1 || char(9)) > 0 ORDER BY position, id
            """)
        try statement.bind(.text(name))
        var feeds: [Int64] = []
        var urls = Set<String>()
        var tagTotal = 0
        while try statement.step() {
            feeds.append(statement.int64(0))
            urls.insert(statement.text(1) ?? "")
            tagTotal += Int(statement.int64(2))
        }
        guard !feeds.isEmpty else { return [] }
        let wanted = skip + limit
        var rows: [ArticleSummary] = []
        var from = key
        let libraryTotal = Int(try db.integer("SELECT coalesce(sum(total_count), 0) FROM feeds"))
        if feeds.count > 8, tagTotal * 16 >= libraryTotal {
            // Dense: about libraryTotal / tagTotal keys read per row kept, from the time
            // index alone (it holds the feed); give up after 16 per row wanted.
            let members = Set(feeds)
            var kept: [ArticleSortKey] = []
            var budget = 16 * wanted + 256
            var complete = false
            while kept.count < wanted, budget > 0, !complete {
                let chunk = min(budget, max(2 * wanted, 64), 4096)
                let keys = try timeIndexKeys(after: from, forward: forward, limit: chunk)
                budget -= keys.count
                for (key, feed) in keys where members.contains(feed) {
                    kept.append(key)
                    if kept.count == wanted { break }
                }
                complete = keys.count < chunk
                if let last = keys.last { from = last.key }
                if kept.count == wanted { from = kept.last }
            }
            rows = try summaries(of: kept, forward: forward)
            if kept.count == wanted || complete { return Array(rows.dropFirst(skip)) }
        }
        rows += try merged(feeds: feeds, after: from, forward: forward, limit: wanted - rows.count, skip: 0)
        return Array(rows.dropFirst(skip))
    }

    /// Keys and feeds from the time index alone (a covering walk: no article row is read).
    func timeIndexKeys(after key: ArticleSortKey?, forward: Bool, limit: Int) throws -> [(
        key: ArticleSortKey, feed: Int64
    )] {
        let order = forward ? "DESC" : "ASC"
        var bound: [SQLiteValue] = []
        var filter = ""
        if let key {
            bound = [.integer(key.time), .integer(Int64(key.id) ?? 0)]
            filter = "WHERE (sort_time, id) \(forward ? "<" : ">") (?1, ?2) "
        }
        bound.append(.integer(Int64(limit)))
        let statement = try db.prepare(
            "SELECT sort_time, id, feed_id FROM articles INDEXED BY articles_by_time \(filter)"
                + "ORDER BY sort_time \(order), id \(order) LIMIT ?\(bound.count)")
        try statement.bind(bound)
        var keys: [(key: ArticleSortKey, feed: Int64)] = []
        keys.reserveCapacity(limit)
        while try statement.step() {
            keys.append(
                (ArticleSortKey(time: statement.int64(0), id: String(statement.int64(1))), statement.int64(2))
            )
        }
        return keys
    }

    /// The rows of these keys, in scan order.
    func summaries(of keys: [ArticleSortKey], forward: Bool) throws -> [ArticleSummary] {
        guard !keys.isEmpty else { return [] }
        let statement = try db.prepareUncached(
            "SELECT \(Self.summaryColumns) FROM articles a CROSS JOIN feeds f ON f.id = a.feed_id WHERE a.id IN ("
                + keys.map(\.id).joined(separator: ",") + ")")
        var rows: [ArticleSummary] = []
        while try statement.step() { rows.append(Self.summary(statement)) }
        return rows.sorted { forward ? $0.sortKey < $1.sortKey : $1.sortKey < $0.sortKey }
    }

    /// The row ids of the feeds with a tag, in feed-list order.
    func feedRowIDs(tagged tag: String) throws -> [Int64] {
        // Tags are stored tab-separated; a tab cannot be part of a tag.
        let statement = try db.prepare(
            """
            SELECT id FROM feeds
            WHERE instr(char(9) || tags || char(9), char(9) || ?1 || char(9)) > 0 ORDER BY position, id
            """)
        try statement.bind(.text(tag))
        var ids: [Int64] = []
        while try statement.step() { ids.append(statement.int64(0)) }
        return ids
    }

    /// A k-way merge of the feeds' own index walks: `skip + limit` rows in scan order (that
    /// also meet `conditions`, which bind nothing), read a few at a time from each feed, so
    /// the cost is the rows taken plus one probe per feed.
    func merged(
        feeds: [Int64], where conditions: [String] = [], after key: ArticleSortKey?, forward: Bool,
        limit: Int,
        skip: Int
    ) throws -> [ArticleSummary] {
        struct Run {
            var feed: Int64
            var rows: [ArticleSummary]
            var next = 0
            var exhausted: Bool
        }
        let wanted = skip + limit
        let chunk = max(8, min(wanted, wanted / max(feeds.count, 1) + 8, 1024))
        func read(_ feed: Int64, after key: ArticleSortKey?) throws -> Run {
            let rows = try scan(
                ["a.feed_id = ?1"] + conditions, [.integer(feed)], after: key, forward: forward, limit: chunk)
            return Run(feed: feed, rows: rows, exhausted: rows.count < chunk)
        }
        var runs = try feeds.map { try read($0, after: key) }
        // The runs' next rows in a heap, first in scan order on top: a row costs log(feeds).
        var heap = MergeHeap(forward: forward)
        for (index, run) in runs.enumerated() where !run.rows.isEmpty {
            heap.push(MergeHeap.Entry(key: run.rows[0].sortKey, run: index))
        }
        var out: [ArticleSummary] = []
        out.reserveCapacity(min(wanted, 4096))
        while out.count < wanted, let top = heap.pop() {
            let index = top.run
            out.append(runs[index].rows[runs[index].next])
            runs[index].next += 1
            if runs[index].next == runs[index].rows.count {
                guard !runs[index].exhausted, let last = runs[index].rows.last else { continue }
                runs[index] = try read(runs[index].feed, after: last.sortKey)
                if runs[index].rows.isEmpty { continue }
            }
            heap.push(MergeHeap.Entry(key: runs[index].rows[runs[index].next].sortKey, run: index))
        }
        return Array(out.dropFirst(skip))
    }
}

/// A binary heap of the merge's run heads, the first row in scan order on top. Keys are
/// compared as numbers (the library's ids), once parsed.
struct MergeHeap {
    struct Entry {
        var time: Int64
        var id: Int64
        var run: Int

        init(key: ArticleSortKey, run: Int) {
            time = key.time
            id = Int64(key.id) ?? 0
            self.run = run
        }
    }

    let forward: Bool
    private var entries: [Entry] = []

    init(forward: Bool) { self.forward = forward }

    /// True when `a` comes before `b` in scan order (newest first going forward).
    private func first(_ a: Entry, _ b: Entry) -> Bool {
        let newer = a.time != b.time ? a.time > b.time : a.id > b.id
        return forward ? newer : !newer && (a.time != b.time || a.id != b.id)
    }

    mutating func push(_ entry: Entry) {
        entries.append(entry)
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard first(entries[child], entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> Entry? {
        guard !entries.isEmpty else { return nil }
        let top = entries[0]
        let last = entries.removeLast()
        if !entries.isEmpty {
            entries[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var best = parent
                if left < entries.count, first(entries[left], entries[best]) { best = left }
                if right < entries.count, first(entries[right], entries[best]) { best = right }
                if best == parent { break }
                entries.swapAt(parent, best)
                parent = best
            }
        }
        return top
    }
}
