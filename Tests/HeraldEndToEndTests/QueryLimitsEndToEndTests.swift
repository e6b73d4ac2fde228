import Foundation
import HeraldTestSupport
import Testing

/// Deep queries and regular expressions that backtrack without end, against the real binary
/// (the release one too, in CI): a clear error at the column where the depth limit is
/// passed, never a crash; a pattern too slow stopped within its time, and said so.
@Suite("Deep queries and slow patterns, end to end", .serialized)
struct QueryLimitsEndToEndTests {
    typealias Library = CommandLineTests.Library

    static let slowPatterns = [#"(\w+\s?)+$"#, "((a+)+)+$", "(a+)+$"]

    /// A library holding the fixture feed of titles of 20–32 `a` and a `!`, and "Rust news".
    func backtrackingLibrary(_ server: FixtureServer, config: URL? = nil) throws -> Library {
        let library = Library()
        let options = config.map { ["--config", $0.path] } ?? []
        #expect(
            try library.run(options + ["add", server.url("/files/backtracking.xml").absoluteString])
                .exitStatus == 0)
        return library
    }

    @Test("list --query: 20,000 or 100,000 unclosed parentheses are refused at column 65; 30,000 - fold")
    func deepQueries() throws {
        let library = Library()
        defer { library.cleanUp() }
        let deep = String(repeating: "(", count: 20_000) + "title:x" + String(repeating: ")", count: 20_000)
        for query in [deep, String(repeating: "(", count: 100_000)] {
            let result = try library.run(["list", "--query", query])
            #expect(result.exitStatus == 2, "\(result.errors.prefix(300))")
            #expect(result.errors.hasPrefix("herald: query:65: parentheses nested deeper than 64"))
        }
        let dashes = String(repeating: "-", count: 30_000)
        let folded = try library.run(["list", "--query", dashes + "unread", "--json"])
        #expect(folded.exitStatus == 0, "\(folded.errors.prefix(300))")
        #expect(folded.output.split(separator: "\n").count == CommandLineTests.Demo.articles)
        let alone = try library.run(["list", "--query", dashes])
        #expect(alone.exitStatus == 2)
        #expect(alone.errors.hasPrefix("herald: query:30000: - needs a term right after it"))
    }

    @Test("config check names a filter nested 20,000 deep at the column where it passes 64")
    func deepFilter() throws {
        let library = Library()
        defer { library.cleanUp() }
        let config = try library.write(
            "filter " + String(repeating: "(", count: 20_000) + "title:x"
                + String(repeating: ")", count: 20_000)
                + " mark-read\n", to: "config")
        let result = try library.run(["--config", config.path, "config", "check"])
        #expect(result.exitStatus == 1, "\(result.errors.prefix(300))")
        #expect(result.output.hasPrefix("\(config.path):1:72: query: parentheses nested deeper than 64"))
    }

    @Test(
        "list --query with a pattern that backtracks without end fails at once, naming it",
        arguments: slowPatterns)
    func slowQuery(pattern: String) throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = try backtrackingLibrary(server)
        defer { library.cleanUp() }
        #expect(try library.run(["reload", "--quiet"]).exitStatus == 0)
        let result = try library.run(["list", "--query", "title:/\(pattern)/"], timeout: 20)
        #expect(!result.timedOut)
        #expect(result.exitStatus == 2, "\(result.errors)")
        #expect(
            result.errors.hasPrefix("herald: query: /\(pattern)/ is too slow: over 50 ms"), "\(result.errors)"
        )
        // Ordinary patterns on the same titles.
        let rust = try library.run(["list", "--query", "title:/^rust/ or title:/a{32}/"])
        #expect(rust.exitStatus == 0 && rust.output.split(separator: "\n").count == 2, "\(rust.errors)")
    }

    @Test(
        "reload leaves out a filter that backtracks without end and says so; config check names it and the highlight"
    )
    func slowFilterAndHighlight() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        let config = try library.write(
            """
            highlight "(a+)+$" red
            filter title:/(a+)+$/ mark-read
            filter -title:/(a+)+$/ delete
            filter title:/a{25}/ mark-read
            """, to: "config")
        let options = ["--config", config.path]
        #expect(
            try library.run(options + ["add", server.url("/files/backtracking.xml").absoluteString])
                .exitStatus == 0)
        let reload = try library.run(options + ["reload", "--quiet"], timeout: 20)
        #expect(!reload.timedOut && reload.exitStatus == 0, "\(reload.errors)")
        #expect(
            reload.errors.contains(
                "herald: filter: /(a+)+$/ is too slow: over 50 ms on one title or author"),
            "\(reload.errors)")
        #expect(reload.errors.contains("left out of this reload"))
        let rows = try library.jsonLines(options + ["list"])
        #expect(rows.count == 14, "the negated filter deleted nothing")
        #expect(rows.filter { $0["read"] as? Bool == true }.count == 8)
        let check = try library.run(options + ["config", "check"], timeout: 20)
        #expect(check.exitStatus == 1)
        #expect(
            check.output.contains("\(config.path):1:12: highlight: /(a+)+$/ is too slow"), "\(check.output)")
        #expect(check.output.contains("\(config.path):2:15: filter: /(a+)+$/ is too slow"), "\(check.output)")
        #expect(!check.output.contains(":4:"), "a{25} is fine")
    }

    @Test(
        ":mark-read with 30,000 - is an error on the status line; the reader keeps running and q quits with 0"
    )
    func readerDeepCommand() async throws {
        let library = Library()
        defer { library.cleanUp() }
        let session = try await library.openReader()
        defer { session.kill() }
        try await session.waitUntil(contains: "1/4 feeds")
        let dashes = String(repeating: "-", count: 30_000)
        try session.type(":mark-read " + dashes)
        try session.sendKeys("Enter")
        // 30,000 keys, each drawing the line's end (a loaded machine takes seconds).
        // The line holds 4,096 bytes (InputLimits.promptBytes): the rest of the paste is left out.
        try await session.waitUntil(
            contains: "- needs a term right after it: -word (column 4096)",
            timeout: .seconds(30))
        // Signs fold; the parentheses after them are refused at the 65th.
        try session.type(":mark-read " + dashes.prefix(3_000) + String(repeating: "(", count: 100) + "unread")
        try session.sendKeys("Enter")
        try await session.waitUntil(
            contains: "parentheses nested deeper than 64 (column 3075)", timeout: .seconds(30))
        try session.sendKeys("q")
        #expect(try await session.waitForExitStatus() == 0)
        #expect(try library.sqlite("SELECT count(*) FROM articles WHERE read = 1") == "0")
    }
}
