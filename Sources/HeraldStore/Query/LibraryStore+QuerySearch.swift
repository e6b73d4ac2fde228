import Foundation
import HeraldCore

/// The search box speaks the query language too. Plain words (with `"phrases"` and
/// `-words`) are searched as before, best match first; a query with flags, fields, ages,
/// `or` or parentheses lists its matches newest first. A query with a field or an age that
/// does not parse is an error (the search screen shows it on its status line); other text
/// that does not parse (`"an unclosed phrase` being typed, `AND(OR)`) is searched as before.
extension LibraryStore {
    /// What `search` should run for `text`: the plain search's text, or a query.
    enum SearchPlan: Equatable {
        case words(String)
        case query(ArticleQuery)
    }

    nonisolated static func searchPlan(_ text: String) throws -> SearchPlan {
        let query: ArticleQuery
        do {
            query = try ArticleQuery.parse(text, typing: true)
        } catch {
            // A mistake at the very end is the query still being typed (`title:`).
            if looksLikeQuery(text), error.column <= text.count { throw error }
            return .words(text)
        }
        if query == .everything { return .words(text) }
        guard let terms = plainTerms(query) else { return .query(query) }
        // Reserved words like `not` and `and` are spelled as the plain search reads them.
        var words = terms.map { term -> String in
            let (free, negated) = term
            let text =
                free.isPhrase ? "\"" + free.text.replacingOccurrences(of: "\"", with: " ") + "\"" : free.text
            return (negated ? "-" : "") + text
        }.joined(separator: " ")
        if terms.last?.0.isPrefix != true { words += " " }
        return .words(words)
    }

    /// The free words of a query made only of them (some negated), else nil.
    private nonisolated static func plainTerms(_ query: ArticleQuery) -> [(FreeText, Bool)]? {
        func term(_ query: ArticleQuery) -> (FreeText, Bool)? {
            switch query {
            case .text(let free): (free, false)
            case .not(.text(let free)): (free, true)
            default: nil
            }
        }
        if case .and(let terms) = query {
            let plain = terms.compactMap(term)
            return plain.count == terms.count && !terms.isEmpty ? plain : nil
        }
        return term(query).map { [$0] }
    }

    /// Whether the text has a field (`tag:`, `auhtor:` …) or an age: then a parse error is
    /// shown. Other mistakes (`AND(OR)`, an `or` at the end while typing) are searched as
    /// text, as before the query language.
    private nonisolated static func looksLikeQuery(_ text: String) -> Bool {
        for word in text.split(whereSeparator: \.isWhitespace) {
            let bare = word.drop { $0 == "-" || $0 == "(" }.lowercased()
            if bare.hasPrefix("age<") || bare.hasPrefix("age>") || bare.hasPrefix("age=") { return true }
            if let colon = bare.firstIndex(of: ":"), !bare[..<colon].isEmpty,
                bare[..<colon].allSatisfy({ $0.isASCII && $0.isLetter }), !bare[colon...].hasPrefix("://")
            {
                return true
            }
        }
        return false
    }

    /// A query's newest `limit` matches as search results.
    func querySearch(_ query: ArticleQuery, limit: Int, token: CancellationToken) throws -> [SearchHit] {
        let rows = try runQuery(query, page: .first(limit: limit), now: Date(), token: token)
        let titles = Dictionary(
            try queryFeeds().map { (FeedID(row: $0.id), $0.title) }, uniquingKeysWith: { first, _ in first })
        return rows.map { SearchHit(article: $0, feedTitle: titles[$0.feedID] ?? "") }
    }
}
