import Foundation
import HeraldTestSupport
import Testing

/// `herald list --query` and filters at `herald reload`, as a script would run them.
@Suite("herald list --query and filters on the command line", .serialized)
struct CommandLineQueryTests {
    typealias Library = CommandLineTests.Library
    typealias Demo = CommandLineTests.Demo

    func ids(_ rows: [[String: Any]]) -> [String] { rows.compactMap { $0["id"] as? String } }

    @Test("list --query selects with the query language and combines with the other filters")
    func listQuery() throws {
        let library = Library()
        defer { library.cleanUp() }
        let all = try library.jsonLines(["list"])
        #expect(all.count == Demo.articles)
        let read = try library.sqlite(
            """
            UPDATE articles SET read = 1 WHERE id IN (SELECT id FROM articles ORDER BY id LIMIT 5);
            UPDATE articles SET starred = 1 WHERE id IN (SELECT id FROM articles ORDER BY id DESC LIMIT 2);
            SELECT id FROM articles WHERE read = 1 ORDER BY id;
            """
        ).split(separator: "\n").map(String.init)
        #expect(Set(ids(try library.jsonLines(["list", "--query", "read"]))) == Set(read))
        #expect(try library.jsonLines(["list", "--query", "-read"]).count == Demo.articles - 5)
        #expect(try library.jsonLines(["list", "--query", "read or starred"]).count == 7)
        let hangul = try library.jsonLines(["list", "--query", "feed:hangul-tech"])
        #expect(hangul.count == Demo.hangulArticles)
        #expect(hangul.allSatisfy { $0["feed_url"] as? String == Demo.hangul })
        #expect(
            try library.jsonLines(["list", "--query", "-feed:hangul-tech", "--feed", Demo.hangul]).isEmpty)
        #expect(try library.jsonLines(["list", "--query", "feed:hangul-tech", "--limit", "3"]).count == 3)
        // A title word finds its article.
        let title = try #require(all.first?["title"] as? String)
        let words = title.components(separatedBy: " ").filter { $0.count > 3 && $0.allSatisfy(\.isLetter) }
        let word = try #require(words.first)
        let found = try library.jsonLines(["list", "--query", "title:\"\(word)\""])
        #expect(found.contains { $0["title"] as? String == title })
        #expect(found.count < Demo.articles)
    }

    @Test("a query that does not parse is a usage error naming its column")
    func badQuery() throws {
        let library = Library()
        defer { library.cleanUp() }
        let result = try library.run(["list", "--query", "unread (tag:x"])
        #expect(result.exitStatus == 2)
        #expect(
            result.errors.hasPrefix("herald: query:8: unclosed parenthesis opened at column 8"),
            "\(result.errors)")
        #expect(result.output.isEmpty)
        let misspelt = try library.run(["list", "--query", "auhtor:x"])
        #expect(misspelt.exitStatus == 2)
        #expect(
            misspelt.errors.contains("herald: query:1: unknown field \"auhtor\" — did you mean \"author\"?"))
    }

    @Test("herald reload applies the config's filters")
    func reloadFilters() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        let config = try library.write(
            """
            filter title:sponsored mark-read
            filter podcast hide
            filter spam delete
            """, to: "config")
        let url = server.url("/mixed").absoluteString
        #expect(try library.run(["add", url]).exitStatus == 0)
        let reload = try library.run(["--config", config.path, "reload", "--quiet"])
        #expect(reload.exitStatus == 0, "\(reload.errors)")
        let rows = try library.jsonLines(["--config", config.path, "list", "--feed", url])
        #expect(
            Set(rows.compactMap { $0["title"] as? String }) == [
                "Sponsored: a new laptop", "Swift 6 released",
            ])
        #expect(rows.first { $0["title"] as? String == "Sponsored: a new laptop" }?["read"] as? Bool == true)
        #expect(try library.sqlite("SELECT count(*) FROM removed") == "1")
        #expect(try library.sqlite("SELECT title FROM hidden_articles") == "Episode 7")
        // Without that config (none here), nothing hides the episode: it shows.
        #expect(try library.jsonLines(["list", "--feed", url]).count == 3)
    }
}
