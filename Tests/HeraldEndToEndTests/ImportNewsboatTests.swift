import Foundation
import HeraldTestSupport
import Testing

/// `herald import-newsboat` against a cache the real newsboat wrote: newsboat fetches
/// feeds from the fixture server (`-x reload`, no terminal needed), then Herald imports
/// the directory into a fresh library.
@Suite("herald import-newsboat on a real newsboat directory", .serialized)
struct ImportNewsboatTests {
    typealias Library = CommandLineTests.Library

    /// A newsboat directory beside the library: urls, config, and the cache newsboat wrote.
    struct Newsboat {
        let library: Library
        var directory: URL { library.directory.appendingPathComponent("newsboat") }
        var cache: String { directory.appendingPathComponent("cache.db").path }
        var heraldConfig: String { library.directory.appendingPathComponent("herald/config").path }

        func write(urls: String, config: String) throws {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try urls.write(to: directory.appendingPathComponent("urls"), atomically: true, encoding: .utf8)
            try config.write(
                to: directory.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        }

        /// newsboat reloads every feed into its cache; HOME is a temporary directory so
        /// nothing of the machine's own newsboat is read or written.
        func reload() throws { try newsboat(["-x", "reload"]) }

        /// Marks articles read the way newsboat itself can from its command line: `-I`
        /// imports a list of read articles (by guid).
        func markRead(_ guids: [String]) throws {
            let list = directory.appendingPathComponent("read-list")
            try (guids.joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)
            try newsboat(["-I", list.path])
        }

        /// Runs newsboat on this directory; returns what it printed.
        @discardableResult
        func newsboat(_ arguments: [String]) throws -> Spawn.Result {
            let home = library.directory.appendingPathComponent("home")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            var environment = ProcessInfo.processInfo.environment
            environment["HOME"] = home.path
            environment.removeValue(forKey: "XDG_CONFIG_HOME")
            environment.removeValue(forKey: "XDG_DATA_HOME")
            let folder = directory.path
            let result = try Spawn.run(
                ["newsboat"] + arguments + ["-u", folder + "/urls", "-c", cache, "-C", folder + "/config"],
                environment: environment, timeout: 60)
            try #require(
                result.exitStatus == 0,
                "newsboat is needed (make deps-test): \(result.output) \(result.errors)")
            return result
        }

        /// SQL on newsboat's cache. newsboat has no command line to flag an article (only its
        /// Ctrl-E editor does), so the test stores what that editor would have.
        @discardableResult
        func sql(_ statement: String) throws -> String {
            let result = try Spawn.run(
                ["sqlite3", cache, statement], environment: ProcessInfo.processInfo.environment, timeout: 10)
            try #require(result.exitStatus == 0, "\(result.errors)")
            return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func importing(_ extra: [String] = [], timeout: TimeInterval = 30) throws -> Spawn.Result {
            try library.run(
                ["import-newsboat", directory.path, "--config", heraldConfig] + extra, timeout: timeout)
        }
    }

    static let config = """
        # mapped and unmapped lines, as a newsboat user has them
        bind-key j down
        bind-key ^D pagedown articlelist
        unbind-key J
        color background white black
        macro x open ; delete-article
        color listfocus black yellow bold
        browser "firefox %u"
        auto-reload yes
        reload-time 30
        max-items 500
        ignore-article "*" "title =~ \\"Windows\\""
        show-read-feeds no
        text-width 72
        confirm-exit yes
        notify-program "notify-send"
        highlight article "harbour" red default bold
        bind-key X next-feed feedlist
        datetime-format "%d %b"
        articlelist-format "%4i %f %D %6L  %?T?;%-17T; ?%t"
        feedlist-format "%4i %n %11u %t"
        """

    func urls(_ server: FixtureServer) -> String {
        """
        \(server.url("/files/newsboat-tech.xml")) tech "open source" ~"Tech Notes (renamed)"
        \(server.url("/files/newsboat-news.xml")) news
        \(server.url("/feed")) ! hidden
        "query:Unread tech:unread = \\"yes\\" and tags # \\"tech\\""
        "query:Harbour text:content =~ \\"harbour\\""
        """
    }

    @Test(
        "feeds, articles with their read and flagged state, tags, titles and config move over in one command")
    func movesOver() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        let newsboat = Newsboat(library: library)
        try newsboat.write(urls: urls(server), config: Self.config)
        try newsboat.reload()
        try newsboat.markRead(["tech-1"])
        try newsboat.sql("UPDATE rss_item SET flags = 'sX' WHERE guid = 'tech-2'")
        try newsboat.sql("UPDATE rss_item SET deleted = 1 WHERE guid = '1'")
        let kept = try #require(Int(try newsboat.sql("SELECT count(*) FROM rss_item WHERE deleted = 0")))
        #expect(kept == 4, "newsboat kept the articles the ignore-article line lets through")

        let result = try newsboat.importing()
        #expect(result.exitStatus == 0, "\(result.errors)")
        #expect(
            result.output.contains("imported 3 feeds (3 new), \(kept) articles (1 read, 1 starred)"),
            "\(result.output)")
        #expect(result.output.contains("1 article deleted in newsboat: not imported"))
        for left in [
            "config line 5: color background", "config line 6: macro x open ; delete-article", "query \"Harbour text\"",
            "urls line 3:", "is hidden in newsboat",
            "config line 18: bind-key X next-feed feedlist: Herald's config reader says: `next-feed` does nothing on feeds",
            "config line 20: articlelist-format", "`%L` is the article's length",
        ] {
            #expect(result.output.contains(left), "\(left) missing in \(result.output)")
        }

        let rows = try library.jsonLines(["list"])
        #expect(rows.count == kept)
        let byTitle = Dictionary(uniqueKeysWithValues: rows.map { ($0["title"] as? String ?? "", $0) })
        let rust = try #require(byTitle["Rust and Swift compared"])
        #expect(rust["read"] as? Bool == true && rust["starred"] as? Bool == false)
        #expect(rust["feed"] as? String == "Tech Notes (renamed)")
        let hangul = try #require(byTitle["터미널에서 읽는 뉴스"])
        #expect(hangul["starred"] as? Bool == true && hangul["read"] as? Bool == false)
        #expect(byTitle["Harbour reopens after storm"]?["feed"] as? String == "Daily News")
        #expect(rows.filter { $0["read"] as? Bool == true }.count == 1)

        let found = try library.jsonLines(["search", "터미널"])
        #expect(found.contains { $0["title"] as? String == "터미널에서 읽는 뉴스" })
        let words = try library.jsonLines(["search", "ownership"])
        #expect(words.map { $0["title"] as? String } == ["Rust and Swift compared"])
        #expect(
            try library.sqlite("SELECT enclosures FROM articles WHERE title LIKE 'Episode 12%'").contains(
                "ep12.mp3"))
        let tags = try library.run(["tags"]).output
        for tag in ["tech", "open source", "news", "hidden"] { #expect(tags.contains(tag), "\(tags)") }

        let config = try String(contentsOfFile: newsboat.heraldConfig, encoding: .utf8)
        for line in [
            "bind j down", "bind C-d page-down articles", "color selection black yellow bold",
            "set browser \"firefox %s\"", "set reload-interval 30", "set keep-articles 500",
            "query \"Unread tech\" unread tag:tech", "filter title:/Windows/ skip",
            "highlight article harbour red default bold", "set datetime-format \"%d %b\"",
            "set feedlist-format \"%4i %n %11u %t\"",
        ] {
            #expect(config.contains(line + "\n"), "\(line) missing in:\n\(config)")
        }
        try expectChecks(library, newsboat)
        try importsAgainChangingNothing(library, newsboat, rows: rows, config: config)
        // The next reload finds the imported articles instead of adding them again, the one
        // without a guid too (newsboat made one up from its link and date).
        let reload = try library.run(["reload", "--quiet"])
        #expect(reload.exitStatus == 0, "\(reload.errors)")
        let reloaded = try library.jsonLines(["list"])
        for title in [
            "Rust and Swift compared", "Episode 12: feeds on the command line", "Harbour reopens after storm",
        ] {
            #expect(reloaded.filter { $0["title"] as? String == title }.count == 1, "\(title) twice")
        }
        #expect(
            reloaded.first { $0["title"] as? String == "Rust and Swift compared" }?["read"] as? Bool == true)
        // The ~title is the user's title setting: the reload kept it (the feed calls itself
        // otherwise), and it is what sync carries, as `herald feed set URL title` is.
        #expect(
            reloaded.first { $0["title"] as? String == "Rust and Swift compared" }?["feed"] as? String
                == "Tech Notes (renamed)")
        let settings = try library.jsonLines(["feed", "show", "--json"])
        #expect(
            settings.contains { "\($0)".contains("Tech Notes (renamed)") && "\($0)".contains("library") },
            "\(settings)")
    }

    /// `herald config check` finds nothing wrong in what the import wrote.
    func expectChecks(_ library: Library, _ newsboat: Newsboat) throws {
        let check = try library.run(["config", "check", "--config", newsboat.heraldConfig])
        #expect(check.exitStatus == 0 && check.output.hasSuffix(": fine\n"), "config check: \(check.output)")
    }

    func importsAgainChangingNothing(
        _ library: Library, _ newsboat: Newsboat, rows: [[String: Any]], config: String
    ) throws {
        // Herald's own state of an article newsboat has unread and unflagged is kept.
        try library.sqlite("UPDATE articles SET starred = 1 WHERE title = 'Harbour reopens after storm'")
        let again = try newsboat.importing()
        #expect(again.exitStatus == 0, "\(again.errors)")
        #expect(again.output.contains("0 new to the library, 0 marked read, 0 starred"), "\(again.output)")
        #expect(again.output.contains("config.from-newsboat"))
        let after = try library.jsonLines(["list"])
        #expect(after.count == rows.count)
        #expect(after.filter { $0["starred"] as? Bool == true }.count == 2)
        #expect(
            try String(contentsOfFile: newsboat.heraldConfig, encoding: .utf8) == config, "left as it was")
        let beside = URL(fileURLWithPath: newsboat.heraldConfig).deletingLastPathComponent()
            .appendingPathComponent("config.from-newsboat")
        #expect(try String(contentsOf: beside, encoding: .utf8) == config)
    }

    @Test("--dry-run says what would happen and writes nothing")
    func dryRun() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        let newsboat = Newsboat(library: library)
        try newsboat.write(urls: urls(server), config: Self.config)
        try newsboat.reload()
        let result = try newsboat.importing(["--dry-run"])
        #expect(result.exitStatus == 0, "\(result.errors)")
        #expect(result.output.contains("would import 3 feeds"), "\(result.output)")
        #expect(result.output.contains("nothing was written"))
        #expect(!FileManager.default.fileExists(atPath: library.path))
        #expect(!FileManager.default.fileExists(atPath: newsboat.heraldConfig))
        let json = try newsboat.importing(["--dry-run", "--json"])
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any], "\(json.output)"
        )
        #expect(summary["feeds"] as? Int == 3 && summary["dry_run"] as? Bool == true)
        #expect(
            summary["articles"] as? Int
                == Int(try newsboat.sql("SELECT count(*) FROM rss_item WHERE deleted = 0")))
        let left = try #require(summary["not_carried"] as? [String])
        #expect(left.contains { $0.hasPrefix("config line 6: macro x open ; delete-article") }, "\(left)")
        #expect(!FileManager.default.fileExists(atPath: library.path))
    }
}
