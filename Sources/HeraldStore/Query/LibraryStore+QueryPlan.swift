import Foundation
import HeraldCore

/// How a page of a query is read: the plan `QueryCompiler` makes, or first a probe.
///
/// A term found in many articles has its first page within the newest few hundred of
/// them, where its plan may cost more up front than the walk: a free word in a quarter of
/// the library (`garden`, `東京`) would have its whole match list read (40–170 ms at 1M
/// articles), a `title:`/`author:` its candidates counted. A probe reads the page row by
/// row in windows of the list instead, asking the word index about each row (30–60 µs a
/// row) or testing its title (about 5 µs): a first window, then as many rows as the
/// matches seen so far say the page needs, up to a bound (`QueryPlanLimits`). What the
/// probe found is a prefix of the page (its windows follow list order); when it stops
/// short, the plan reads the rest, after its last window. Either way the page holds the
/// same rows.
///
/// A free word with few matches is read by row id at once (the plan is cheap), so a
/// query with free words is compiled first and probed only when its plan would read whole
/// match lists and its words are dense enough for a probe to fill the page (the share of
/// row ids their first matches span tells: `quiet garden`, in 3% of articles, is not). A
/// row costs a probe about 40 µs for each word it asks, so a word being typed, which asks
/// each of its completions, walks fewer rows. A query whose only costly terms are fields
/// is probed first, then compiled.
extension LibraryStore {
    func plannedScan(
        _ query: ArticleQuery, after key: ArticleSortKey?, forward: Bool, limit: Int, offset: Int, now: Date
    ) throws -> [ArticleSummary] {
        let limits = queryPlanLimits
        guard offset == 0, limit > 0, limits.probeRows > 0 else {
            let plan = try compile(query, now: now, mode: .full)
            return try queryScan(
                plan.condition, plan.values, after: key, forward: forward, limit: limit, offset: offset)
        }
        let probe = try compile(query, now: now, mode: .probe)
        var plan: CompiledQuery?
        let windows: (first: Int, most: Int)
        if probe.termsAskedPerRow > 0 {
            let full = try compile(query, now: now, mode: .full)
            // A row costs about 40 µs a word asked: a word being typed asks each of its
            // completions, so fewer rows are worth walking.
            let most = limits.probeRows / probe.termsAskedPerRow
            // Read by row id, or a word too sparse for the probe to fill the page.
            let sparse = limits.skipsSparseWords && full.sparsestMatches * Double(most) < Double(limit)
            guard full.readsMatchLists, !full.drivenByRowIDs, !sparse, most > 0 else {
                return try queryScan(full.condition, full.values, after: key, forward: forward, limit: limit)
            }
            (plan, windows) = (
                full, (max(QueryPlanLimits.firstProbeWindow / probe.termsAskedPerRow, 1), most)
            )
        } else if probe.testsFields {
            windows = (
                QueryPlanLimits.firstFieldWindow, limits.probeRows * QueryPlanLimits.fieldRowsPerWordRow
            )
        } else {
            // Flags, dates, feeds and tags: the plan walks an index that holds them.
            return try queryScan(probe.condition, probe.values, after: key, forward: forward, limit: limit)
        }
        var rows: [ArticleSummary] = []
        var cursor = key
        var walked = 0
        var window = min(windows.first, windows.most)
        while true {
            let end = try windowEnd(after: cursor, forward: forward, rows: window)
            rows += try queryScan(
                probe.condition, probe.values, after: cursor, through: end, forward: forward,
                limit: limit - rows.count)
            walked += window
            // The page is full, or the window reached the end of the list.
            guard rows.count < limit, let end else { return rows }
            cursor = end
            // Matches too rare to walk to: the rest by the plan.
            guard !rows.isEmpty else { break }
            let needed = (limit - rows.count) * walked / rows.count + 1
            guard walked + needed <= windows.most else { break }
            window = min(max(needed + needed / 4, 50), windows.most - walked)
        }
        let rest = try plan ?? compile(query, now: now, mode: .full)
        return rows
            + (try queryScan(
                rest.condition, rest.values, after: cursor, forward: forward, limit: limit - rows.count))
    }

    /// The key of the `rows`-th article of the whole library after `key` in list order; nil
    /// when fewer remain.
    private func windowEnd(after key: ArticleSortKey?, forward: Bool, rows: Int) throws -> ArticleSortKey? {
        let order = forward ? "DESC" : "ASC"
        var bound: [SQLiteValue] = [.integer(Int64(rows - 1))]
        var clause = ""
        if let key {
            bound += [.integer(key.time), .integer(Int64(key.id) ?? 0)]
            clause = "WHERE (sort_time, id) \(forward ? "<" : ">") (?2, ?3) "
        }
        let statement = try db.prepare(
            "SELECT sort_time, id FROM articles \(clause)ORDER BY sort_time \(order), id \(order) LIMIT 1 OFFSET ?1"
        )
        try statement.bind(bound)
        return try statement.firstRow { ArticleSortKey(time: $0.int64(0), id: String($0.int64(1))) }
    }
}

/// A query compiled (`QueryCompiler`), with what its plan does.
struct CompiledQuery {
    var condition: String
    var values: [SQLiteValue]
    /// A free word's whole match list is read while the time index is walked.
    var readsMatchLists: Bool
    /// The page is read from a few row ids found first.
    var drivenByRowIDs: Bool
    /// The smallest share of the library a free word of the top level was seen to match.
    var sparsestMatches: Double
    /// How many words and phrases a probe asks of the indexes for each row.
    var termsAskedPerRow: Int
    /// A `title:`/`author:` is tested on rows.
    var testsFields: Bool
}

/// Where the plans of queries change.
struct QueryPlanLimits: Sendable {
    /// The first window a probe of free words walks.
    static let firstProbeWindow = 60
    /// The first window a probe of fields walks: a title tested costs a tenth of a word looked up.
    static let firstFieldWindow = 500
    static let fieldRowsPerWordRow = 4
    /// How many rows a probe of one free word walks at most (of two, half as many; fields:
    /// four times as many); 0 turns probes off.
    var probeRows = 600
    /// Below this many matches (counted), a term's matches are read by row id and sorted;
    /// above, the time index is walked.
    var fewMatches = 2000
    /// Whether a word whose first matches say it is too sparse for a probe to fill the page
    /// goes straight to the plan (off in tests, which probe a library of a dozen articles).
    var skipsSparseWords = true
}

/// How many rows an index lookup found (up to a cap), and what share of the row ids they
/// span they are: a word's density, estimated from its first matches.
struct MatchSample {
    var count: Int
    var density: Double
}

extension LibraryStore {
    /// Sets where the plans of queries change (tests read the same pages with each plan).
    func setQueryPlanLimits(_ limits: QueryPlanLimits) { queryPlanLimits = limits }
}
