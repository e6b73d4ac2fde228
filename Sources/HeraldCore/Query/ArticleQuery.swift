/// A parsed query of Herald's query language: what search, query feeds, filters and bulk
/// commands select articles with.
///
/// Terms side by side (or joined by `and`) must all hold, `or` between terms needs either,
/// `-` or `not` negates, parentheses group. `ArticleQuery.parse` reads the text form;
/// `matches(_:now:)` evaluates a query on one article in memory (filters at reload), and the
/// store compiles it to SQL (`LibraryStore.articles(matching:after:limit:)`).
public indirect enum ArticleQuery: Sendable, Hashable {
    /// Every term holds (an empty list: every article).
    case and([ArticleQuery])
    /// At least one term holds.
    case or([ArticleQuery])
    /// The term does not hold.
    case not(ArticleQuery)
    /// `unread`, `read`, `starred`, `unstarred`, `podcast`.
    case flag(QueryFlag)
    /// `feed:`, `author:`, `title:` with text or a regular expression.
    case field(QueryField, QueryPattern)
    /// `tag:NAME`: the article's feed has this tag (case-insensitive, exact).
    case tag(String)
    /// `age<7d` …: how long ago the article was published, against a number of seconds.
    case age(QueryComparison, seconds: Int64)
    /// `after:DATE`: published on or after this time (seconds since 1970, UTC midnight).
    case after(Int64)
    /// `before:DATE`: published strictly before this time.
    case before(Int64)
    /// A free word or `"a phrase"`, searched in the title, author and text.
    case text(FreeText)

    /// The query that selects every article.
    public static let everything = ArticleQuery.and([])
}

/// A flag of an article.
public enum QueryFlag: String, Sendable, Hashable, CaseIterable {
    case unread, read, starred, unstarred, podcast
}

/// A field matched against text.
public enum QueryField: String, Sendable, Hashable, CaseIterable {
    /// The feed's title or URL.
    case feed
    case author
    case title
}

/// What a field's value is matched with.
public enum QueryPattern: Sendable, Hashable {
    /// Contains the text, ignoring case.
    case contains(String)
    /// Matches the ICU regular expression, ignoring case.
    case regex(String)
}

/// How an article's age compares with the given span.
public enum QueryComparison: String, Sendable, Hashable, CaseIterable {
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
}

/// A free word or phrase of a query.
public struct FreeText: Sendable, Hashable {
    /// The word or the phrase, as typed (without quotes).
    public var text: String
    /// Typed in quotes: the words in this order, next to each other.
    public var isPhrase: Bool
    /// The word still being typed (the query's last, with no space after it, in a search
    /// box): it matches any word it begins.
    public var isPrefix: Bool

    public init(_ text: String, isPhrase: Bool = false, isPrefix: Bool = false) {
        self.text = text
        self.isPhrase = isPhrase
        self.isPrefix = isPrefix
    }
}

/// Why a query does not parse, and where: `column` is 1-based, counted in characters.
public struct QueryError: Error, Sendable, Hashable, CustomStringConvertible {
    public var column: Int
    public var message: String

    public init(column: Int, message: String) {
        self.column = column
        self.message = message
    }

    /// `3: unknown field "auhtor" — did you mean "author"?`
    public var description: String { "\(column): \(message)" }
}
