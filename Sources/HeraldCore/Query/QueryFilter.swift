/// A query with a name, from the config's `query "Name" EXPR…`: a list in the feed list.
public struct NamedQuery: Sendable, Hashable {
    public var name: String
    public var query: ArticleQuery
    /// The expression as written.
    public var text: String

    public init(name: String, query: ArticleQuery, text: String) {
        (self.name, self.query, self.text) = (name, query, text)
    }
}

/// What a filter does to the articles it matches. Each word says what it does: `hide`
/// keeps them in the library but shows them nowhere, `skip` does not store new ones,
/// `delete` removes them for good, `mark-read` stores them read.
public enum FilterAction: String, Sendable, Hashable, CaseIterable {
    /// New articles are stored already read.
    case markRead = "mark-read"
    /// Matching articles, new and already stored, stay in the library but show in no list,
    /// count or search; without the filter they show again. Starred articles never hide.
    case hide
    /// A new matching article is not stored, and not remembered either: without the filter
    /// it comes at the next reload. Nothing already stored is touched (newsboat's
    /// `ignore-mode download`).
    case skip
    /// Not stored and remembered as removed (the feed's later listings do not bring them
    /// back); the matching articles already stored go too. Starred articles never do.
    case delete

    /// The stronger of two actions matching one article: delete, then skip, then hide,
    /// then mark-read.
    var strength: Int {
        switch self {
        case .markRead: 0
        case .hide: 1
        case .skip: 2
        case .delete: 3
        }
    }
}

/// A filter from the config's `filter EXPR… ACTION`.
public struct QueryFilter: Sendable, Hashable {
    public var query: ArticleQuery
    public var action: FilterAction

    public init(query: ArticleQuery, action: FilterAction) {
        self.query = query
        self.action = action
    }
}

extension Array where Element == QueryFilter {
    /// What the filters do to an article: the strongest action among those that match
    /// (delete over skip over hide over mark-read), or nil.
    ///
    /// A filter with a regular expression too slow for the run under way (`RegexBudget`, a
    /// reload's) is left out from then on: it matches nothing rather than a guess (taken as
    /// "no match", `-title:/…/ delete` would delete everything).
    public func action(for article: QueryFields, now: Int64) -> FilterAction? {
        let slow = RegexBudget.inForce.tooSlow
        var found: FilterAction?
        for filter in self where (found?.strength ?? -1) < filter.action.strength {
            if !slow.isEmpty, filter.query.regexPatterns.contains(where: slow.contains) { continue }
            // Too slow now: its pattern is known as such, and the filter left out next time.
            guard (try? filter.query.matches(article, now: now)) == true else { continue }
            if filter.action == .delete { return .delete }
            found = filter.action
        }
        return found
    }

    /// The filters none of whose regular expressions is among `patterns`.
    public func leavingOut(_ patterns: [String]) -> [QueryFilter] {
        patterns.isEmpty ? self : filter { !$0.query.regexPatterns.contains(where: patterns.contains) }
    }
}
