import HeraldCore
import Testing

@Suite("Query parser")
struct QueryParserTests {
    func parse(_ text: String, typing: Bool = false) throws -> ArticleQuery {
        try ArticleQuery.parse(text, typing: typing)
    }

    func word(_ text: String) -> ArticleQuery { .text(FreeText(text)) }

    /// The error a query gives (column and message), or nil when it parses.
    func error(_ text: String) -> QueryError? {
        do {
            _ = try ArticleQuery.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("an empty query selects everything")
    func empty() throws {
        #expect(try parse("") == .everything)
        #expect(try parse("   ") == .everything)
    }

    @Test("every flag is a term")
    func flags() throws {
        for flag in QueryFlag.allCases {
            #expect(try parse(flag.rawValue) == .flag(flag))
        }
        // Quoted, a reserved word is text.
        #expect(try parse("\"unread\"") == .text(FreeText("unread", isPhrase: true)))
    }

    @Test("terms side by side and with and are all required; or needs either")
    func andOr() throws {
        #expect(try parse("unread starred") == .and([.flag(.unread), .flag(.starred)]))
        #expect(try parse("unread and starred") == .and([.flag(.unread), .flag(.starred)]))
        #expect(try parse("unread AND starred") == .and([.flag(.unread), .flag(.starred)]))
        #expect(try parse("unread or starred") == .or([.flag(.unread), .flag(.starred)]))
        #expect(
            try parse("unread OR starred or podcast")
                == .or([.flag(.unread), .flag(.starred), .flag(.podcast)]))
    }

    @Test("and binds tighter than or, negation tighter than and, parentheses group")
    func precedence() throws {
        #expect(
            try parse("a b or c") == .or([.and([word("a"), word("b")]), word("c")]))
        #expect(
            try parse("a or b c") == .or([word("a"), .and([word("b"), word("c")])]))
        #expect(try parse("-a b") == .and([.not(word("a")), word("b")]))
        #expect(try parse("not a or b") == .or([.not(word("a")), word("b")]))
        #expect(try parse("a (b or c)") == .and([word("a"), .or([word("b"), word("c")])]))
        #expect(try parse("-(a or b)") == .not(.or([word("a"), word("b")])))
        // A run of negations folds as it is read (`QueryDepthTests`).
        #expect(try parse("NOT -unread") == .flag(.unread))
        #expect(try parse("not -(a or b)") == .or([word("a"), word("b")]))
        #expect(try parse("((a))") == word("a"))
    }

    @Test("fields take a bare word, a quoted string or (title, author) a regular expression")
    func fields() throws {
        #expect(try parse("feed:hacker") == .field(.feed, .contains("hacker")))
        #expect(try parse("Feed:\"Hacker News\"") == .field(.feed, .contains("Hacker News")))
        #expect(try parse("author:\"say \\\"hi\\\"\"") == .field(.author, .contains("say \"hi\"")))
        #expect(try parse("title:/^swift (6|7)$/") == .field(.title, .regex("^swift (6|7)$")))
        #expect(try parse("author:/a\\/b/") == .field(.author, .regex("a/b")))
        #expect(try parse("tag:Tech") == .tag("Tech"))
        #expect(try parse("feed:/rss") == .field(.feed, .contains("/rss")))
    }

    @Test("ages take every comparison and unit; dates are UTC midnights")
    func timeTerms() throws {
        #expect(try parse("age<7d") == .age(.less, seconds: 7 * 86_400))
        #expect(try parse("age<=12h") == .age(.lessOrEqual, seconds: 12 * 3600))
        #expect(try parse("age>30d") == .age(.greater, seconds: 30 * 86_400))
        #expect(try parse("age>=2w") == .age(.greaterOrEqual, seconds: 14 * 86_400))
        #expect(try parse("age<1y") == .age(.less, seconds: 365 * 86_400))
        #expect(try parse("after:2026-01-01") == .after(1_767_225_600))
        #expect(try parse("before:2024-02-29") == .before(1_709_164_800))
        #expect(try parse("after:1970-01-01") == .after(0))
    }

    @Test("free words and phrases; the last word is a prefix only while typing")
    func freeText() throws {
        #expect(try parse("swift") == word("swift"))
        #expect(try parse("\"a phrase\"") == .text(FreeText("a phrase", isPhrase: true)))
        #expect(try parse("e-mail") == word("e-mail"))
        #expect(try parse("http://x.org/a") == word("http://x.org/a"))
        #expect(try parse("gard", typing: true) == .text(FreeText("gard", isPrefix: true)))
        #expect(try parse("gard ", typing: true) == word("gard"))
        #expect(try parse("gard unread", typing: true) == .and([word("gard"), .flag(.unread)]))
        #expect(try parse("東京") == word("東京"))
    }

    @Test(
        "errors give the column of the problem and say what is wrong",
        arguments: [
            ("auhtor:x", 1, "unknown field \"auhtor\" — did you mean \"author\"?"),
            ("a tilte:x", 3, "unknown field \"tilte\" — did you mean \"title\"?"),
            ("tags:x", 1, "unknown field \"tags\" — did you mean \"tag\"?"),
            ("age<7", 5, "age needs a number and a unit: age<7d"),
            ("age<d", 5, "age needs a number and a unit: age<7d"),
            ("age<7m", 6, "age's unit is h, d, w or y (hours … years): age<7d"),
            ("age=7d", 4, "age compares with <, <=, > or >=: age<7d"),
            ("age:7d", 1, "age needs a comparison and a span: age<7d"),
            ("a (b or c", 3, "unclosed parenthesis opened at column 3"),
            ("a b)", 4, "unmatched closing parenthesis"),
            (")", 1, "unmatched closing parenthesis"),
            ("a ()", 3, "empty parentheses"),
            ("or a", 1, "or needs a term before it"),
            ("a or", 3, "or needs a term after it"),
            ("a or or b", 3, "or needs a term after it"),
            ("a and", 3, "and needs a term after it"),
            ("(a and) b", 4, "and needs a term after it"),
            ("a -", 3, "- needs a term right after it: -word"),
            ("a - b", 3, "- needs a term right after it: -word"),
            ("not", 1, "not needs a term after it"),
            ("say \"hi", 5, "unclosed quote opened at column 5"),
            ("\"\"", 1, "empty quotes"),
            ("\"a\"b", 4, "a space or a parenthesis must follow the closing quote"),
            ("title:/a(/", 7, "bad regular expression: it does not compile (ICU syntax)"),
            ("title:/abc", 7, "unclosed regular expression opened at column 7"),
            ("title://", 7, "empty regular expression"),
            ("title:/a/b", 10, "a space or a parenthesis must follow the regular expression"),
            ("tag:", 5, "tag: needs a value: tag:NAME"),
            ("feed: x", 6, "feed: needs a value: feed:TEXT"),
            ("after:2026-13-01", 7, "after needs a date: after:2026-01-01"),
            ("before:2023-02-29", 8, "before needs a date: before:2026-01-01"),
            ("after:yesterday", 7, "after needs a date: after:2026-01-01"),
        ])
    func errors(text: String, column: Int, message: String) {
        #expect(error(text) == QueryError(column: column, message: message))
    }

    @Test("columns count characters, not bytes")
    func columnsAreCharacters() {
        #expect(error("東京 café (x")?.column == 9)
    }

    @Test("a word with a colon that is not near a field name is a free word")
    func unknownPrefixIsText() throws {
        #expect(try parse("re:post") == word("re:post"))
        #expect(try parse("https://example.org") == word("https://example.org"))
    }
}
