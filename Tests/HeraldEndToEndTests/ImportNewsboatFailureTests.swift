import Foundation
import HeraldTestSupport
import Testing

/// `herald import-newsboat` on hostile and broken input: escape sequences in newsboat's
/// cache and files never reach the terminal; a cache that is missing or not newsboat's
/// stops the import before anything is written.
@Suite("herald import-newsboat on hostile and broken input", .serialized)
struct ImportNewsboatFailureTests {
    typealias Library = CommandLineTests.Library
    typealias Newsboat = ImportNewsboatTests.Newsboat

    static let escape = "\u{1B}]0;pwned\u{07}\u{1B}[31m"

    @Test("escape sequences in the cache's titles, the urls and the config never reach stdout raw")
    func hostileText() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        let newsboat = Newsboat(library: library)
        let feed = server.url("/feed").absoluteString
        try newsboat.write(urls: feed + "\n", config: "")
        try newsboat.reload()
        let evil = "'Evil' || char(27) || ']0;pwned' || char(7) || char(27) || '[31m'"
        try newsboat.sql(
            "UPDATE rss_feed SET title = \(evil); UPDATE rss_item SET title = \(evil), author = \(evil)")
        // Written after newsboat's reload: newsboat itself would stop at these lines.
        try newsboat.write(
            urls: "\(feed) tag\(Self.escape)\n\"query:Bad\(Self.escape):content =~ \\\"x\\\"\"\n"
                + "https://example.org/\(Self.escape) !\n",
            config: "macro \(Self.escape) open\nbrowser \"w3m \(Self.escape)\"\n")

        let result = try newsboat.importing()
        #expect(result.exitStatus == 0, "\(result.errors)")
        #expect(result.output.contains("query \"Bad"), "the query is reported: \(result.output)")
        #expect(result.output.contains("config line 1: macro"), "\(result.output)")
        for text in [result.output, result.errors] {
            #expect(
                !text.contains("\u{1B}") && !text.contains("\u{07}"),
                "raw control characters in: \(text.debugDescription)")
        }
        let listed = try library.run(["list"])
        #expect(listed.output.contains("Evil"), "\(listed.output)")
        #expect(!listed.output.contains("\u{1B}"))
        #expect(try library.sqlite("SELECT count(*) FROM feeds WHERE instr(title, char(27)) > 0") == "0")
        #expect(
            try library.sqlite("SELECT count(*) FROM articles WHERE instr(title || author, char(27)) > 0")
                == "0")
        if let config = try? String(contentsOfFile: newsboat.heraldConfig, encoding: .utf8) {
            #expect(!config.contains("\u{1B}"), "\(config.debugDescription)")
        }
    }

    @Test("an SQLite file that is not newsboat's cache is refused and nothing is written")
    func notNewsboat() throws {
        let library = Library()
        defer { library.cleanUp() }
        let newsboat = Newsboat(library: library)
        try newsboat.write(urls: "https://example.org/feed.xml\n", config: "bind-key j down\n")
        let made = try Spawn.run(
            ["sqlite3", newsboat.cache, "CREATE TABLE rss_feed(x); CREATE TABLE notes(y);"],
            environment: ProcessInfo.processInfo.environment, timeout: 10)
        try #require(made.exitStatus == 0, "\(made.errors)")
        let result = try newsboat.importing()
        #expect(result.exitStatus == 1)
        #expect(result.errors.contains("is not a newsboat cache"), "\(result.errors)")
        #expect(result.errors.contains("rss_feed has no column"), "\(result.errors)")
        #expect(!FileManager.default.fileExists(atPath: library.path), "no library was made")
        #expect(!FileManager.default.fileExists(atPath: newsboat.heraldConfig), "no config was written")
    }

    @Test("a cache that is not an SQLite file at all is refused and nothing is written")
    func notSQLite() throws {
        let library = Library()
        defer { library.cleanUp() }
        let newsboat = Newsboat(library: library)
        try newsboat.write(urls: "https://example.org/feed.xml\n", config: "bind-key j down\n")
        try String(repeating: "not a database\n", count: 400).write(
            toFile: newsboat.cache, atomically: true, encoding: .utf8)
        let result = try newsboat.importing()
        #expect(result.exitStatus == 1)
        #expect(result.errors.contains("is not a newsboat cache"), "\(result.errors)")
        #expect(!result.errors.contains("library file is damaged"), "not mistaken for Herald's library")
        #expect(!FileManager.default.fileExists(atPath: library.path))
        #expect(!FileManager.default.fileExists(atPath: newsboat.heraldConfig))
    }

    @Test(
        "a directory without a cache imports its urls and config and says the cache was not found; one with none of the three is refused, naming them"
    )
    func missingCache() throws {
        let library = Library()
        defer { library.cleanUp() }
        let newsboat = Newsboat(library: library)
        try newsboat.write(urls: "https://example.org/feed.xml\n", config: "bind-key j down\n")
        let result = try newsboat.importing()
        #expect(result.exitStatus == 0, "\(result.errors)")
        #expect(result.output.contains("newsboat cache: not found at \(newsboat.cache)"), "\(result.output)")
        #expect(result.output.contains("imported 1 feed (1 new), 0 articles"), "\(result.output)")
        #expect(try String(contentsOfFile: newsboat.heraldConfig, encoding: .utf8).contains("bind j down\n"))
        let nowhere = library.directory.appendingPathComponent("nowhere").path
        let empty = try library.run(["import-newsboat", nowhere])
        #expect(empty.exitStatus == 2)
        #expect(
            empty.errors.contains(
                "no newsboat files: no urls at \(nowhere)/urls, no config at \(nowhere)/config, no cache at \(nowhere)/cache.db"
            ),
            "\(empty.errors)")
    }
}
