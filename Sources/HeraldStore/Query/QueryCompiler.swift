import Foundation
import HeraldCore

/// Turns an `ArticleQuery` into one SQL condition on `articles a`, with every value the
/// user typed bound as a parameter (`?1` …), never spliced into the SQL.
///
/// - Flags, ages and dates are conditions on the article's columns, written so that the
///   lists' indexes serve them: `a.read = 0` the unread index, `a.read = 1` the read one,
///   `a.enclosures IS NOT NULL` the podcast one, `a.sort_time > ?` the time index. A negated
///   flag is written as its opposite (`-read` is `a.read = 0`), which the indexes serve too.
/// - `feed:` and `tag:` are decided over the (small) feeds table in Swift, with the same
///   rules as in memory, and become the feeds' row ids (`a.feed_id IN json_each(?)`).
/// - `title:`/`author:` call `herald_contains` and `REGEXP` (`QueryFunctions`) on each row
///   looked at. Among the terms that must all hold, they are first narrowed by the trigram
///   index of titles and authors (`FieldIndex`) when it finds fewer than `fieldCandidates`.
/// - Free words go to the FTS5 indexes through `SearchQuery`, exactly as search does; the
///   free words side by side in one `and` become one MATCH, with the negated ones in it
///   as `NOT` (`garden -river` is `garden NOT river`, which FTS5 answers from its lists).
///
/// Among the terms that must all hold (the top level), the one with the fewest matches
/// (counted up to `fewMatches`) is read first, by row id, and its rows sorted (`a.id IN`);
/// when every one has many, the time index is walked in list order instead. In `probe`
/// mode free words are asked of the index row by row (`EXISTS … rowid = a.id`) and fields
/// tested without their index, which costs µs a row but nothing up front:
/// `LibraryStore.plannedScan` walks a few hundred rows that way before the full plan.
struct QueryCompiler {
    /// A feed as the compiler sees it.
    struct FeedRow {
        var id: Int64
        var url: String
        var title: String
        var tags: [String]
        var total: Int64
    }

    /// How free words are looked up.
    enum Mode {
        /// Match lists read whole (or counted, then read by row id).
        case full
        /// Each row walked asked of the index on its own.
        case probe
    }

    let feeds: [FeedRow]
    /// Completions of a word being typed (the store's vocabulary lookup).
    let completions: (String) throws -> [String]
    /// How many rows an FTS table's MATCH finds, counted up to a cap, and how densely.
    let matchSample: (_ table: String, _ match: String, _ cap: Int) throws -> MatchSample
    /// The row ids an FTS table's MATCH finds, up to a cap.
    let matchIDs: (_ table: String, _ match: String, _ cap: Int) throws -> [Int64]

    /// Seconds since 1970 that ages count from.
    let now: Int64
    var mode = Mode.full
    /// Below this many matches, a term's matches are read by row id and sorted; above, the
    /// time index is walked.
    var fewMatches = QueryPlanLimits().fewMatches
    /// Below this many articles, the feeds of a `feed:`/`tag:` are read through the
    /// per-feed index (then sorted); above, the time index is walked and the feed checked.
    var smallFeedSet: Int64 = 20_000

    private(set) var values: [SQLiteValue] = []
    /// Whether a free word's whole match list is read while the time index is walked (the
    /// plan a probe can spare).
    var readsMatchLists = false
    /// Whether the page is read from a few row ids found first (then a probe is no use).
    var drivenByRowIDs = false
    /// The smallest share of the library that a free word of the top level was seen to
    /// match (1 when none was sampled).
    var sparsestMatches = 1.0
    /// How many words and phrases are asked of the indexes for each row (probe mode): what a
    /// row costs, each about 40 µs.
    var termsAskedPerRow = 0
    /// Whether a `title:`/`author:` is tested on rows.
    var testsFields = false

    mutating func bind(_ value: SQLiteValue) -> String {
        values.append(value)
        return "?\(values.count)"
    }

    /// The condition for `query`, appending its values after `values` already bound.
    /// Recurses once per level of the query (with `conjunction`): `QueryParser` bounds them.
    mutating func condition(_ query: ArticleQuery, topLevel: Bool = true) throws -> String {
        switch query {
        case .and(let terms):
            return Self.all(try conjunction(terms, topLevel: topLevel))
        case .or(let terms):
            let parts = try terms.map { try condition($0, topLevel: false) }
            return parts.isEmpty ? "0" : "(" + parts.joined(separator: " OR ") + ")"
        case .not(.flag(let flag)):
            return Self.flag(flag, negated: true)
        case .not(let term):
            return "NOT " + (try condition(term, topLevel: false))
        case .flag(let flag):
            return Self.flag(flag, negated: false)
        case .field(.feed, let pattern):
            return feedsCondition(
                try feeds.filter { try pattern.matches($0.title) || pattern.matches($0.url) }, topLevel)
        case .field:
            return Self.all(try conjunction([query], topLevel: topLevel))
        case .tag(let name):
            let wanted = name.lowercased()
            return feedsCondition(feeds.filter { $0.tags.contains { $0.lowercased() == wanted } }, topLevel)
        case .age(let comparison, let seconds):
            // age < s  ⟺  now − time < s  ⟺  time > now − s
            let (limit, _) = now.subtractingReportingOverflow(seconds)
            let op: String =
                switch comparison {
                case .less: ">"
                case .lessOrEqual: ">="
                case .greater: "<"
                case .greaterOrEqual: "<="
                }
            return "a.sort_time \(op) \(bind(.integer(limit)))"
        case .after(let time): return "a.sort_time >= \(bind(.integer(time)))"
        case .before(let time): return "a.sort_time < \(bind(.integer(time)))"
        case .text(let free): return Self.all(try conjunction([.text(free)], topLevel: topLevel))
        }
    }

    /// Conditions that must all hold, as one.
    private static func all(_ parts: [String]) -> String {
        parts.isEmpty ? "1" : parts.count == 1 ? parts[0] : "(" + parts.joined(separator: " AND ") + ")"
    }

    /// A flag, or its opposite: `read` and `starred` hold 0 or 1, so `NOT a.read = 1` is
    /// `a.read = 0`, which the unread index serves.
    static func flag(_ flag: QueryFlag, negated: Bool) -> String {
        switch (flag, negated) {
        case (.unread, false), (.read, true): "a.read = 0"
        case (.read, false), (.unread, true): "a.read = 1"
        case (.starred, false), (.unstarred, true): "a.starred = 1"
        case (.unstarred, false), (.starred, true): "a.starred = 0"
        case (.podcast, false): "a.enclosures IS NOT NULL"
        case (.podcast, true): "a.enclosures IS NULL"
        }
    }

    /// The exact test of `title:`/`author:` on the row.
    mutating func fieldTest(_ field: QueryField, _ pattern: QueryPattern) -> String {
        testsFields = true
        let column = field == .author ? "a.author" : "a.title"
        switch pattern {
        case .contains(let needle):
            return "herald_contains(\(column), \(bind(.text(needle.lowercased()))))"
        case .regex(let expression):
            return "(\(column) REGEXP \(bind(.text(expression))))"
        }
    }

    private mutating func feedsCondition(_ matching: [FeedRow], _ topLevel: Bool) -> String {
        guard !matching.isEmpty else { return "0" }
        let json = "[" + matching.map { String($0.id) }.joined(separator: ",") + "]"
        let total = matching.reduce(0) { $0 + $1.total }
        // `+` keeps SQLite from reading the feeds' index: it walks the time index (which
        // holds the feed id) in list order and stops at the page's end instead.
        let column = topLevel && total <= smallFeedSet ? "a.feed_id" : "+a.feed_id"
        return "\(column) IN (SELECT value FROM json_each(\(bind(.text(json)))))"
    }
}
