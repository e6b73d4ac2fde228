import Foundation
import Testing

/// A config `query` line as a row of the feed list in the real binary, over a real library
/// file, in tmux: counted like the feed it selects, opened, marked read, and a `:` command
/// with a query taking it back.
@Suite("Query feeds in a tmux terminal", .serialized)
struct QueryFeedEndToEndTests {
    /// The `(unread/total)` before a row's title, when the row is on screen.
    static func counts(_ screen: [String], _ title: String) -> String? {
        for row in screen where row.hasSuffix("  " + title) || row.contains(")  \(title) ") {
            guard let range = row.range(of: #"\(\d+/\d+\)"#, options: .regularExpression) else { continue }
            return String(row[range])
        }
        return nil
    }

    @Test(
        "a query row counts what its feed counts, opens its articles, A reads them; :mark-unread QUERY undoes it"
    )
    func queryFeed() async throws {
        let library = CommandLineTests.Library()
        defer { try? FileManager.default.removeItem(at: library.directory) }
        try FileManager.default.createDirectory(at: library.directory, withIntermediateDirectories: true)
        let config = library.directory.appendingPathComponent("config")
        try """
        query "Everything unread" unread
        query "From Nusantara" feed:nusantara
        """.write(to: config, atomically: true, encoding: .utf8)
        let session = try await library.openReader(["--config", config.path])
        defer { session.kill() }
        var screen = try await session.waitUntil("the feed list with the queries counted") { screen in
            screen.contains { $0.contains("1/4 feeds") } && Self.counts(screen, "From Nusantara") != nil
                && Self.counts(screen, "Kabar Nusantara") != nil
        }
        let feedCounts = try #require(Self.counts(screen, "Kabar Nusantara"))
        #expect(Self.counts(screen, "From Nusantara") == feedCounts, "\(TmuxSession.framed(screen))")
        #expect(feedCounts != "(0/0)" && !feedCounts.hasPrefix("(0/"))
        #expect(
            Self.counts(screen, "All articles")?.dropFirst().prefix { $0 != "/" }
                == Self.counts(
                    screen, "Everything unread")?.dropFirst().prefix { $0 != "/" })

        // The cursor starts on the first feed; the query is the row above it.
        try session.sendKeys("k", "Enter")
        try await session.waitUntil(contains: "Herald · From Nusantara")
        // Rows name their feed.
        try await session.waitUntil(contains: "Kabar Nusantara")
        try session.sendKeys("A")
        // Once written, A says what it marked (on the status line, for one frame).
        try await session.waitUntil(contains: "articles of From Nusantara read (U undoes it).")
        try session.sendKeys("q")
        screen = try await session.waitUntil("the query counted again") { screen in
            Self.counts(screen, "From Nusantara")?.hasPrefix("(0/") == true
        }
        #expect(
            Self.counts(screen, "Kabar Nusantara")?.hasPrefix("(0/") == true, "\(TmuxSession.framed(screen))")

        try session.type(":mark-unread feed:nusantara")
        try await session.waitUntil(contains: ":mark-unread feed:nusantara")
        try session.sendKeys("Enter")
        try await session.waitUntil(contains: "marked unread (U undoes)")
        try session.sendKeys("j")
        screen = try await session.waitUntil("every article of the feed unread") { screen in
            guard let counts = Self.counts(screen, "From Nusantara") else { return false }
            let parts = counts.dropFirst().dropLast().split(separator: "/")
            return parts.count == 2 && parts[0] == parts[1]
        }
        try session.sendKeys("q")
        let status = try await session.waitForExitStatus()
        let last = try session.capture()
        #expect(status == 0, "\(TmuxSession.framed(last))")
        let unread = try library.sqlite(
            "SELECT count(*) = sum(read = 0) FROM articles WHERE feed_id = (SELECT id FROM feeds WHERE title LIKE '%Nusantara%')"
        )
        #expect(unread.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
    }
}
