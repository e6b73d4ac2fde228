import Foundation
import Testing

/// The mouse through a real terminal: tmux hands herald the SGR mouse reports a terminal
/// sends (`ESC [ < button ; column ; row M`, then `m` on release).
@Suite("The mouse in tmux", .serialized)
struct MouseEndToEndTests {
    static func click(column: Int, row: Int) -> String {
        "\u{1b}[<0;\(column);\(row)M\u{1b}[<0;\(column);\(row)m"
    }

    @Test(
        "a click selects a feed, a double click opens it, the wheel moves three rows; mouse no leaves it alone"
    )
    func mouse() async throws {
        let session = try TmuxSession()
        defer { session.kill() }
        let binary = try HeraldUnderTest.binary()
        try await session.waitUntil(contains: "e2e$")
        try session.runCommand(HeraldUnderTest.commandLine(binary: binary))
        try await session.waitUntil("the feed list") { $0.first?.contains("Herald · Feeds") == true }
        // Row 7 of the screen (1-based) is the third feed.
        try session.type(Self.click(column: 5, row: 7))
        var screen = try await session.waitUntil("the third feed selected") {
            $0.count > 6 && $0[6].hasPrefix(">")
        }
        #expect(screen[6].contains("Herald Notes"))
        try session.type(Self.click(column: 5, row: 7) + Self.click(column: 5, row: 7))
        try await session.waitUntil("the feed opened") { $0.first?.contains("Herald · Herald Notes") == true }
        try session.type("\u{1b}[<65;5;7M")
        screen = try await session.waitUntil("three rows down") {
            $0.contains { $0.contains("4/13 articles") }
        }
        try session.sendKeys("Q")
        _ = try await session.waitForExitStatus()

        // With `set mouse no`, herald asks for no mouse reports: tmux's pane says so.
        let config = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-mouse-\(UUID().uuidString)")
        try "set mouse no\n".write(to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }
        try session.runCommand(
            HeraldUnderTest.commandLine(binary: binary).replacingOccurrences(
                of: " --feeds ", with: " --config \(HeraldUnderTest.shellQuoted(config.path)) --feeds "))
        try await session.waitUntil("the feed list again") { $0.first?.contains("Herald · Feeds") == true }
        #expect(try session.display("#{mouse_any_flag}#{mouse_standard_flag}#{mouse_button_flag}") == "000")
        try session.sendKeys("Q")
        _ = try await session.waitForExitStatus()
    }
}
