/// What `ArticleQuery.matches` looks at in one article.
public struct QueryFields: Sendable, Hashable {
    public var title: String
    public var author: String?
    /// The article's text (what the search index holds, not its HTML).
    public var text: String
    public var feedTitle: String
    public var feedURL: String
    public var tags: [String]
    public var isRead: Bool
    public var isStarred: Bool
    public var hasEnclosure: Bool
    /// Seconds since 1970 of the article's time (published, or first seen): what `age`,
    /// `after:` and `before:` compare.
    public var time: Int64

    public init(
        title: String, author: String?, text: String, feedTitle: String, feedURL: String, tags: [String],
        isRead: Bool = false, isStarred: Bool = false, hasEnclosure: Bool = false, time: Int64
    ) {
        (self.title, self.author, self.text) = (title, author, text)
        (self.feedTitle, self.feedURL, self.tags) = (feedTitle, feedURL, tags)
        (self.isRead, self.isStarred, self.hasEnclosure, self.time) = (isRead, isStarred, hasEnclosure, time)
    }
}

extension ArticleQuery {
    /// Whether an article matches, evaluated in memory (filters on arriving articles). It
    /// agrees with the store's SQL: free words match whole folded words (the last typed
    /// one as a prefix), phrases consecutive words, CJK/Hangul as runs of characters in the
    /// title or text; `now` is what ages count from (seconds since 1970).
    ///
    /// Throws when a regular expression of the query is too slow for the run under way
    /// (`RegexBudget`): then the query decides nothing about the article.
    public func matches(_ article: QueryFields, now: Int64) throws(SlowRegexError) -> Bool {
        let document = QueryDocument(article)
        return try matches(document, now: now)
    }

    /// Recurses once per level of the query: `QueryParser` bounds them.
    private func matches(_ document: QueryDocument, now: Int64) throws(SlowRegexError) -> Bool {
        let article = document.fields
        switch self {
        case .and(let terms):
            for term in terms {
                if !(try term.matches(document, now: now)) { return false }
            }
            return true
        case .or(let terms):
            for term in terms {
                if try term.matches(document, now: now) { return true }
            }
            return false
        case .not(let term): return !(try term.matches(document, now: now))
        case .flag(let flag):
            switch flag {
            case .unread: return !article.isRead
            case .read: return article.isRead
            case .starred: return article.isStarred
            case .unstarred: return !article.isStarred
            case .podcast: return article.hasEnclosure
            }
        case .field(let field, let pattern):
            let texts: [String] =
                switch field {
                case .feed: [article.feedTitle, article.feedURL]
                case .author: article.author.map { [$0] } ?? []
                case .title: [article.title]
                }
            for text in texts {
                if try pattern.matches(text) { return true }
            }
            return false
        case .tag(let name):
            let wanted = name.lowercased()
            return article.tags.contains { $0.lowercased() == wanted }
        case .age(let comparison, let seconds):
            let age = now - article.time
            switch comparison {
            case .less: return age < seconds
            case .lessOrEqual: return age <= seconds
            case .greater: return age > seconds
            case .greaterOrEqual: return age >= seconds
            }
        case .after(let time): return article.time >= time
        case .before(let time): return article.time < time
        case .text(let free): return document.contains(free)
        }
    }
}

extension ArticleQuery {
    /// The regular expressions of the query (`title:/…/`, `author:/…/`), in order: what a
    /// filter is left out for when one is too slow (`RegexBudget`).
    public var regexPatterns: [String] { regexTerms.map(\.pattern) }

    /// The regular expressions of the query with the field each matches.
    public var regexTerms: [(field: QueryField, pattern: String)] {
        switch self {
        case .and(let terms), .or(let terms): terms.flatMap(\.regexTerms)
        case .not(let term): term.regexTerms
        case .field(let field, .regex(let pattern)): [(field, pattern)]
        default: []
        }
    }
}

extension QueryPattern {
    /// Whether `text` matches: contains the text ignoring case, or the regular expression
    /// (which throws when it is too slow for the run under way).
    public func matches(_ text: String) throws(SlowRegexError) -> Bool {
        switch self {
        case .contains(let needle): QueryPattern.contains(text, needle.lowercased())
        case .regex(let pattern): try QueryRegex.matches(pattern, text)
        }
    }

    /// Case-insensitive containment, as the store's `herald_contains` SQL function decides
    /// it: `needle` is already lowercased.
    public static func contains(_ haystack: String, _ needle: String) -> Bool {
        needle.isEmpty || haystack.lowercased().contains(needle)
    }
}

/// An article with its words worked out once, however many free words ask.
private final class QueryDocument {
    let fields: QueryFields
    init(_ fields: QueryFields) { self.fields = fields }

    lazy var columns: [[String]] = [fields.title, fields.author ?? "", fields.text].map(QueryText.words)

    func contains(_ free: FreeText) -> Bool {
        let pattern = QueryText.Pattern(free)
        // Nothing the indexes could hold (punctuation): no condition, as in the store.
        guard !pattern.isEmpty else { return true }
        for (index, sequence) in pattern.sequences.enumerated() {
            let prefix = pattern.lastIsPrefix && index == pattern.sequences.count - 1
            guard columns.contains(where: { QueryText.contains($0, sequence, lastIsPrefix: prefix) }) else {
                return false
            }
        }
        // The character index holds the title and the text, not the author.
        return pattern.runs.allSatisfy { fields.title.contains($0) || fields.text.contains($0) }
    }
}
