import Foundation
import HeraldTestSupport
import Testing

/// `herald import-newsboat` killed with SIGKILL in the middle of a large import: each feed
/// is one transaction, so every feed in the library has all of its articles or is not there.
@Suite("herald import-newsboat killed mid-import", .serialized)
struct ImportNewsboatCrashTests {
    typealias Library = CommandLineTests.Library
    typealias Newsboat = ImportNewsboatTests.Newsboat

    static let feeds = 24
    static let perFeed = 600

    @Test("a killed import leaves whole feeds only, and running it again completes it")
    func killedMidImport() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        let newsboat = Newsboat(library: library)
        // newsboat writes the cache (its real schema); the test then fills it.
        try newsboat.write(urls: server.url("/feed").absoluteString + "\n", config: "")
        try newsboat.reload()
        let urls = (0..<Self.feeds).map { "https://f\($0).example.org/feed" }
        try newsboat.sql(
            """
            DELETE FROM rss_item; DELETE FROM rss_feed;
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < \(Self.feeds * Self.perFeed - 1))
            INSERT INTO rss_item(guid, title, author, url, feedurl, pubDate, content, unread)
            SELECT 'g' || i, 'Article ' || i, 'Ann', 'https://f' || (i % \(Self.feeds)) || '.example.org/' || i,
                'https://f' || (i % \(Self.feeds)) || '.example.org/feed', 1790000000 + i,
                '<p>Body of article ' || i || ' with <b>some</b> words and a <a href="/x">link</a>.</p>', i % 2
            FROM n;
            INSERT INTO rss_feed(rssurl, url, title) SELECT DISTINCT feedurl, feedurl, feedurl FROM rss_item;
            """)
        try newsboat.write(urls: urls.joined(separator: "\n") + "\n", config: "")

        let child = Process()
        child.executableURL = try HeraldUnderTest.binary()
        child.arguments = ["import-newsboat", newsboat.directory.path, "--config", newsboat.heraldConfig]
        var environment = ProcessInfo.processInfo.environment
        environment["HERALD_DB"] = library.path
        child.environment = environment
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: library.path).deletingLastPathComponent(),
            withIntermediateDirectories: true)
        try child.run()
        // Killed once some feeds are in (its write-ahead log has grown past 2 MB), wherever
        // it is then. A stat, not a query, so the test's polling costs nothing on a busy machine;
        // and a blocking sleep, not `Task.sleep`: with the cooperative pool busy with other
        // suites, an awaiting test may not run again before the import has finished.
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, child.isRunning {
            usleep(20_000)
            let wal =
                (try? FileManager.default.attributesOfItem(atPath: library.path + "-wal")[.size] as? Int) ?? 0
            if wal > 2_000_000 { break }
        }
        #expect(child.isRunning, "the import should still be running when it is killed")
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()

        #expect(try library.sqlite("PRAGMA integrity_check") == "ok")
        let counts = try library.sqlite(
            "SELECT total_count, (SELECT count(*) FROM articles a WHERE a.feed_id = f.id) FROM feeds f"
        )
        .split(separator: "\n")
        #expect(counts.count >= 1 && counts.count < Self.feeds, "killed mid-import: \(counts.count) feeds in")
        for row in counts {
            #expect(
                row == "\(Self.perFeed)|\(Self.perFeed)", "a feed with all of its articles or none: \(row)")
        }

        // 14,400 articles: seconds alone, minutes under a sanitizer on a loaded machine.
        let again = try newsboat.importing(timeout: 600)
        #expect(again.exitStatus == 0, "\(again.errors)")
        #expect(try library.sqlite("SELECT count(*) FROM articles") == "\(Self.feeds * Self.perFeed)")
        #expect(
            try library.sqlite("SELECT count(*) FROM articles WHERE read = 1")
                == "\(Self.feeds * Self.perFeed / 2)")
    }
}
