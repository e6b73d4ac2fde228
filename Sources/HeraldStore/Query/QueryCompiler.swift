import Foundation
import HeraldCore

/// Turns an `ArticleQuery` into one SQL condition on `articles a`, with every value the
/// user typed bound as a parameter (`?1` …), never spliced into the SQL.
///
/// - Flags, ages and dates are conditions on the article's columns (the indexes of the
///   lists serve them: `a.read = 0` the unread index, `a.sort_time > ?` the time index).
/// - `feed:` and `tag:` are decided over the (small) feeds table in Swift, with the same
///   rules as in memory, and become the feeds' row ids (`a.feed_id IN json_each(?)`).
/// - `title:`/`author:` call `herald_contains` and `REGEXP` (`QueryFunctions`) on each row
///   looked at: a scan, fast when matches are common, as slow as the walk when rare.
/// - Free words go to the FTS5 indexes through `SearchQuery`, exactly as search does;
///   the free words side by side in one `and` become one MATCH.
struct QueryCompiler {
    /// A feed as the compiler sees it.
    struct FeedRow {
        var id: Int64
        var url: String
        var title: String
        var tags: [String]
        var total: Int64
    }

    let feeds: [FeedRow]
    /// Completions of a word being typed (the store's vocabulary lookup).
    let completions: (String) throws -> [String]
    /// How many rows an FTS table's MATCH finds, counted up to a cap.
    let matchCount: (_ table: String, _ match: String, _ cap: Int) throws -> Int
    /// Below this many matches, a free word's matches are read and sorted; above, the
    /// time index is walked (see `text`).
    static let fewMatches = 2000

    /// Seconds since 1970 that ages count from.
    let now: Int64
    /// Below this many articles, the feeds of a `feed:`/`tag:` are read through the
    /// per-feed index (then sorted); above, the time index is walked and the feed checked.
    var smallFeedSet: Int64 = 20_000

    private(set) var values: [SQLiteValue] = []

    private mutating func bind(_ value: SQLiteValue) -> String {
        values.append(value)
        return "?\(values.count)"
    }

    /// The condition for `query`, appending its values after `values` already bound.
    mutating func condition(_ query: ArticleQuery, topLevel: Bool = true) throws -> String {
        switch query {
        case .and(let terms):
            let (texts, others) = Self.split(terms)
            var parts = try others.map { try condition($0, topLevel: topLevel) }
            if !texts.isEmpty { parts.insert(try text(texts, topLevel: topLevel), at: 0) }
            return parts.isEmpty
                ? "1" : parts.count == 1 ? parts[0] : "(" + parts.joined(separator: " AND ") + ")"
        case .or(let terms):
            let parts = try terms.map { try condition($0, topLevel: false) }
            return parts.isEmpty ? "0" : "(" + parts.joined(separator: " OR ") + ")"
        case .not(let term):
            return "NOT " + (try condition(term, topLevel: false))
        case .flag(let flag):
            switch flag {
            case .unread: return "a.read = 0"
            case .read: return "a.read = 1"
            case .starred: return "a.starred = 1"
            case .unstarred: return "a.starred = 0"
            case .podcast: return "a.enclosures IS NOT NULL"
            }
        case .field(.feed, let pattern):
            return feedsCondition(
                feeds.filter { pattern.matches($0.title) || pattern.matches($0.url) }, topLevel)
        case .field(let field, let pattern):
            let column = field == .author ? "a.author" : "a.title"
            switch pattern {
            case .contains(let needle):
                return "herald_contains(\(column), \(bind(.text(needle.lowercased()))))"
            case .regex(let expression):
                return "(\(column) REGEXP \(bind(.text(expression))))"
            }
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
        case .text(let free): return try text([free], topLevel: topLevel)
        }
    }

    /// The free words among `terms`, and the rest.
    private static func split(_ terms: [ArticleQuery]) -> ([FreeText], [ArticleQuery]) {
        var texts: [FreeText] = []
        var others: [ArticleQuery] = []
        for term in terms {
            if case .text(let free) = term { texts.append(free) } else { others.append(term) }
        }
        return (texts, others)
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

    /// Free words and phrases that must all occur, as search finds them.
    private mutating func text(_ texts: [FreeText], topLevel: Bool) throws -> String {
        let input = texts.map { free in
            // A bare word never starts with a quote (that is a phrase), so `SearchQuery` reads
            // it as one word; a phrase cannot hold one.
            if free.isPhrase { return "\"" + free.text.replacingOccurrences(of: "\"", with: " ") + "\" " }
            return free.isPrefix ? free.text : free.text + " "
        }.joined()
        let search = SearchQuery(input)
        // Punctuation alone: nothing the indexes hold, so no condition (as in memory).
        guard !search.isEmpty else { return "1" }
        var parts: [(table: String, match: String)] = []
        if var words = search.words {
            if let prefix = search.prefix {
                guard let completed = search.words(completions: try completions(prefix)) else { return "0" }
                words = completed
            }
            parts.append(("articles_fts", words))
        }
        if let characters = search.characters { parts.append(("articles_cjk", characters)) }
        // Few matches (counted up to a cap, which costs little): they are read by row id
        // and sorted (`a.id IN`). More: the time index is walked in list order and each
        // row id looked up in the matches, read once (`+a.id IN`: the `+` keeps SQLite from
        // reading every match's row first), so a common word is met within a few rows.
        // (Asking the index about each row walked instead, `EXISTS … rowid = a.id`, costs
        // ~100 µs a row: 14 s for `garden -river` over 100k articles.)
        var driver: Int?
        if topLevel {
            let counts = try parts.map { try matchCount($0.table, $0.match, Self.fewMatches) }
            if let smallest = counts.indices.min(by: { counts[$0] < counts[$1] }),
                counts[smallest] < Self.fewMatches
            {
                driver = smallest
            }
        }
        let conditions = parts.indices.map { index in
            let (table, match) = parts[index]
            let column = index == driver ? "a.id" : "+a.id"
            return "\(column) IN (SELECT rowid FROM \(table) WHERE \(table) MATCH \(bind(.text(match))))"
        }
        return conditions.count == 1 ? conditions[0] : "(" + conditions.joined(separator: " AND ") + ")"
    }
}
