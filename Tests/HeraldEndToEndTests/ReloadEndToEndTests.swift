import Foundation
import HeraldTestSupport
import Testing

/// `R` in the real binary, in tmux, against a local HTTP server where one feed is slow.
@Suite("Reloading in a terminal", .serialized)
struct ReloadEndToEndTests {
    @Test("keys answer at once while a slow feed reloads; the reload ends with the right counts and errors")
    func reloadWithSlowFeed() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-e2e-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("herald.db").path
        let binary = try HeraldUnderTest.binary()
        var environment = ProcessInfo.processInfo.environment
        environment["HERALD_DB"] = database
        for (path, title) in [("/feed", "Quick"), ("/slow", "Slow"), ("/status/404", "Gone")] {
            let added = try Spawn.run(
                [binary.path, "add", server.url(path).absoluteString, "--title", title],
                environment: environment, timeout: 30)
            try #require(added.exitStatus == 0, "\(added.errors)")
        }

        let session = try TmuxSession()
        defer { session.kill() }
        try await session.waitUntil(contains: "e2e$")
        try session.runCommand(
            "HERALD_DB=\(HeraldUnderTest.shellQuoted(database)) \(HeraldUnderTest.shellQuoted(binary.path)); echo \"EXIT=$?\""
        )
        try await session.waitUntil(contains: "1/3 feeds")

        try session.sendKeys("R")
        try await session.waitUntil(contains: "reloading")
        // The slow feed holds the reload for about 5 s; the key is answered long before it ends
        // (the screen still says "reloading" when the marker has moved).
        try session.sendKeys("j")
        let screen = try await session.waitUntil(
            "the marker moves while the reload runs", timeout: .seconds(3)
        ) {
            $0.count > 5 && $0[5].hasPrefix(">")
        }
        #expect(
            screen.contains { $0.contains("reloading") },
            "the reload was still running:\n\(TmuxSession.framed(screen))")

        // Each wait is for every line it checks: tmux may catch a frame mid-draw.
        let done = try await session.waitUntil("the reload's message", timeout: .seconds(20)) { screen in
            screen.contains { $0.contains("Reloaded 3 feeds") }
        }
        #expect(
            done.contains { $0.contains("Reloaded 3 feeds: 2 new, 1 failed (!: why)") },
            "\(TmuxSession.framed(done))")
        try await session.waitUntil("the slow feed's counts") { screen in
            screen.contains { $0.contains("(1/1)") && $0.contains("Slow") }
        }

        try session.sendKeys("!")
        try await session.waitUntil("the reload errors with the 404") { screen in
            screen.contains { $0.contains("Reload errors") }
                && screen.contains { $0.contains("Gone") && $0.contains("HTTP 404") }
        }
        try session.sendKeys("q")
        try await session.waitUntil(contains: "Herald · Feeds")
        try session.sendKeys("q")
        #expect(try await session.waitForExitStatus() == 0)
    }
}
