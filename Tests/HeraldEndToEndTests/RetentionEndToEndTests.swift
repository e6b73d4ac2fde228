import Foundation
import HeraldTestSupport
import Testing

/// `herald reload` with retention, as cron runs it: it once ended now and then with
/// "database error 1: cannot VACUUM - SQL statements in progress" and status 1, though no
/// feed failed (retention left a statement mid-rows, and the compaction after it failed).
@Suite("Retention in herald reload")
struct RetentionEndToEndTests {
    /// An RSS feed of 200 items of round `round` (new guids each round), each about 3 KB of
    /// words that compress as prose does.
    static func feed(round: Int) -> String {
        var items = ""
        for index in 0..<200 {
            let words = ProseText.words(seed: round * 1_000 + index)
            items += "<item><guid>r\(round)-\(index)</guid><title>Round \(round) item \(index)</title>"
                + "<pubDate>Mon, 0\(1 + index % 9) Jan 2024 10:00:00 GMT</pubDate>"
                + "<description>\(words)</description></item>"
        }
        return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Rounds</title>\(items)</channel></rss>"
    }

    @Test("six reloads of a changing feed with keep-articles 30 each end with status 0, retention and compaction done")
    func reloadsWithRetention() throws {
        let library = CommandLineTests.Library()
        defer { library.cleanUp() }
        let config = try library.write("set keep-articles 30\n", to: "config")
        let feed = library.directory.appendingPathComponent("feed.xml")
        #expect(try library.run(["--config", config.path, "list", "--limit", "1"]).exitStatus == 0)
        #expect(try library.run(["add", "file://" + feed.path]).exitStatus == 0)
        for round in 0..<6 {
            try Self.feed(round: round).write(to: feed, atomically: true, encoding: .utf8)
            let result = try library.run(["--config", config.path, "reload", "--index-now"], timeout: 120)
            #expect(result.exitStatus == 0, "round \(round): \(result.output) \(result.errors)")
            #expect(!result.errors.contains("database error"), "round \(round): \(result.errors)")
            #expect(result.output.contains("retention removed"), "round \(round): \(result.output)")
        }
        #expect(try library.sqlite("SELECT count(*) FROM articles") == "30")
        #expect(try library.sqlite("PRAGMA integrity_check") == "ok")
    }
}
