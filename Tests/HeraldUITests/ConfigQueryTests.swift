import Foundation
import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

@Suite("Queries and filters in the config file")
struct ConfigQueryTests {
    func parse(_ text: String) -> ReaderConfig { ConfigFile.parse(text, file: "config") }

    @Test(
        "the regular expressions of highlight, query and filter lines are kept with their place, for config check"
    )
    func regexes() {
        let config = ConfigFile.parse(
            """
            highlight "(a+)+$" red
            query "Slow" author:/^ann/ or title:/x y/
            filter title:/sponsored/ unread mark-read
            filter title:/bad(/ hide
            """, file: "c")
        #expect(
            config.regexes == [
                ConfigRegex(
                    line: 1, column: 12, directive: "highlight", field: .title, pattern: "(a+)+$", file: "c"),
                ConfigRegex(
                    line: 2, column: 22, directive: "query", field: .author, pattern: "^ann", file: "c"),
                ConfigRegex(
                    line: 2, column: 38, directive: "query", field: .title, pattern: "x y", file: "c"),
                ConfigRegex(
                    line: 3, column: 15, directive: "filter", field: .title, pattern: "sponsored", file: "c"),
            ], "a line with a mistake adds none")
    }

    @Test("query lines give named queries in order, filter lines filters with their actions")
    func directives() throws {
        let config = parse(
            """
            query "Unread news" tag:news unread   # a comment
            query Podcasts podcast -read
            filter title:"sponsored post" mark-read
            filter author:/^bot/ or feed:spam hide
            filter (age>1y -starred) delete
            """)
        #expect(config.diagnostics.isEmpty, "\(config.diagnostics)")
        #expect(config.queries.map(\.name) == ["Unread news", "Podcasts"])
        #expect(config.queries[0].query == .and([.tag("news"), .flag(.unread)]))
        #expect(config.queries[0].text == "tag:news unread")
        #expect(config.queries[1].query == .and([.flag(.podcast), .not(.flag(.read))]))
        #expect(config.filters.map(\.action) == [.markRead, .hide, .delete])
        #expect(config.filters[0].query == .field(.title, .contains("sponsored post")))
        #expect(
            config.filters[1].query
                == .or([.field(.author, .regex("^bot")), .field(.feed, .contains("spam"))]))
        #expect(
            config.filters[2].query == .and([.age(.greater, seconds: 365 * 86_400), .not(.flag(.starred))]))
    }

    @Test("skip is an action; a delete filter, and only it, is noted for config check as deleting for good")
    func deleteNoted() {
        let config = parse(
            """
            filter podcast hide
            filter podcast skip
            filter title:ad delete
            filter podcast mark-read
            """)
        #expect(config.diagnostics.isEmpty, "\(config.diagnostics)")
        #expect(config.filters.map(\.action) == [.hide, .skip, .delete, .markRead])
        #expect(config.notes.map(\.line) == [3] && config.notes.map(\.column) == [17])
        #expect(
            config.notes.first?.message.hasPrefix(
                "warning: this filter deletes the articles it matches for good") == true)
    }

    @Test(
        "a bad expression is reported at the column of its bad character in the line",
        arguments: [
            (
                "query \"X\" auhtor:bob",
                "config:1:11: query: unknown field \"auhtor\" — did you mean \"author\"?"
            ),
            (
                "  query News  tag:news (unread",
                "config:1:24: query: unclosed parenthesis opened at column 10"
            ),
            ("filter age<7 hide", "config:1:12: query: age needs a number and a unit: age<7d"),
            (
                "filter \"東京\" title:/a(/ delete",
                "config:1:19: query: bad regular expression: it does not compile (ICU syntax)"
            ),
            (
                "filter unread mark-red",
                "config:1:15: a filter ends with its action (mark-read, hide, skip or delete), not `mark-red` — did you mean `mark-read`?"
            ),
            (
                "filter hide",
                "config:1:12: filter needs an expression and an action: filter EXPR… mark-read|hide|skip|delete"
            ),
            ("query Lonely", "config:1:13: query needs a name and an expression: query \"Name\" EXPR…"),
            (
                "query A unread\nquery A read",
                "config:2:7: a query named \"A\" is defined above; the line is ignored"
            ),
        ])
    func diagnostics(text: String, expected: String) {
        let config = parse(text)
        #expect(config.diagnostics.map(\.description) == [expected])
    }

    @Test("a line with a mistake is skipped; the others still count")
    func skipped() {
        let config = parse("query A unread\nquery B (\nfilter podcast hide")
        #expect(config.queries.map(\.name) == ["A"])
        #expect(config.filters.count == 1)
        #expect(config.diagnostics.count == 1)
    }

    @Test("herald config default explains queries and filters")
    func defaultText() {
        let text = ConfigFile.defaultText()
        #expect(text.contains("# query \"Unread news\" tag:news unread"))
        #expect(text.contains("# filter title:/sponsored/ mark-read"))
        // The example lines parse without a diagnostic once uncommented.
        let examples = text.split(separator: "\n").filter {
            $0.hasPrefix("# query ") || $0.hasPrefix("# filter ")
        }
        let config = parse(examples.map { String($0.dropFirst(2)) }.joined(separator: "\n"))
        #expect(config.diagnostics.isEmpty && config.queries.count == 1 && config.filters.count == 1)
    }
}
