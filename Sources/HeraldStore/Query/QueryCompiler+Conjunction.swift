import Foundation
import HeraldCore

/// Terms that must all hold: free words looked up in the FTS5 indexes, `title:`/`author:`
/// narrowed by the trigram index, and the one index lookup with the fewest matches read
/// first (see `QueryCompiler`).
extension QueryCompiler {
    /// A MATCH on one of the FTS5 tables.
    struct Lookup {
        var table: String
        var match: String
    }

    private enum Part {
        /// Free words: the rows the lookup finds.
        case text(Lookup)
        /// `title:`/`author:`: the exact test, with a lookup that finds a superset of its rows.
        case field(QueryField, QueryPattern, Lookup?)
        case other(ArticleQuery)
    }

    /// The conditions of `terms`, which must all hold.
    mutating func conjunction(_ terms: [ArticleQuery], topLevel: Bool) throws -> [String] {
        var positives: [FreeText] = []
        var negatives: [FreeText] = []
        var parts: [Part] = []
        for term in terms {
            switch term {
            case .text(let free): positives.append(free)
            // Merged into the positive words' MATCH below; asked row by row, `NOT` of its
            // own lookup is cheaper (FTS5 answers `a NOT b` for one row slowly).
            case .not(.text(let free)) where mode == .full: negatives.append(free)
            case .field(let field, let pattern) where field != .feed:
                let narrowed = topLevel && mode == .full
                parts.append(.field(field, pattern, narrowed ? Self.fieldLookup(field, pattern) : nil))
            default: parts.append(.other(term))
            }
        }
        var lookups: [Lookup] = []
        if !positives.isEmpty {
            // A word being typed that completes to nothing: nothing matches.
            guard let found = try textLookups(positives) else { return ["0"] }
            lookups = found
        }
        for negative in negatives {
            if !merge(negative, into: &lookups) { parts.append(.other(.not(.text(negative)))) }
        }
        parts.insert(contentsOf: lookups.map(Part.text), at: 0)

        // The lookup with the fewest matches, when they are few, is read first. A field's
        // candidates are counted further: up to `fieldCandidates`, the time index is walked
        // with them in hand (reading no row that is not one), above it the rows themselves.
        // (A field's candidates are read as they are counted, and bound as a list: their
        // lookup can cost tens of ms when all authors share a word, too much to run twice.)
        var driver: Int?
        var candidates: [Int: [Int64]] = [:]
        if topLevel && mode == .full {
            var fewest = fewMatches
            for (index, part) in parts.enumerated() {
                let count: Int
                switch part {
                case .text(let lookup):
                    let sample = try matchSample(lookup.table, lookup.match, fewest)
                    count = sample.count
                    if count >= fewest { sparsestMatches = min(sparsestMatches, sample.density) }
                case .field(_, _, let lookup?):
                    let ids = try matchIDs(lookup.table, lookup.match, max(fewest, Self.fieldCandidates))
                    count = ids.count
                    if count < Self.fieldCandidates { candidates[index] = ids }
                default: continue
                }
                if count < fewest { (driver, fewest) = (index, count) }
            }
            drivenByRowIDs = driver != nil
        }
        return try parts.enumerated().map { index, part in
            switch part {
            case .text(let lookup):
                return textCondition(lookup, drives: index == driver)
            case .field(let field, let pattern, _):
                let test = fieldTest(field, pattern)
                guard let ids = candidates[index] else { return test }
                let json = "[" + ids.map(String.init).joined(separator: ",") + "]"
                let column = index == driver ? "a.id" : "+a.id"
                return "(\(column) IN (SELECT value FROM json_each(\(bind(.text(json))))) AND \(test))"
            case .other(let term):
                return try condition(term, topLevel: topLevel)
            }
        }
    }

    /// Up to this many candidates of `title:`/`author:` (4% of a million articles), the time
    /// index is walked with the candidates read beforehand; above, their rows are tested as
    /// they come, and the page fills within a few thousand rows.
    static let fieldCandidates = 40_000

    /// The rows a free-word lookup finds: read first by row id (the driver), looked up in
    /// the whole match list while the time index is walked (`+` keeps SQLite from reading
    /// every match's row first), or asked row by row (probe).
    private mutating func textCondition(_ lookup: Lookup, drives: Bool) -> String {
        let (table, match) = (lookup.table, bind(.text(lookup.match)))
        switch mode {
        case .probe:
            // Each quoted word or phrase of the MATCH (a `""` inside one is a quote in it).
            termsAskedPerRow += max(
                lookup.match.replacingOccurrences(of: "\"\"", with: "").count { $0 == "\"" } / 2, 1)
            return "EXISTS (SELECT 1 FROM \(table) WHERE \(table) MATCH \(match) AND rowid = a.id)"
        case .full:
            if !drives { readsMatchLists = true }
            return
                "\(drives ? "a.id" : "+a.id") IN (SELECT rowid FROM \(table) WHERE \(table) MATCH \(match))"
        }
    }

    /// The FTS5 lookups of free words and phrases that must all occur, as search finds them:
    /// empty for punctuation alone (nothing the indexes hold, so no condition, as in
    /// memory); nil when a word being typed completes to nothing.
    private func textLookups(_ texts: [FreeText]) throws -> [Lookup]? {
        let search = SearchQuery(Self.searchInput(texts))
        guard !search.isEmpty else { return [] }
        var lookups: [Lookup] = []
        if var words = search.words {
            if let prefix = search.prefix {
                guard let completed = search.words(completions: try completions(prefix)) else { return nil }
                words = completed
            }
            lookups.append(Lookup(table: "articles_fts", match: words))
        }
        if let characters = search.characters {
            lookups.append(Lookup(table: "articles_cjk", match: characters))
        }
        return lookups
    }

    /// Adds a negated free word to the positive words' MATCH of the same index (`a NOT b`),
    /// when it needs only that index; false when it has to stay a condition of its own.
    private func merge(_ negative: FreeText, into lookups: inout [Lookup]) -> Bool {
        let search = SearchQuery(Self.searchInput([negative]))
        guard search.prefix == nil else { return false }
        let (table, match): (String, String)
        switch (search.words, search.characters) {
        case (let words?, nil): (table, match) = ("articles_fts", words)
        case (nil, let characters?): (table, match) = ("articles_cjk", characters)
        default: return false
        }
        guard let index = lookups.firstIndex(where: { $0.table == table }) else { return false }
        lookups[index].match = "(\(lookups[index].match)) NOT (\(match))"
        return true
    }

    /// Free words as `SearchQuery` reads them. A bare word never starts with a quote (that is
    /// a phrase), so it is read as one word; a phrase cannot hold one.
    private static func searchInput(_ texts: [FreeText]) -> String {
        texts.map { free in
            if free.isPhrase { return "\"" + free.text.replacingOccurrences(of: "\"", with: " ") + "\" " }
            return free.isPrefix ? free.text : free.text + " "
        }.joined()
    }

    /// The trigram lookup that narrows `title:`/`author:`, when the pattern has text to look up.
    private static func fieldLookup(_ field: QueryField, _ pattern: QueryPattern) -> Lookup? {
        let column = field == .author ? "author" : "title"
        let runs: QueryPatternRuns =
            switch pattern {
            case .contains(let needle): FieldIndex.runs(containing: needle)
            case .regex(let expression): FieldIndex.runs(regex: expression)
            }
        return FieldIndex.match(column: column, pattern: runs).map {
            Lookup(table: "articles_fields", match: $0)
        }
    }
}
