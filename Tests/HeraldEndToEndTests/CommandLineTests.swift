import Foundation
import HeraldTestSupport
import Testing

/// `herald list` and `herald search` against a real library file, as a script would run them.
@Suite("herald on the command line", .serialized)
struct CommandLineTests {
    /// Runs herald with a fresh library file (filled from the demo feeds on first use).
    struct Library {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("herald-cli-\(UUID().uuidString)")
        var path: String { directory.appendingPathComponent("lib/herald.db").path }

        /// Opens the reader on this library (the demo feeds on its first start) in a new tmux
        /// session, which prints `EXIT=status` when it ends. `wrapper`: a command herald runs
        /// under (`ReadOnlyLibrary`'s).
        func openReader(_ arguments: [String] = [], wrapper: [String] = []) async throws -> TmuxSession {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent("lib"), withIntermediateDirectories: true)
            let binary = try HeraldUnderTest.binary()
            let session = try TmuxSession()
            try await session.waitUntil(contains: "e2e$")
            try session.runCommand(
                "HERALD_DB=\(HeraldUnderTest.shellQuoted(path)) "
                    + "HERALD_DEMO_DIR=\(HeraldUnderTest.shellQuoted(HeraldUnderTest.demoFeeds.path)) "
                    + (wrapper + [binary.path] + arguments).map(HeraldUnderTest.shellQuoted).joined(
                        separator: " ")
                    + "; echo \"EXIT=$?\"")
            return session
        }

        func run(_ arguments: [String], timeout: TimeInterval = 30, wrapper: [String] = []) throws
            -> Spawn.Result
        {
            // The library's directory must exist: herald creates only its default one.
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent("lib"), withIntermediateDirectories: true)
            let binary = try HeraldUnderTest.binary()
            var environment = ProcessInfo.processInfo.environment
            environment["HERALD_DB"] = path
            environment["HERALD_DEMO_DIR"] = HeraldUnderTest.demoFeeds.path
            environment["TZ"] = "UTC"
            return try Spawn.run(
                wrapper + [binary.path] + arguments, environment: environment, timeout: timeout)
        }

        func jsonLines(_ arguments: [String]) throws -> [[String: Any]] {
            let result = try run(arguments + ["--json"])
            #expect(result.exitStatus == 0, "\(arguments): \(result.errors)")
            return try result.output.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            }
        }

        /// Runs SQL on the library with the sqlite3 tool (to set what no command sets, such
        /// as a star) and returns what it printed.
        @discardableResult
        func sqlite(_ sql: String) throws -> String {
            let result = try Spawn.run(
                ["sqlite3", path, sql], environment: ProcessInfo.processInfo.environment, timeout: 10)
            try #require(result.exitStatus == 0, "sqlite3 is needed (make deps-test): \(result.errors)")
            return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// Writes `text` to a file in the library's directory.
        func write(_ text: String, to name: String) throws -> URL {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let file = directory.appendingPathComponent(name)
            try text.write(to: file, atomically: true, encoding: .utf8)
            return file
        }

        func cleanUp() { try? FileManager.default.removeItem(at: directory) }
    }

    /// The URLs of the bundled demo feeds (their `feed_url`s) and their sizes.
    enum Demo {
        static let fieldJournal = "https://example.com/field-journal/feed.json"
        static let hangul = "https://example.org/hangul-tech/feed.json"
        static let heraldNotes = "https://example.org/herald/blog/feed.json"
        static let hangulArticles = 13
        static let articles = 52
    }

    @Test("the first run creates the library from the demo feeds; list --json prints one object per article")
    func listJSON() throws {
        let library = Library()
        defer { library.cleanUp() }
        let rows = try library.jsonLines(["list"])
        #expect(rows.count == 52)
        #expect(FileManager.default.fileExists(atPath: library.path))
        let first = try #require(rows.first)
        for key in ["id", "feed", "feed_url", "title", "published", "read", "starred"] {
            #expect(first[key] != nil, "missing \(key) in \(first)")
        }
        let dates = rows.compactMap { $0["published"] as? String }
        #expect(dates == dates.sorted(by: >), "newest first")
    }

    @Test("list --feed narrows to one feed and --unread to unread articles")
    func listFilters() throws {
        let library = Library()
        defer { library.cleanUp() }
        let all = try library.jsonLines(["list"])
        let url = try #require(all.first { ($0["feed"] as? String) == "한글 기술 일지" }?["feed_url"] as? String)
        let korean = try library.jsonLines(["list", "--feed", url])
        #expect(korean.count == 13)
        #expect(korean.allSatisfy { ($0["feed"] as? String) == "한글 기술 일지" })
        #expect(try library.jsonLines(["list", "--unread"]).count == 52)
        let unknown = try library.run(["list", "--feed", "https://nowhere.example/feed"])
        #expect(unknown.exitStatus == 2)
        #expect(unknown.errors.contains("no feed"))
    }

    @Test("search finds Korean, prefixes and diacritics, ranked, and respects --limit")
    func search() throws {
        let library = Library()
        defer { library.cleanUp() }
        let korean = try library.jsonLines(["search", "떡볶이"])
        #expect(korean.first?["title"] as? String == "떡볶이")
        let prefix = try library.jsonLines(["search", "termin", "--limit", "3"])
        #expect((1...3).contains(prefix.count))
        let text = try library.run(["search", "떡볶이"])
        #expect(text.exitStatus == 0)
        #expect(text.output.contains("떡볶이") && text.output.contains("한글 기술 일지"))
    }

    @Test("hostile queries are searched as text, never an error")
    func hostileQuery() throws {
        let library = Library()
        defer { library.cleanUp() }
        for query in ["AND(", "\"", "*", "-", "NEAR(a b)", "title:x"] {
            let result = try library.run(["search", query])
            #expect(result.exitStatus == 0, "\(query): \(result.errors)")
        }
        let empty = try library.run(["search"])
        #expect(empty.exitStatus == 2)
    }

    @Test("the library lives under XDG_DATA_HOME, else ~/.local/share, unless --db says otherwise")
    func libraryLocation() throws {
        let library = Library()
        defer { library.cleanUp() }
        let binary = try HeraldUnderTest.binary()
        let home = library.directory.appendingPathComponent("home").path
        var environment = ProcessInfo.processInfo.environment
        environment["HERALD_DB"] = nil
        environment["XDG_DATA_HOME"] = nil
        environment["HOME"] = home
        environment["HERALD_DEMO_DIR"] = HeraldUnderTest.demoFeeds.path
        #expect(try Spawn.run([binary.path, "list"], environment: environment, timeout: 30).exitStatus == 0)
        #expect(FileManager.default.fileExists(atPath: home + "/.local/share/herald/herald.db"))
        environment["XDG_DATA_HOME"] = home + "/xdg"
        #expect(try Spawn.run([binary.path, "list"], environment: environment, timeout: 30).exitStatus == 0)
        #expect(FileManager.default.fileExists(atPath: home + "/xdg/herald/herald.db"))
        // --db in a directory that is not there is refused, not created (with a demo library).
        let explicit = home + "/elsewhere/my.db"
        let refused = try Spawn.run(
            [binary.path, "--db", explicit, "list"], environment: environment, timeout: 30)
        #expect(
            refused.exitStatus == 2 && refused.errors.contains("no directory \(home)/elsewhere"),
            "\(refused.errors)")
        #expect(!FileManager.default.fileExists(atPath: home + "/elsewhere"))
        try FileManager.default.createDirectory(
            atPath: home + "/elsewhere", withIntermediateDirectories: true)
        #expect(
            try Spawn.run([binary.path, "--db", explicit, "list"], environment: environment, timeout: 30)
                .exitStatus == 0)
        #expect(FileManager.default.fileExists(atPath: explicit))
    }

    @Test("import reads OPML and newsboat urls files; export writes OPML with tags")
    func importExport() throws {
        let library = Library()
        defer { library.cleanUp() }
        try FileManager.default.createDirectory(at: library.directory, withIntermediateDirectories: true)
        let opml = library.directory.appendingPathComponent("feeds.opml")
        try """
        <opml version="1.0"><body><outline text="Tech">
        <outline text="Notes" xmlUrl="https://example.org/notes.xml"/></outline></body></opml>
        """.write(to: opml, atomically: true, encoding: .utf8)
        let urls = library.directory.appendingPathComponent("urls")
        try "https://example.com/field.xml nature ~\"Field Journal\"\n".write(
            to: urls, atomically: true, encoding: .utf8)
        let first = try library.run(["import", opml.path])
        #expect(first.exitStatus == 0, "\(first.errors)")
        #expect(first.output == "1 feed in \(opml.path): 1 new, 0 with new tags, 0 unchanged\n")
        #expect(try library.run(["import", urls.path]).exitStatus == 0)
        let exported = try library.run(["export"])
        #expect(exported.exitStatus == 0)
        #expect(exported.output.contains("xmlUrl=\"https://example.org/notes.xml\""))
        // A feed's first tag is its folder.
        #expect(exported.output.contains("<outline text=\"Tech\">"))
        #expect(
            exported.output.contains("title=\"Field Journal\"")
                && exported.output.contains("<outline text=\"nature\">"))
        let missing = try library.run(["import", "/nonexistent/file"])
        #expect(
            missing.exitStatus == 2
                && missing.errors.contains("cannot import /nonexistent/file: no such file"))
    }

    @Test(
        "add, reload, list and remove a feed from a file URL; reload fails with status 1 when all feeds fail")
    func addReloadRemove() throws {
        let library = Library()
        defer { library.cleanUp() }
        try FileManager.default.createDirectory(at: library.directory, withIntermediateDirectories: true)
        let feed = library.directory.appendingPathComponent("feed.xml")
        try """
        <?xml version="1.0"?><rss version="2.0"><channel><title>Local</title>
        <item><guid>a</guid><title>Local heron</title><description>&lt;p&gt;A &lt;b&gt;heron&lt;/b&gt;.&lt;/p&gt;</description></item>
        </channel></rss>
        """.write(to: feed, atomically: true, encoding: .utf8)
        let added = try library.run(["add", feed.absoluteString, "--tag", "birds"])
        #expect(added.exitStatus == 0, "\(added.errors)")
        let reload = try library.run(["reload", "--quiet"])
        #expect(reload.exitStatus == 0, "\(reload.output) \(reload.errors)")
        let rows = try library.jsonLines(["list", "--feed", feed.absoluteString])
        #expect(rows.map { $0["title"] as? String } == ["Local heron"])
        #expect(rows.first?["feed"] as? String == "Local")
        #expect(try library.jsonLines(["search", "heron"]).count == 1)
        #expect(try library.run(["remove", feed.absoluteString]).exitStatus == 0)
        #expect(try library.jsonLines(["list"]).isEmpty)
        #expect(try library.run(["add", "http://127.0.0.1:9/nothing"]).exitStatus == 0)
        let failing = try library.run(["reload"])
        #expect(failing.exitStatus == 1)
        #expect(failing.output.contains("1 failed") && failing.output.contains("127.0.0.1:9"))
        // Never read, the feed has no title but its address, which is said once.
        #expect(failing.output.components(separatedBy: "127.0.0.1:9/nothing").count == 2, "\(failing.output)")
    }

    @Test(
        "parse prints a feed as Herald reads it, as text or JSON; a broken feed is read with its errors, a file that is no feed fails naming the line"
    )
    func parse() throws {
        let library = Library()
        defer { library.cleanUp() }
        try FileManager.default.createDirectory(at: library.directory, withIntermediateDirectories: true)
        let feed = library.directory.appendingPathComponent("atom.xml")
        try """
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://example.org/blog/">
          <title>Atom Local</title>
          <entry><id>urn:1</id><title type="html">A &lt;b&gt;bold&lt;/b&gt; move</title>
            <link href="posts/1"/><updated>2026-11-30T01:02:03Z</updated>
            <content type="html">&lt;p&gt;See &lt;a href="/x"&gt;this&lt;/a&gt;.&lt;/p&gt;</content></entry>
        </feed>
        """.write(to: feed, atomically: true, encoding: .utf8)
        let json = try library.run(["parse", feed.path, "--json"])
        #expect(json.exitStatus == 0, "\(json.errors)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(document["title"] as? String == "Atom Local")
        let item = try #require((document["items"] as? [[String: Any]])?.first)
        #expect(item["title"] as? String == "A bold move")
        #expect(item["link"] as? String == "https://example.org/blog/posts/1")
        #expect(item["published"] as? String == "2026-11-30T01:02:03Z")
        #expect((item["text"] as? String)?.contains("See this[1].") == true)
        let text = try library.run(["parse", feed.path])
        #expect(text.exitStatus == 0 && text.output.contains("- A bold move"))
        let broken = library.directory.appendingPathComponent("broken.xml")
        try "<rss version=\"2.0\"><channel><title>x</title>\n<item><title>a</item></channel></rss>"
            .write(to: broken, atomically: true, encoding: .utf8)
        let recovered = try library.run(["parse", broken.path])
        #expect(recovered.exitStatus == 0, "\(recovered.errors)")
        #expect(recovered.output.contains("read with errors: parse error at line 2:"), "\(recovered.output)")
        #expect(recovered.output.contains("- a"))
        let brokenJSON = try library.run(["parse", broken.path, "--json"])
        let warnings = try #require(
            try JSONSerialization.jsonObject(with: Data(brokenJSON.output.utf8)) as? [String: Any])[
                "warnings"]
        #expect((warnings as? [String])?.first?.hasPrefix("parse error at line 2:") == true)
        let garbage = library.directory.appendingPathComponent("garbage.xml")
        try "\nno XML here\n".write(to: garbage, atomically: true, encoding: .utf8)
        let failure = try library.run(["parse", garbage.path])
        #expect(failure.exitStatus == 1)
        #expect(failure.errors.contains("line 2"), "\(failure.errors)")
    }

    @Test("parse reads a feed of too many items up to the limit and says so, as text and as JSON")
    func parseTooManyItems() throws {
        // `InputLimits.itemsPerFeed`: this target runs the binary and links none of its modules.
        let limit = 10_000
        let library = Library()
        defer { library.cleanUp() }
        try FileManager.default.createDirectory(at: library.directory, withIntermediateDirectories: true)
        let feed = library.directory.appendingPathComponent("many.xml")
        let items = (0...limit).map { "<item><guid>\($0)</guid></item>" }.joined()
        try "<rss version=\"2.0\"><channel><title>Many</title>\(items)</channel></rss>"
            .write(to: feed, atomically: true, encoding: .utf8)
        let warning = "more than \(limit) items: the first \(limit) were read, the rest left out"
        let json = try library.run(["parse", feed.path, "--json"])
        #expect(json.exitStatus == 0, "\(json.errors)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let parsed = try #require(document["items"] as? [[String: Any]])
        #expect(parsed.count == limit)
        #expect(parsed.last?["id"] as? String == "\(limit - 1)")
        #expect(document["warnings"] as? [String] == [warning])
        let text = try library.run(["parse", feed.path])
        #expect(text.exitStatus == 0, "\(text.errors)")
        #expect(
            text.output.contains("read with errors: \(warning)\n\(limit) items\n"),
            "\(text.output.prefix(300))")
    }

    @Test(
        "add takes a web page's announced feed, refuses a page without one, and adds an unreachable URL with a warning"
    )
    func addDiscovers() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        let page = try library.run(["add", server.url("/page").absoluteString])
        #expect(page.exitStatus == 0, "\(page.errors)")
        #expect(page.output.contains(server.url("/atom").absoluteString))
        let plain = try library.run(["add", server.url("/plain-page").absoluteString])
        #expect(plain.exitStatus == 2 && plain.errors.contains("names no feed"), "\(plain.errors)")
        let offline = try library.run(["add", "http://127.0.0.1:9/later.xml"])
        #expect(offline.exitStatus == 0 && offline.errors.contains("warning: could not fetch"))
        let exported = try library.run(["export"]).output
        #expect(exported.contains("xmlUrl=\"\(server.url("/feed").absoluteString)\""))
        #expect(!exported.contains("/page\""))
        #expect(exported.contains("xmlUrl=\"http://127.0.0.1:9/later.xml\""))
    }

    @Test("a library written by a newer Herald is refused with a clear message")
    func newerLibrary() throws {
        let library = Library()
        defer { library.cleanUp() }
        _ = try library.run(["list"])
        let sqlite = try Spawn.run(
            ["sqlite3", library.path, "PRAGMA user_version = 99"],
            environment: ProcessInfo.processInfo.environment,
            timeout: 10)
        try #require(sqlite.exitStatus == 0, "sqlite3 is needed for this test: \(sqlite.errors)")
        let result = try library.run(["list"])
        #expect(result.exitStatus == 1)
        #expect(result.errors.contains("newer Herald"))
    }
}
