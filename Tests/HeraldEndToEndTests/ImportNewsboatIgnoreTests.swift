import Foundation
import HeraldTestSupport
import Testing

/// newsboat's `ignore-article` lines after `herald import-newsboat` (issue 22, item 5): with
/// `ignore-mode display` newsboat keeps the matching articles and only hides them, so Herald
/// must keep them too, shown nowhere, and show them again when the filter goes.
@Suite("herald import-newsboat: ignored articles", .serialized)
struct ImportNewsboatIgnoreTests {
    typealias Library = CommandLineTests.Library
    typealias Newsboat = ImportNewsboatTests.Newsboat

    func urls(_ server: FixtureServer) -> String {
        """
        \(server.url("/files/newsboat-tech.xml")) tech
        \(server.url("/files/newsboat-news.xml")) news
        """
    }

    /// The line matches two of the five articles, one in each feed; `ignore-mode` comes after it.
    static let config = """
        ignore-article "*" "title =~ \\"Windows\\" or title =~ \\"Episode\\""
        ignore-mode display
        """

    @Test(
        "ignore-mode display: a reload keeps every article, the list shows what newsboat showed, and removing the filter shows them all"
    )
    func displayModeHides() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        let newsboat = Newsboat(library: library)
        try newsboat.write(urls: urls(server), config: Self.config)
        try newsboat.reload()
        #expect(try newsboat.sql("SELECT count(*) FROM rss_item WHERE deleted = 0") == "5")
        // What newsboat itself shows: the ignored articles are not counted.
        let shown = try newsboat.printUnread()
        #expect(shown == 3)

        let result = try newsboat.importing()
        #expect(result.exitStatus == 0, "\(result.errors)")
        #expect(
            !result.output.contains("config line 2: ignore-mode"),
            "ignore-mode is carried over: \(result.output)")
        #expect(result.output.contains("config: 2 lines carried over, 0 not"), "\(result.output)")
        #expect(
            result.output.contains("config line 1: ignore-article → filter")
                && result.output.contains(" hide"),
            "the report says what the line became: \(result.output)")
        let config = try String(contentsOfFile: newsboat.heraldConfig, encoding: .utf8)
        #expect(config.contains("filter title:/Windows/ or title:/Episode/ hide\n"), "\(config)")

        // A reload from the same server: the hidden articles are neither lost nor stored twice.
        let options = ["--config", newsboat.heraldConfig]
        let reload = try library.run(["reload", "--quiet"] + options)
        #expect(reload.exitStatus == 0, "\(reload.errors)")
        let kept = try library.sqlite(
            "SELECT (SELECT count(*) FROM articles) + (SELECT count(*) FROM hidden_articles)")
        #expect(kept == "5", "every article newsboat had is still in the library")
        let listed = try library.jsonLines(["list"] + options).compactMap { $0["title"] as? String }
        #expect(listed.count == shown, "\(listed)")
        #expect(!listed.contains { $0.contains("Windows") || $0.contains("Episode") }, "\(listed)")
        #expect(try library.jsonLines(["search", "printers"] + options).isEmpty)
        let feeds = try library.sqlite("SELECT sum(total_count) FROM feeds")
        #expect(feeds == "3", "the feed counts leave the hidden articles out")

        // The filter goes: every article shows again, and a reload adds none twice.
        try "".write(toFile: newsboat.heraldConfig, atomically: true, encoding: .utf8)
        let all = try library.jsonLines(["list"] + options).compactMap { $0["title"] as? String }
        #expect(all.count == 5, "\(all)")
        #expect(try library.jsonLines(["search", "printers"] + options).count == 1)
        #expect(try library.run(["reload", "--quiet"] + options).exitStatus == 0)
        #expect(try library.sqlite("SELECT count(*) FROM articles") == "5")
        #expect(try library.sqlite("SELECT count(*) FROM hidden_articles") == "0")
    }

    @Test("ignore-mode download (newsboat's default): new matching articles are skipped, stored ones stay")
    func downloadModeSkips() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        let newsboat = Newsboat(library: library)
        // newsboat stored everything before the line was written: it deletes nothing.
        try newsboat.write(urls: urls(server), config: "")
        try newsboat.reload()
        try newsboat.write(urls: urls(server), config: "ignore-article \"*\" \"title =~ \\\"Windows\\\"\"\n")
        try newsboat.reload()
        #expect(try newsboat.sql("SELECT count(*) FROM rss_item WHERE deleted = 0") == "5")
        #expect(try newsboat.printUnread() == 5)

        let result = try newsboat.importing()
        #expect(result.exitStatus == 0, "\(result.errors)")
        #expect(
            result.output.contains("config line 1: ignore-article → filter title:/Windows/ skip"),
            "\(result.output)")
        let options = ["--config", newsboat.heraldConfig]
        #expect(try library.run(["reload", "--quiet"] + options).exitStatus == 0)
        #expect(try library.jsonLines(["list"] + options).count == 5, "no import deletes")
    }
}

extension ImportNewsboatTests.Newsboat {
    /// How many unread articles newsboat shows (`-x print-unread`: ignored ones are left out).
    func printUnread() throws -> Int {
        let result = try newsboat(["-x", "print-unread"])
        let count = result.output.split(separator: " ").first.flatMap { Int($0) }
        return try #require(count, "print-unread said: \(result.output)")
    }
}
