import Foundation
import HeraldTestSupport
import Testing

/// `herald import-newsboat` on any subset of newsboat's files, named by newsboat's own
/// options or its config, and newsboat's `exec:` and `filter:` feeds carried over and
/// reloaded (issue 25): the counts of every feed after the next reload are newsboat's.
@Suite(
    "herald import-newsboat: any subset of files, newsboat's options, exec: and filter: feeds", .serialized,
    .enabled(if: NewsboatProgram.installed, "newsboat is not installed (make deps-test installs it)"))
struct ImportNewsboatFilesTests {
    typealias Library = CommandLineTests.Library
    typealias Newsboat = ImportNewsboatTests.Newsboat

    /// A feed read by `exec:cat`, from a file beside newsboat's.
    static let local = """
        <?xml version="1.0" encoding="utf-8"?>
        <rss version="2.0"><channel><title>Local notes</title>
        <item><guid>local-1</guid><title>Written by hand</title><link>https://local.example/1</link>
        <pubDate>Mon, 30 Nov 2026 09:00:00 +0000</pubDate><description>one</description></item>
        <item><guid>local-2</guid><title>Windows notes</title><link>https://local.example/2</link>
        <pubDate>Tue, 01 Dec 2026 09:00:00 +0000</pubDate><description>two</description></item>
        <item><guid>local-3</guid><title>Third</title><link>https://local.example/3</link>
        <pubDate>Wed, 02 Dec 2026 09:00:00 +0000</pubDate><description>three</description></item>
        </channel></rss>
        """

    static let config = """
        ignore-article "*" "title =~ \\"Windows\\""
        ignore-mode display
        """

    /// Herald's numbers of each feed, by address: articles (shown and hidden) and read ones.
    static func heraldCounts(_ library: Library) throws -> [String: String] {
        let rows = try library.sqlite(
            """
            SELECT f.url || '|' ||
                ((SELECT count(*) FROM articles a WHERE a.feed_id = f.id)
                    + (SELECT count(*) FROM hidden_articles h WHERE h.feed_id = f.id)) || '|' ||
                ((SELECT count(*) FROM articles a WHERE a.feed_id = f.id AND a.read)
                    + (SELECT count(*) FROM hidden_articles h WHERE h.feed_id = f.id AND h.read))
            FROM feeds f
            """)
        return Self.counts(rows)
    }

    /// newsboat's numbers of each feed, from its cache.
    static func newsboatCounts(_ newsboat: Newsboat) throws -> [String: String] {
        Self.counts(
            try newsboat.sql(
                """
                SELECT rssurl || '|' || (SELECT count(*) FROM rss_item i WHERE i.feedurl = f.rssurl AND i.deleted = 0)
                    || '|' || (SELECT count(*) FROM rss_item i WHERE i.feedurl = f.rssurl AND i.deleted = 0 AND i.unread = 0)
                FROM rss_feed f
                """))
    }

    static func counts(_ rows: String) -> [String: String] {
        var counts: [String: String] = [:]
        for row in rows.split(separator: "\n") {
            guard let bar = row.firstIndex(of: "|") else { continue }
            counts[String(row[..<bar])] = String(row[row.index(after: bar)...])
        }
        return counts
    }

    @Test(
        "a real newsboat setup with exec: and filter: feeds comes over by -u/-c/-C, and after a reload every feed counts what newsboat's cache holds"
    )
    func countsMatchAfterReload() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        let newsboat = Newsboat(library: library)
        try FileManager.default.createDirectory(at: newsboat.directory, withIntermediateDirectories: true)
        let local = try library.write(Self.local, to: "newsboat/local feed.xml")
        let exec = "exec:cat '\(local.path)'"
        let filter = "filter:sed 's/<title>Fixture</<title>Filtered</':\(server.url("/feed").absoluteString)"
        let urls = """
            \(server.url("/files/newsboat-tech.xml")) tech
            \(server.url("/files/newsboat-news.xml")) news
            "\(exec)" local
            "\(filter)" filtered
            """
        try newsboat.write(urls: urls, config: Self.config)
        try newsboat.reload()
        try newsboat.markRead(["tech-1", "local-1", "local-2"])
        let expected = try Self.newsboatCounts(newsboat)
        #expect(expected.count == 4, "newsboat fetched every feed, its commands too: \(expected)")
        #expect(expected[exec] == "3|2", "\(expected)")
        #expect(try newsboat.sql("SELECT title FROM rss_feed WHERE rssurl LIKE 'filter:%'") == "Filtered")

        let folder = newsboat.directory.path
        let result = try library.run(
            [
                "import-newsboat", "--url-file", folder + "/urls", "-c", newsboat.cache,
                "--config-file=\(folder)/config",
                "--config", newsboat.heraldConfig,
            ])
        #expect(result.exitStatus == 0, "\(result.errors)")
        #expect(result.output.contains("newsboat urls: \(folder)/urls (-u)"), "\(result.output)")
        #expect(result.output.contains("newsboat cache: \(newsboat.cache) (-c)"), "\(result.output)")
        #expect(result.output.contains("imported 4 feeds (4 new)"), "\(result.output)")
        #expect(!result.output.contains("exec feeds are not imported"))
        #expect(try Self.heraldCounts(library) == expected, "imported as newsboat had them")

        let options = ["--config", newsboat.heraldConfig]
        let reload = try library.run(["reload", "--quiet"] + options)
        #expect(reload.exitStatus == 0, "\(reload.output) \(reload.errors)")
        #expect(try library.sqlite("SELECT count(*) FROM feeds WHERE last_error IS NOT NULL") == "0")
        #expect(
            try Self.heraldCounts(library) == expected, "a reload, the commands run again, adds none twice")
        let rows = try library.jsonLines(["list"] + options)
        let titles = rows.compactMap { $0["title"] as? String }
        #expect(titles.contains("Written by hand") && !titles.contains("Windows notes"), "\(titles)")
        #expect(
            rows.first { $0["title"] as? String == "Written by hand" }?["feed_url"] as? String == exec,
            "the address is shown as written")
    }

    @Test("urls alone, config alone, or cache alone each come over, and the report says what was found where")
    func anySubset() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        let newsboat = Newsboat(library: library)
        try newsboat.write(
            urls: "\(server.url("/files/newsboat-tech.xml")) tech ~\"My tech\"\n",
            config: "bind-key j down\ninclude keys\n")
        _ = try library.write("bind-key k up\ninclude config\n", to: "newsboat/keys")
        try newsboat.reload()
        let folder = newsboat.directory.path
        let manager = FileManager.default

        // The cache alone (its urls and config moved away): its feeds come over, with their articles.
        try manager.moveItem(atPath: folder + "/urls", toPath: folder + "/urls.away")
        try manager.moveItem(atPath: folder + "/config", toPath: folder + "/config.away")
        let cacheOnly = try newsboat.importing(["--json", "--dry-run"])
        #expect(cacheOnly.exitStatus == 0, "\(cacheOnly.errors)")
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(cacheOnly.output.utf8)) as? [String: Any])
        #expect(summary["feeds"] as? Int == 1 && summary["articles"] as? Int == 3, "\(summary)")
        let files = try #require(summary["files"] as? [String: [String: Any]])
        #expect(files["urls"]?["found"] as? Bool == false && files["cache"]?["found"] as? Bool == true)
        #expect(files["config"]?["path"] as? String == folder + "/config")

        // The config alone: settings, and its include followed, with the cycle named at its place.
        try manager.moveItem(atPath: folder + "/config.away", toPath: folder + "/config")
        let configOnly = try library.run(
            [
                "import-newsboat", "-C", folder + "/config", "-u", folder + "/none", "-c",
                folder + "/none.db", "--dry-run",
            ])
        #expect(configOnly.exitStatus == 0, "\(configOnly.errors)")
        #expect(configOnly.output.contains("would import 0 feeds"), "\(configOnly.output)")
        #expect(
            configOnly.output.contains("newsboat urls: not found at \(folder)/none (-u)"),
            "\(configOnly.output)")
        #expect(configOnly.output.contains("config: 2 lines carried over, 1 not"), "\(configOnly.output)")
        #expect(
            configOnly.output.contains("\(folder)/keys:2: include config: an include cycle"),
            "\(configOnly.output)")

        // The urls alone: feeds, tags and titles, no articles.
        try manager.moveItem(atPath: folder + "/urls.away", toPath: folder + "/urls")
        try manager.moveItem(atPath: newsboat.cache, toPath: folder + "/elsewhere.db")
        let urlsOnly = try newsboat.importing()
        #expect(urlsOnly.exitStatus == 0, "\(urlsOnly.errors)")
        #expect(urlsOnly.output.contains("imported 1 feed (1 new), 0 articles"), "\(urlsOnly.output)")
        #expect(
            urlsOnly.output.contains("newsboat cache: not found at \(newsboat.cache)"), "\(urlsOnly.output)")
        #expect(try library.run(["tags"]).output.contains("tech"))

        // The config's cache-file names the cache; the articles come over from there.
        try "cache-file \(folder)/elsewhere.db\n".write(
            toFile: folder + "/config", atomically: true, encoding: .utf8)
        let followed = try newsboat.importing()
        #expect(followed.exitStatus == 0, "\(followed.errors)")
        #expect(
            followed.output.contains("newsboat cache: \(folder)/elsewhere.db (cache-file, config line 1)"),
            "\(followed.output)")
        #expect(followed.output.contains("3 new to the library"), "\(followed.output)")

        // Nothing at all: refused, naming where it looked.
        let empty = library.directory.appendingPathComponent("empty").path
        try manager.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let nothing = try library.run(["import-newsboat", empty])
        #expect(nothing.exitStatus != 0)
        #expect(
            nothing.errors.contains(
                "no urls at \(empty)/urls, no config at \(empty)/config, no cache at \(empty)/cache.db"),
            "\(nothing.errors)")
    }

    @Test(
        "the XDG layout with only urls in the config directory and the cache in the data directory is found and imported"
    )
    func partialXDG() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        let newsboat = Newsboat(library: library)
        try newsboat.write(urls: "\(server.url("/files/newsboat-tech.xml")) tech\n", config: "")
        try newsboat.reload()
        let home = library.directory.appendingPathComponent("xdg-home")
        let configDirectory = home.appendingPathComponent("conf/newsboat")
        let dataDirectory = home.appendingPathComponent("data/newsboat")
        let manager = FileManager.default
        for directory in [configDirectory, dataDirectory] {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        try manager.copyItem(
            at: newsboat.directory.appendingPathComponent("urls"),
            to: configDirectory.appendingPathComponent("urls"))
        try manager.copyItem(
            atPath: newsboat.cache, toPath: dataDirectory.appendingPathComponent("cache.db").path)
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent("conf").path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        environment["HERALD_DB"] = library.path
        environment["HERALD_DEMO_DIR"] = HeraldUnderTest.demoFeeds.path
        try manager.createDirectory(
            at: library.directory.appendingPathComponent("lib"), withIntermediateDirectories: true)
        let result = try Spawn.run(
            [try HeraldUnderTest.binary().path, "import-newsboat", "--config", newsboat.heraldConfig],
            environment: environment, timeout: 30)
        #expect(result.exitStatus == 0, "\(result.errors)")
        let lines = result.output
        #expect(
            lines.contains("newsboat urls: \(configDirectory.path)/urls (XDG config directory)"), "\(lines)")
        #expect(lines.contains("newsboat config: not found at \(configDirectory.path)/config"), "\(lines)")
        #expect(
            lines.contains("newsboat cache: \(dataDirectory.path)/cache.db (XDG data directory)"), "\(lines)")
        #expect(lines.contains("imported 1 feed (1 new), 3 articles"), "\(lines)")
    }

    @Test("waiting on a command feed's command costs almost no CPU")
    func waitingCostsNoCPU() throws {
        let library = Library()
        defer { library.cleanUp() }
        let local = try library.write(Self.local, to: "slow.xml")
        let wall = 3.0
        #expect(try library.run(["add", "exec:sleep \(Int(wall)); cat '\(local.path)'"]).exitStatus == 0)
        let started = Date()
        let reload = try library.run(["reload", "--quiet"])
        #expect(reload.exitStatus == 0, "\(reload.errors)")
        #expect(Date().timeIntervalSince(started) >= wall, "the command was waited for")
        // Start-up and storing three articles are a few hundredths; a spinning wait costs a core.
        #expect(reload.cpuSeconds < 0.2 * wall, "\(reload.cpuSeconds) CPU-s in \(wall) s of waiting")
        #expect(try library.sqlite("SELECT count(*) FROM articles") == "3")
    }

    @Test(
        "an OPML file's exec: and filter: entries are refused, named; herald add takes one typed by the user")
    func onlyTheUsersOwn() throws {
        let library = Library()
        defer { library.cleanUp() }
        let opml = try library.write(
            """
            <opml version="2.0"><body>
            <outline type="rss" text="evil" xmlUrl="exec:touch /tmp/herald-opml-owned"/>
            <outline type="rss" text="evil too" xmlUrl="filter:sh:https://e.example/feed"/>
            <outline type="rss" text="fine" xmlUrl="https://fine.example/feed"/>
            </body></opml>
            """, to: "subs.opml")
        let imported = try library.run(["import", opml.path])
        #expect(imported.exitStatus == 0, "\(imported.errors)")
        let said = imported.output + imported.errors
        #expect(said.contains("an exec: feed runs a command on this machine"), "\(said)")
        #expect(said.contains("a filter: feed runs a command on this machine"), "\(said)")
        #expect(
            try library.sqlite("SELECT count(*) FROM feeds WHERE url LIKE 'exec:%' OR url LIKE 'filter:%'")
                == "0")

        let local = try library.write(Self.local, to: "local.xml")
        let added = try library.run(["add", "exec:cat \(local.path)", "--title", "Mine"])
        #expect(added.exitStatus == 0, "\(added.errors)")
        #expect(added.output.contains("added exec:cat \(local.path)"), "\(added.output)")
        let reload = try library.run(["reload", "--quiet"])
        #expect(reload.exitStatus == 0, "\(reload.errors)")
        #expect(try library.jsonLines(["list", "--feed", "exec:cat \(local.path)"]).count == 3)
        let failing = try library.run(["add", "exec:echo 'broken \u{1b}[31mred' >&2; exit 2"])
        #expect(failing.exitStatus != 0, "a control character is refused even typed")
    }
}

/// newsboat on the PATH: the only reason the tests that run it are skipped.
enum NewsboatProgram {
    static var installed: Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        return path.split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/newsboat")
        }
    }
}
