import Foundation
import HeraldTestSupport
import Testing

/// Whole articles in the reader, in tmux: `x` on an article and on a row, the choice kept
/// across starts, keys that answer while a slow page is read, and `R` on a full-article feed.
@Suite("Whole articles in the reader, in a tmux terminal", .serialized)
struct WholeArticleReaderTests {
    typealias Library = CommandLineTests.Library
    typealias Pages = WholeArticleEndToEndTests

    static let whole = "Text:    the whole article, from its web page (x: the feed's text)"
    static let feeds = "Text:    the feed's (x: the whole article, from its web page)"

    /// The screen's words in one line: a sentence wrapped over rows reads whole.
    static func words(_ screen: [String]) -> String {
        screen.joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Opens the reader on `library` and the article list of its one feed, `Summaries: SET`.
    static func openList(_ library: Library, _ set: String) async throws -> TmuxSession {
        let session = try await library.openReader()
        try await session.waitUntil(contains: "Summaries: \(set)")
        try session.sendKeys("Enter")
        try await session.waitUntil("the feed's articles") {
            $0.first?.contains("Herald · Summaries: \(set)") == true
        }
        return session
    }

    /// Moves the list's cursor to the row titled `title` (the selected row starts with `>`),
    /// once the list shows (a key that leaves an article may not have been read yet).
    static func select(_ title: String, in session: TmuxSession) async throws {
        for _ in 0..<10 {
            let screen = try await session.waitUntil("the list with \(title)") { screen in
                screen.contains { $0.hasSuffix("  " + title) } && screen.contains { $0.hasPrefix(">") }
            }
            let target = screen.firstIndex { $0.hasSuffix("  " + title) }!
            let cursor = screen.firstIndex { $0.hasPrefix(">") }!
            if target == cursor { return }
            try session.sendKeys(target < cursor ? "Up" : "Down")
            try await session.waitUntil("the cursor moves") { $0.firstIndex { $0.hasPrefix(">") } != cursor }
        }
        throw EndToEndError("the cursor never reached \(title)")
    }

    /// Opens the article titled `title` from the feed's list.
    static func openArticle(_ title: String, in session: TmuxSession) async throws {
        try await select(title, in: session)
        try session.sendKeys("Enter")
        try await session.waitUntil(contains: "Title:   \(title)")
    }

    @Test(
        "x shows a summary-only feed's article whole and x again the feed's teaser; the choice outlives a restart"
    )
    func switchAndKeep() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        _ = try Pages.subscribe(library, server, to: "pages", fullArticle: nil)
        let sentence = Pages.pages[0].sentences[0]
        var session = try await Self.openList(library, "pages")
        defer { session.kill() }
        try await Self.openArticle("Titan mapped", in: session)
        var screen = try session.capture()
        #expect(
            !screen.contains { $0.hasPrefix("Text:") }, "no page read yet:\n\(TmuxSession.framed(screen))")
        #expect(screen.contains(Pages.teaser))
        try session.sendKeys("x")
        screen = try await session.waitUntil("the whole article") { screen in
            screen.contains(Self.whole) && Self.words(screen).contains(sentence)
        }
        #expect(!screen.contains(Pages.teaser), "\(TmuxSession.framed(screen))")
        try session.sendKeys("x")
        try await session.waitUntil("the feed's teaser again") { screen in
            screen.contains(Self.feeds) && screen.contains(Pages.teaser)
                && !Self.words(screen).contains(sentence)
        }
        try session.sendKeys("q", "q", "q")
        #expect(try await session.waitForExitStatus() == 0)
        session.kill()

        // Started again: the feed's text, as last chosen; x shows the whole article again.
        session = try await Self.openList(library, "pages")
        try await Self.openArticle("Titan mapped", in: session)
        try await session.waitUntil("the feed's text, as chosen") {
            $0.contains(Self.feeds) && $0.contains(Pages.teaser)
        }
        try session.sendKeys("x")
        try await session.waitUntil("the whole article") {
            $0.contains(Self.whole) && Self.words($0).contains(sentence)
        }
        try session.sendKeys("q", "q", "q")
        #expect(try await session.waitForExitStatus() == 0)
        session.kill()

        session = try await Self.openList(library, "pages")
        try await Self.openArticle("Titan mapped", in: session)
        try await session.waitUntil("the whole article, as chosen") {
            $0.contains(Self.whole) && Self.words($0).contains(sentence)
        }
        // x on a search result reads its page, then opens it.
        try session.sendKeys("/")
        try session.type("MacBook")
        try await session.waitUntil("the result") { $0.contains { $0.hasSuffix("  A new MacBook keyboard") } }
        try session.sendKeys("Tab", "x")
        try await session.waitUntil("the result's whole article") { screen in
            screen.contains("Title:   A new MacBook keyboard") && screen.contains(Self.whole)
                && Self.words(screen).contains(Pages.pages[1].sentences[0])
        }
        try session.sendKeys("Q")
        #expect(try await session.waitForExitStatus() == 0)
        #expect(try Pages.show(library, "Titan mapped")["source"] as? String == "page")
    }

    /// A bound for a key's answer well under the 8 s the slow pages take, and wide enough
    /// for a loaded machine: the point is that keys do not wait for the page.
    static let answer: Duration = .seconds(3)

    @Test("while a slow page is read keys answer: the help opens and closes, the list's cursor moves")
    func keysAnswerWhileReading() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        _ = try Pages.subscribe(library, server, to: "slow", fullArticle: nil)
        let session = try await Self.openList(library, "slow")
        defer { session.kill() }

        // In the article: x, then at once the help and back while the page takes 8 s.
        try await Self.openArticle("Another slow page", in: session)
        try session.sendKeys("x", "?")
        try await session.waitUntil("the help", timeout: Self.answer) {
            $0.first?.contains("Herald · Keys") == true
        }
        try session.sendKeys("q")
        try await session.waitUntil("the article again, its page not read yet", timeout: Self.answer) {
            screen in
            screen.contains(Pages.teaser) && !screen.contains { $0.hasPrefix("Text:") }
        }
        try session.sendKeys("?")
        try await session.waitUntil("the help", timeout: Self.answer) {
            $0.first?.contains("Herald · Keys") == true
        }
        // The page arrives while the help covers the article: back, the article shows it.
        let sentence = Pages.pages[2].sentences[0]
        try await waitForSource("page", of: "Another slow page", in: library)
        try session.sendKeys("q")
        try await session.waitUntil("the whole article under the help") { screen in
            screen.contains(Self.whole) && Self.words(screen).contains(sentence)
        }

        // In the list: x on a row reads its page, then opens it; the cursor moves meanwhile.
        try session.sendKeys("q")
        try await Self.select("Slow page", in: session)
        try session.sendKeys("x", "Up")
        try await session.waitUntil("the cursor moves up", timeout: Self.answer) { screen in
            screen.contains { $0.hasPrefix(">") && $0.hasSuffix("Another slow page") }
                && screen.contains {
                    $0.contains("Reading http://127.0.0.1:\(server.port)/pages/titan-map.html")
                }
        }
        try session.sendKeys("Down")
        try await session.waitUntil("the cursor moves back", timeout: Self.answer) { screen in
            screen.contains { $0.hasPrefix(">") && $0.hasSuffix("  Slow page") }
        }
        try await session.waitUntil("the article opens, whole", timeout: .seconds(30)) { screen in
            screen.contains("Title:   Slow page") && screen.contains(Self.whole)
                && Self.words(screen).contains(Pages.pages[0].sentences[0])
        }

        // x on a row, then another article opened: that one stays when the page comes.
        try session.sendKeys("q")
        try await Self.select("Another slow page", in: session)
        try library.sqlite("DELETE FROM full_articles")
        try session.sendKeys("x")
        try await session.waitUntil(
            contains: "Reading http://127.0.0.1:\(server.port)/pages/wework-inquiry.html")
        try await Self.openArticle("Quick page", in: session)
        try await waitForSource("page", of: "Another slow page", in: library)
        try await Task.sleep(for: .seconds(1))
        let screen = try session.capture()
        #expect(screen.contains("Title:   Quick page"), "\(TmuxSession.framed(screen))")
        try session.sendKeys("q", "q", "q")
        #expect(try await session.waitForExitStatus() == 0)
    }

    /// Waits until `herald show` of the article titled `title` gives `source`.
    func waitForSource(_ source: String, of title: String, in library: Library) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if try Pages.show(library, title)["source"] as? String == source { return }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw EndToEndError("\(title) never had source \(source): \(try Pages.show(library, title))")
    }

    @Test("R on a full-article feed reads the new articles' pages in the background and says so")
    func reloadReadsPages() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        let feed = server.url("/summaries/pages").absoluteString
        #expect(try library.run(["add", feed]).exitStatus == 0)
        #expect(try library.run(["feed", "set", feed, "full-article", "yes"]).exitStatus == 0)
        let session = try await library.openReader()
        defer { session.kill() }
        // Never fetched yet: the feed goes by its address.
        try await session.waitUntil(contains: feed)
        try session.sendKeys("R")
        let screen = try await session.waitUntil("the pages are read", timeout: .seconds(60)) { screen in
            screen.contains { $0.contains("Read 3 whole articles from their web pages") }
        }
        #expect(
            screen.contains { $0.contains("Read 3 whole articles from their web pages; 1 gave none") },
            "\(TmuxSession.framed(screen))")
        try session.sendKeys("Enter")
        try await session.waitUntil("the feed's articles") {
            $0.first?.contains("Herald · Summaries: pages") == true
        }
        try await Self.openArticle("WeWork inquiry", in: session)
        try await session.waitUntil("the whole article") { screen in
            screen.contains(Self.whole) && Self.words(screen).contains(Pages.pages[2].sentences[0])
        }
        try session.sendKeys("q", "q", "q")
        #expect(try await session.waitForExitStatus() == 0)
    }
}
