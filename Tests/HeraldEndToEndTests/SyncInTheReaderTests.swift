import Foundation
import HeraldTestSupport
import Testing

/// The real reader in tmux with `set sync-dir`: two libraries share one folder; what the
/// other one does shows on the open reader's screen without a key, and the reader waiting
/// with sync on costs no CPU.
@Suite("Sync in the open reader, in a tmux terminal", .serialized)
struct SyncInTheReaderTests {
    typealias Library = CommandLineTests.Library
    static let feed = CommandLineTests.Demo.hangul
    static let feedTitle = "한글 기술 일지"
    static let article = "떡볶이"

    /// Two libraries that both subscribe to the Hangul feed and have synced through one
    /// folder; `here`'s config sets `sync-dir` to it.
    struct Machines {
        let here = Library()
        let there = Library()
        let folder: URL
        let config: URL

        init() throws {
            folder = here.directory.appendingPathComponent("shared")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for library in [here, there] {
                #expect(try library.run(["list", "--limit", "1"]).exitStatus == 0)
                #expect(try library.run(["add", SyncInTheReaderTests.feed]).exitStatus == 0)
            }
            for library in [here, there, here] { try Self.sync(library, folder) }
            config = try here.write("set sync-dir \"\(folder.path)\"\n", to: "config")
        }

        func sync(_ library: Library) throws { try Self.sync(library, folder) }

        static func sync(_ library: Library, _ folder: URL) throws {
            let result = try library.run(["sync", "--dir", folder.path])
            #expect(result.exitStatus == 0, "\(result.errors)")
        }

        /// Opens the reader on `here` in tmux and waits for the feed list.
        func openReader() async throws -> TmuxSession {
            let session = try await here.openReader(["--config", config.path])
            try await session.waitUntil("the reader shows the feeds") { screen in
                screen.contains { $0.contains(SyncInTheReaderTests.feedTitle) }
            }
            return session
        }

        func cleanUp() {
            here.cleanUp()
            there.cleanUp()
        }
    }

    /// The row of the article, if it is on screen.
    static func row(_ screen: [String]) -> String? { screen.first { $0.contains(article) } }

    @Test(
        "the other library marks an article read and syncs: the open list shows it read, with no key pressed")
    func flagFromTheOtherLibrary() async throws {
        let machines = try Machines()
        defer { machines.cleanUp() }
        let session = try await machines.openReader()
        defer { session.kill() }
        // Down to the Hangul feed, and open it.
        for _ in 0..<12 {
            let screen = try session.capture()
            if screen.contains(where: { $0.hasPrefix(">") && $0.contains(Self.feedTitle) }) { break }
            try session.sendKeys("j")
            try await Task.sleep(for: .milliseconds(100))
        }
        try session.sendKeys("Enter")
        var screen = try await session.waitUntil("the feed's articles, the article unread") { screen in
            screen.first?.contains("Herald · \(Self.feedTitle)") == true
                && Self.row(screen)?.contains(" N  ") == true
        }
        // Syncs start at most once a second: past the first one's pause, the figure below
        // is the path from the folder to the screen, not the wait for the pause.
        try await Task.sleep(for: .milliseconds(1200))
        // The other library: the article read with sqlite3 (its capture triggers record it), then synced.
        try machines.there.sqlite("UPDATE articles SET read = 1 WHERE title = '\(Self.article)'")
        let started = ContinuousClock.now
        try machines.sync(machines.there)
        let synced = ContinuousClock.now
        screen = try await session.waitUntil("the article shows read") { screen in
            Self.row(screen).map { !$0.contains(" N  ") } == true
        }
        print(
            "another library's read flag on the open reader's screen \(ContinuousClock.now - started) after "
                + "its `herald sync` started (which took \(synced - started))")
        #expect(screen.first?.contains("Herald · \(Self.feedTitle)") == true, "no key was pressed")
        // Back on the feed list, the feed's count follows too.
        let unread = try machines.here.sqlite(
            "SELECT count(*) FROM articles a JOIN feeds f ON f.id = a.feed_id WHERE f.url = '\(Self.feed)' AND a.read = 0"
        )
        #expect(unread == String(CommandLineTests.Demo.hangulArticles - 1))
        try session.sendKeys("q")
        try await session.waitUntil("the feed list counts the article read") { screen in
            screen.contains {
                $0.contains("(\(unread)/\(CommandLineTests.Demo.hangulArticles))")
                    && $0.contains(Self.feedTitle)
            }
        }
        try session.sendKeys("q")
        #expect(try await session.waitForExitStatus() == 0)
    }

    @Test("a change made less than a second before q reaches the folder as the reader exits")
    func changeBeforeQuit() async throws {
        let machines = try Machines()
        defer { machines.cleanUp() }
        let session = try await machines.openReader()
        defer { session.kill() }
        // Right after the first sync: the stars wait for its second to pass, and q comes first.
        try session.type(":star feed:hangul-tech")
        try session.sendKeys("Enter", "q")
        #expect(try await session.waitForExitStatus() == 0)
        try machines.sync(machines.there)
        let starred = try machines.there.sqlite("SELECT count(*) FROM articles WHERE starred = 1")
        #expect(starred == String(CommandLineTests.Demo.hangulArticles))
    }

    @Test("the reader waiting with sync on (folder watch, timer) costs no CPU")
    func idleCostsNoCPU() async throws {
        let machines = try Machines()
        defer { machines.cleanUp() }
        let session = try await machines.openReader()
        defer { session.kill() }
        // The first sync ran after the feed list came up: let it end.
        try await Task.sleep(for: .seconds(1))
        let pid = try #require(HeraldUnderTest.childPID(of: try session.panePID()))
        let before = try CommandLineFeedSettingsTests.cpuSeconds(of: pid)
        let wall = 3.0
        try await Task.sleep(for: .seconds(wall))
        let cpu = try CommandLineFeedSettingsTests.cpuSeconds(of: pid) - before
        print("reader with `set sync-dir`, idle \(wall) s: \(cpu) CPU-s")
        #expect(cpu < 0.1 * wall, "\(cpu) CPU-s in \(wall) s of waiting")
        try session.sendKeys("q")
        #expect(try await session.waitForExitStatus() == 0)
    }
}
