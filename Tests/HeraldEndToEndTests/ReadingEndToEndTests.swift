import Foundation
import Testing

/// The keys a newsboat user presses first, in the real binary in tmux: `n` across feeds,
/// `o` with a real `$BROWSER`, `?`.
@Suite("Reading like a newsboat user, in a tmux terminal", .serialized)
struct ReadingEndToEndTests {
    /// Two small JSON feeds in a fresh directory: Alpha (two posts) and Beta (one post).
    struct Feeds {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-e2e-read-\(UUID().uuidString)")

        init() throws {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try write(
                "a-alpha.json", title: "Alpha",
                posts: [("Alpha one", "2026-11-02"), ("Alpha two", "2026-11-01")])
            try write("b-beta.json", title: "Beta", posts: [("Beta one", "2026-11-03")])
        }

        func write(_ name: String, title: String, posts: [(String, String)]) throws {
            let items = posts.enumerated().map { index, post in
                [
                    "id": "\(title)-\(index)", "url": "https://example.org/\(title.lowercased())/\(index)",
                    "title": post.0, "content_text": "The text of \(post.0).",
                    "date_published": post.1 + "T09:00:00Z",
                ]
            }
            let feed: [String: Any] = [
                "version": "https://jsonfeed.org/version/1.1", "title": title, "items": items,
            ]
            try JSONSerialization.data(withJSONObject: feed).write(to: directory.appendingPathComponent(name))
        }

        func cleanUp() { try? FileManager.default.removeItem(at: directory) }
    }

    func start(_ session: TmuxSession, feeds: Feeds, environment: String = "") async throws {
        let binary = try HeraldUnderTest.binary()
        try await session.waitUntil(contains: "e2e$")
        try session.runCommand(
            environment + HeraldUnderTest.commandLine(binary: binary, feeds: feeds.directory))
        try await session.waitUntil("the feed list is up") { screen in
            screen.contains { $0.contains("1/2 feeds") } && screen.contains { $0.contains("Beta") }
        }
    }

    @Test("n reads Alpha's two posts, then goes on to Beta; at the end it says there is no more")
    func nextUnreadAcrossFeeds() async throws {
        let feeds = try Feeds()
        defer { feeds.cleanUp() }
        let session = try TmuxSession()
        defer { session.kill() }
        try await start(session, feeds: feeds)
        try session.sendKeys("Enter")
        try await session.waitUntil(contains: "Herald · Alpha")
        for title in ["Alpha one", "Alpha two", "Beta one"] {
            try session.sendKeys("n")
            // Waits for the header and the text together: tmux may catch a frame mid-draw.
            try await session.waitUntil("\(title) is open, its text shown") { screen in
                screen.contains { $0.hasPrefix("Title:") && $0.contains(title) }
                    && screen.contains { $0.contains("The text of \(title).") }
            }
        }
        try session.sendKeys("n")
        try await session.waitUntil(contains: "No more unread articles.")
        // Back on the list: Beta's, with the cursor on its post; back again: the feed list on Beta.
        try session.sendKeys("q")
        try await session.waitUntil("Beta's list") { screen in
            screen.first?.contains("Herald · Beta") == true
                && screen.contains { $0.hasPrefix(">") && $0.contains("Beta one") }
        }
        try session.sendKeys("q")
        try await session.waitUntil("the feed list, on Beta") { screen in
            screen.contains { $0.hasPrefix(">") && $0.contains("Beta") }
        }
        try session.sendKeys("q")
        #expect(try await session.waitForExitStatus() == 0)
    }

    @Test("o hands the article's own link to $BROWSER, run without a shell, and the reader comes back")
    func openInBrowser() async throws {
        let feeds = try Feeds()
        defer { feeds.cleanUp() }
        let log = feeds.directory.appendingPathComponent("browser.log")
        let script = feeds.directory.appendingPathComponent("browser.sh")
        try
            "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> \(HeraldUnderTest.shellQuoted(log.path)); done\n"
            .write(to: script, atomically: true, encoding: .utf8)
        let session = try TmuxSession()
        defer { session.kill() }
        // Run through sh: a file written a moment ago can be busy in a child another test forks.
        let browser = "BROWSER=\(HeraldUnderTest.shellQuoted("/bin/sh " + script.path)) "
        try await start(session, feeds: feeds, environment: browser)
        try session.sendKeys("Enter")
        try await session.waitUntil(contains: "Alpha two")
        try session.sendKeys("J", "Enter")
        try await session.waitUntil(contains: "Title:")
        try session.sendKeys("o")
        try await session.waitUntil(contains: "Opened article: https://example.org/alpha/1")
        let logged = try String(contentsOf: log, encoding: .utf8)
        #expect(logged == "https://example.org/alpha/1\n")
        // From the list too, without opening the article.
        try session.sendKeys("q", "K", "o")
        try await session.waitUntil(contains: "Opened article: https://example.org/alpha/0")
        #expect(
            try String(contentsOf: log, encoding: .utf8)
                == "https://example.org/alpha/1\nhttps://example.org/alpha/0\n")
        try session.sendKeys("q", "q")
        #expect(try await session.waitForExitStatus() == 0)
    }

    @Test("? shows the keys of the screen, then the global ones; q closes it; an unbound key says so")
    func helpOverlay() async throws {
        let feeds = try Feeds()
        defer { feeds.cleanUp() }
        let session = try TmuxSession()
        defer { session.kill() }
        try await start(session, feeds: feeds)
        try session.sendKeys("z")
        try await session.waitUntil(contains: "unknown key z — ? for help")
        try session.sendKeys("?")
        // Until its last line shows: a screen caught mid-draw (CI did) has the heading
        // without the lines below it. The feed list's own keys fill the first page; the
        // global ones follow a page down.
        let help = try await session.waitUntil("the help's first page shows") { screen in
            ["Keys of the feed list", "next unread article", "why feeds failed"]
                .allSatisfy { text in screen.contains { $0.contains(text) } }
        }
        #expect(!help.contains { $0.contains("Everywhere") }, "the screen's own keys come first")
        try session.sendKeys("PageDown")
        try await session.waitUntil("the global keys, after them") { screen in
            ["Everywhere", "search every feed as you type"].allSatisfy { text in screen.contains { $0.contains(text) } }
        }
        try session.sendKeys("q")
        try await session.waitUntil("the feed list is back") { screen in
            screen.first?.contains("Herald · Feeds") == true
        }
        try session.sendKeys("q")
        #expect(try await session.waitForExitStatus() == 0)
    }
}
