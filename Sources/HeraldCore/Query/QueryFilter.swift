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

/// What a filter does to the new articles it matches at a reload.
public enum FilterAction: String, Sendable, Hashable, CaseIterable {
    /// Stored already read.
    case markRead = "mark-read"
    /// Not stored, and not remembered either: without the filter they come back at the next
    /// reload.
    case hide
    /// Not stored and remembered as removed (the feed's later listings do not bring them
    /// back); the matching articles already stored go too. Starred articles never do.
    case delete
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
    /// (delete over hide over mark-read), or nil.
    public func action(for article: QueryFields, now: Int64) -> FilterAction? {
        var found: FilterAction?
        for filter in self where filter.query.matches(article, now: now) {
            switch (found, filter.action) {
            case (.delete, _): return .delete
            case (_, .delete): return .delete
            case (.hide, _), (_, .hide): found = .hide
            default: found = .markRead
            }
        }
        return found
    }
}
