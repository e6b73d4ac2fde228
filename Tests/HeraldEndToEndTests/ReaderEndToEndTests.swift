import Foundation
import Testing

/// The real `herald` binary in a real (tmux) terminal: keys, exit statuses, signals, resize.
///
/// Needs `swift build` to have built `herald`, and tmux on PATH. Every test owns a private
/// tmux server and kills it when it ends, failed or not.
@Suite("herald in a tmux terminal", .serialized)
struct ReaderEndToEndTests {
    static let feedTitles = ["Field Journal", "한글 기술 일지", "Herald Notes", "Kabar Nusantara"]
    /// How the key hints (last row) begin; the rest is cut to the width.
    static let feedListHint = "Enter:open  ?:help  n:next unread"
    static let articleListHint = "Enter:open  ?:help  n:next unread  N:read"
    /// The feeds start below the virtual feeds (All articles, Unread, Starred).
    static let firstFeedRow = 4

    // MARK: Tests

    @Test("j, Enter and q walk from the feed list into an article and back out, and q quits")
    func navigation() async throws {
        let session = try TmuxSession()
        defer { session.kill() }
        var screen = try await startHerald(in: session)

        // The virtual feeds, then all four feeds, in order, with the marker on the first feed.
        #expect(
            screen[1].contains("All articles") && screen[2].contains("Unread")
                && screen[3].contains("Starred"))
        let first = Self.firstFeedRow
        for (offset, title) in Self.feedTitles.enumerated() {
            let row = screen[first + offset]
            #expect(
                row.contains(title),
                "row \(first + 1 + offset) should show \(title):\n\(TmuxSession.framed(screen))")
        }
        #expect(
            screen[first].hasPrefix(">"),
            "the marker should start on the first feed:\n\(TmuxSession.framed(screen))")
        #expect(!screen[first + 1].hasPrefix(">"))
        #expect(screen[screen.count - 2].contains("1/4 feeds"))

        // j moves the marker to the second row.
        try session.sendKeys("j")
        screen = try await session.waitUntil("the marker is on the second feed") { screen in
            screen.count > first + 1 && screen[first + 1].hasPrefix(">")
        }
        #expect(!screen[first].hasPrefix(">"), "only one row has the marker:\n\(TmuxSession.framed(screen))")
        #expect(screen[first + 1].contains("한글 기술 일지"))
        #expect(screen[screen.count - 2].contains("2/4 feeds"))

        // Enter opens that feed's articles.
        try session.sendKeys("Enter")
        // tmux may capture a frame half written: wait for its last line too.
        screen = try await session.waitUntil("the article list of 한글 기술 일지 is open") { screen in
            screen.first?.contains("Herald · 한글 기술 일지") == true
                && screen.contains { $0.contains("articles ·") }
                && screen.last?.hasPrefix(Self.articleListHint) == true
        }
        #expect(screen[1].hasPrefix(">"), "the first article is selected:\n\(TmuxSession.framed(screen))")
        #expect(screen.last?.hasPrefix(Self.articleListHint) == true)

        // Enter opens the first article.
        try session.sendKeys("Enter")
        // Waits for every line it checks: tmux may catch a frame mid-draw.
        screen = try await session.waitUntil("the article's Feed: and Title: lines") { screen in
            screen.contains { $0.hasPrefix("Feed:") && $0.contains("한글 기술 일지") }
                && screen.contains { $0.hasPrefix("Title:") && $0.contains("떡볶이") }
        }

        // q: back to the article list …
        try session.sendKeys("q")
        screen = try await session.waitUntil("the article list is back") { screen in
            screen.first?.contains("Herald · 한글 기술 일지") == true
                && !screen.contains { $0.hasPrefix("Title:") }
                && screen.contains { $0.contains("articles ·") }
        }
        // … q: back to the feeds, marker still on the second feed …
        try session.sendKeys("q")
        screen = try await session.waitUntil("the feed list is back") { screen in
            screen.first?.contains("Herald · Feeds") == true && screen.count > first + 1
                && screen[first + 1].hasPrefix(">")
        }
        #expect(screen[first + 1].contains("한글 기술 일지"))
        // … and q quits.
        try session.sendKeys("q")
        let status = try await session.waitForExitStatus()
        #expect(status == 0)
    }

    @Test("q on the feed list exits with status 0 and leaves the alternate screen with the cursor shown")
    func quitRestoresTerminal() async throws {
        let session = try TmuxSession()
        defer { session.kill() }
        try await startHerald(in: session)
        try session.sendKeys("q")
        try await expectRestored(session, status: 0)
    }

    @Test("SIGTERM makes herald restore the terminal and exit with status 143")
    func sigtermRestoresTerminal() async throws {
        try await expectSignalRestores(SIGTERM, status: 143)
    }

    @Test("SIGHUP makes herald restore the terminal and exit with status 129")
    func sighupRestoresTerminal() async throws {
        try await expectSignalRestores(SIGHUP, status: 129)
    }

    @Test(
        "SIGUSR1, SIGUSR2 and SIGALRM, which would end it leaving the alternate screen on, restore it too",
        arguments: [SIGUSR1, SIGUSR2, SIGALRM])
    func strayTerminatingSignalsRestore(_ signal: Int32) async throws {
        try await expectSignalRestores(signal, status: 128 + Int(signal))
    }

    @Test("TERM=dumb (no cursor addressing) is refused with a message, before anything is drawn")
    func dumbTerminalRefused() async throws {
        let session = try TmuxSession()
        defer { session.kill() }
        let binary = try HeraldUnderTest.binary()
        try await session.waitUntil(contains: "e2e$")
        try session.runCommand("TERM=dumb " + HeraldUnderTest.commandLine(binary: binary))
        #expect(try await session.waitForExitStatus() == 1)
        let screen = try session.capture()
        #expect(
            screen.contains { $0.contains("terminal type 'dumb' cannot move the cursor") },
            "\(TmuxSession.framed(screen))")
        #expect(try session.alternateScreenOn == false)
    }

    @Test("Resizing the window to 60x20 redraws at the new size: hint on row 20, rows clipped to 60 columns")
    func resizeRedraws() async throws {
        let session = try TmuxSession()
        defer { session.kill() }
        try await startHerald(in: session)

        // Open 한글 기술 일지: at 100 columns its second title fits in full.
        try session.sendKeys("j")
        let second = Self.firstFeedRow + 1
        try await session.waitUntil("the marker is on the second feed") {
            $0.count > second && $0[second].hasPrefix(">")
        }
        try session.sendKeys("Enter")
        let longTitle = "유니코드 정규화 NFC와 NFD"
        var screen = try await session.waitUntil("the article rows have loaded") { screen in
            screen.contains { $0.contains("1/13 articles") } && screen.contains { $0.contains(longTitle) }
        }
        let longEnd = "완전 정복"
        #expect(screen.count == TmuxSession.height)
        #expect(screen.last?.hasPrefix(Self.articleListHint) == true)
        #expect(
            screen.contains { $0.contains(longTitle) && $0.contains(longEnd) },
            "at 100 columns the long title is whole:\n\(TmuxSession.framed(screen))")

        try session.resize(width: 60, height: 20)
        // Every line checked below is waited for: a frame caught mid-draw has the old status.
        screen = try await session.waitUntil("herald redraws at 60x20 (hint on row 20)") { screen in
            screen.count == 20 && screen[19].hasPrefix(Self.articleListHint)
                && screen[0].contains("Herald · 한글 기술 일지") && screen[18].contains("1/13 articles")
        }
        #expect(try session.display("#{pane_width}x#{pane_height}") == "60x20")
        #expect(screen[0].contains("Herald · 한글 기술 일지"))
        #expect(screen[18].contains("1/13 articles"), "status on row 19:\n\(TmuxSession.framed(screen))")
        for (index, row) in screen.enumerated() {
            #expect(Self.displayWidth(row) <= 60, "row \(index + 1) is wider than 60 columns: \(row)")
        }
        // The long title is now cut by herald (with an ellipsis), not by the edge of the pane.
        let titleRow = try #require(
            screen.first { $0.contains(longTitle) },
            "the long title is on screen:\n\(TmuxSession.framed(screen))")
        #expect(!titleRow.contains(longEnd))
        #expect(titleRow.hasSuffix("…"), "herald truncates the title to fit 60 columns: \(titleRow)")
        #expect(Self.displayWidth(titleRow) <= 60)

        // The feed list at the new size too.
        try session.sendKeys("q")
        screen = try await session.waitUntil("the feed list is back at 60x20") { screen in
            screen.count == 20 && screen[0].contains("Herald · Feeds")
                && screen[19].hasPrefix(Self.feedListHint) && screen[18].contains("2/4 feeds")
                && screen[second].hasPrefix(">")
        }
        #expect(screen[18].contains("2/4 feeds"))
        #expect(screen[second].hasPrefix(">") && screen[second].contains("한글 기술 일지"))

        try session.sendKeys("q")
        #expect(try await session.waitForExitStatus() == 0)
    }

    @Test("text another program writes over the reader goes with Ctrl-L, on the feed list and in an article")
    func redraw() async throws {
        let session = try TmuxSession()
        defer { session.kill() }
        _ = try await startHerald(in: session)
        // Another program (a `wall`, a background job) writes to the terminal behind ncurses.
        let tty = try session.display("#{pane_tty}")
        let scribble = "SCRIBBLED-OVER-THE-READER"
        func scribbleOver() throws {
            guard let handle = FileHandle(forWritingAtPath: tty) else {
                throw EndToEndError("cannot open the pane's tty \(tty)")
            }
            handle.write(Data("\u{1B}[8;10H\(scribble)\u{1B}[2;30H\(scribble)".utf8))
            try handle.close()
        }
        try scribbleOver()
        _ = try await session.waitUntil("the scribble is on screen") { screen in
            screen.contains { $0.contains(scribble) }
        }
        try session.sendKeys("C-l")
        var screen = try await session.waitUntil("Ctrl-L painted the screen again") { screen in
            !screen.contains { $0.contains(scribble) } && screen.contains { $0.contains("Kabar Nusantara") }
        }
        #expect(
            screen[1].contains("All articles"), "the feed list is whole again:\n\(TmuxSession.framed(screen))")
        #expect(!screen.contains { $0.contains("unknown key") })

        // In an article, after a key moved the text: the screen is the article, whole.
        try session.sendKeys("Enter")
        _ = try await session.waitUntil("an article list is open") { screen in
            screen.first?.contains("Herald · Field Journal") == true
                && screen.last?.hasPrefix(Self.articleListHint) == true
        }
        try session.sendKeys("Enter")
        _ = try await session.waitUntil("an article is open") { screen in
            screen.contains { $0.hasPrefix("Feed:") }
        }
        try scribbleOver()
        _ = try await session.waitUntil("the scribble is on the article") { screen in
            screen.contains { $0.contains(scribble) }
        }
        try session.sendKeys("C-l")
        screen = try await session.waitUntil("Ctrl-L painted the article again") { screen in
            !screen.contains { $0.contains(scribble) } && screen.contains { $0.hasPrefix("Feed:") }
        }
        #expect(screen.first?.contains("Herald · Field Journal") == true)
        try session.sendKeys("Q")
        try await expectRestored(session, status: 0)
    }

    @Test("Ctrl-C quits herald with the terminal restored")
    func controlCQuits() async throws {
        let session = try TmuxSession()
        defer { session.kill() }
        try await startHerald(in: session)
        try session.sendKeys("C-c")
        let status = try await session.waitForExitStatus()
        // Ctrl-C is SIGINT from the tty (130) while herald keeps ISIG on; a reader in raw mode
        // would see it as a key and quit with 0. Either way it must quit, not crash or hang.
        #expect(status == 130 || status == 0, "Ctrl-C exit status \(status)")
        #expect(try session.alternateScreenOn == false, "alternate screen left")
        #expect(try session.cursorVisible, "cursor shown again")
    }

    // MARK: Helpers

    /// Runs herald on the demo feeds in `session`'s shell and waits for its first full frame.
    /// Checks that it took over the terminal: alternate screen on, cursor hidden.
    @discardableResult
    func startHerald(in session: TmuxSession) async throws -> [String] {
        let binary = try HeraldUnderTest.binary()
        try await session.waitUntil(contains: "e2e$")
        try session.runCommand(HeraldUnderTest.commandLine(binary: binary))
        let screen = try await session.waitUntil("herald shows the feed list") { screen in
            screen.first?.contains("Herald · Feeds") == true
                && screen.contains { $0.contains("1/4 feeds") }
                && screen.contains { $0.contains("Kabar Nusantara") }
        }
        #expect(screen.count == TmuxSession.height)
        #expect(try session.alternateScreenOn, "herald runs on the alternate screen")
        #expect(try session.cursorVisible == false, "herald hides the cursor")
        return screen
    }

    /// After herald is gone: the shell printed `EXIT=<status>`, the alternate screen is off and
    /// the cursor is visible.
    func expectRestored(_ session: TmuxSession, status expected: Int) async throws {
        let status = try await session.waitForExitStatus()
        #expect(status == expected)
        #expect(try session.alternateScreenOn == false, "alternate screen left")
        #expect(try session.cursorVisible, "cursor shown again")
        let screen = try session.capture()
        #expect(
            !screen.contains { $0.contains("Herald · Feeds") },
            "the reader's screen is gone:\n\(TmuxSession.framed(screen))")
    }

    /// Sends `signal` to the running herald and checks it restored the terminal and exited
    /// with `status`.
    func expectSignalRestores(_ signal: Int32, status: Int) async throws {
        let session = try TmuxSession()
        defer { session.kill() }
        try await startHerald(in: session)
        let shell = try session.panePID()
        let pid = try #require(
            HeraldUnderTest.childPID(of: shell), "herald runs as a child of the pane's shell (pid \(shell))")
        #expect(Foundation.kill(pid, signal) == 0, "kill(\(pid), \(signal))")
        try await expectRestored(session, status: status)
    }

    /// Terminal columns of `text`, roughly: East Asian wide and emoji count 2, marks and
    /// joiners 0, the rest 1. Good enough for Hangul, CJK and the demo feeds' emoji.
    static func displayWidth(_ text: String) -> Int {
        text.reduce(0) { width, character in
            width + character.unicodeScalars.map(scalarWidth).max()!
        }
    }

    static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0xFE00...0xFE0F).contains(value) { return 0 }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(value) } ? 2 : 1
    }
}
