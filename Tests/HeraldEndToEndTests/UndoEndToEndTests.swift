import Foundation
import Testing

/// `:mark-read` then `u` in the real binary over a real library file, in tmux.
@Suite("The command line and undo, in a tmux terminal", .serialized)
struct UndoEndToEndTests {
    /// The unread count the article list's status line shows (`1/12 articles · 7 unread`).
    static func unread(_ screen: [String]) -> Int? {
        for row in screen {
            guard let range = row.range(of: #"articles · \d+ unread"#, options: .regularExpression) else {
                continue
            }
            return Int(row[range].split(separator: " ")[2])
        }
        return nil
    }

    @Test(
        ":mark-read marks the open feed read, U makes exactly those articles unread again, in the library too"
    )
    func markReadThenUndo() async throws {
        let library = CommandLineTests.Library()
        defer { try? FileManager.default.removeItem(at: library.directory) }
        let session = try await library.openReader()
        defer { session.kill() }
        try await session.waitUntil("the feed list is up") { screen in
            screen.contains { $0.contains("1/4 feeds") } && screen.contains { $0.contains("Kabar Nusantara") }
        }
        try session.sendKeys("Enter")
        var screen = try await session.waitUntil("the first feed's list") { Self.unread($0) != nil }
        let before = try #require(Self.unread(screen))
        #expect(before > 0, "the demo feed starts with unread articles:\n\(TmuxSession.framed(screen))")
        // One article read by hand first: mark-read must not count it, undo must leave it read.
        try session.sendKeys("N")
        try await session.waitUntil("one read") { Self.unread($0) == before - 1 }

        try session.type(":mark-read")
        try await session.waitUntil(contains: ":mark-read")
        try session.sendKeys("Enter")
        screen = try await session.waitUntil(
            contains: "\(before - 1) article\(before - 1 == 1 ? "" : "s") marked read (U undoes)")
        // The message holds the status line until the next key.
        try session.sendKeys("K")
        screen = try await session.waitUntil("the list counts none unread") { Self.unread($0) == 0 }
        #expect(!screen.contains { $0.hasPrefix("  N  ") }, "\(TmuxSession.framed(screen))")

        try session.sendKeys("U")
        try await session.waitUntil(contains: "undid: \(before - 1) article")
        // The rows are read again with the fresh counts: wait for them, not for the message.
        try await session.waitUntil("the rows unread again") { screen in
            screen.filter { $0.hasPrefix("  N  ") }.count == before - 1
        }
        try session.sendKeys("K")
        screen = try await session.waitUntil("the count is back") { Self.unread($0) == before - 1 }
        // The article read by hand (the first row) stays read.
        #expect(screen[1].hasPrefix(">    "), "\(TmuxSession.framed(screen))")
        try session.sendKeys("q", "q")
        #expect(try await session.waitForExitStatus() == 0)
        let unreadInLibrary = try library.sqlite(
            "SELECT count(*) FROM articles WHERE read = 0 AND feed_id = (SELECT id FROM feeds ORDER BY position, id LIMIT 1)"
        )
        #expect(unreadInLibrary.trimmingCharacters(in: .whitespacesAndNewlines) == "\(before - 1)")
    }
}
