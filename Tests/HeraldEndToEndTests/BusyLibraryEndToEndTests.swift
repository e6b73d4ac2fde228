import Foundation
import Testing

/// The real reader while another program holds the library's write lock past SQLite's busy
/// timeout (5 s), as a `herald reload` or a sync from cron may (issue 23, item 7): a star
/// the user gives is never undone for it, and is in the library once the lock is let go.
@Suite("The reader and a busy library, in a tmux terminal", .serialized)
struct BusyLibraryEndToEndTests {
    typealias Library = CommandLineTests.Library

    @Test("a star given while another program holds the library past the busy timeout stays, and is saved once it is free")
    func starWhileBusy() async throws {
        let library = Library()
        defer { library.cleanUp() }
        let session = try await library.openReader()
        defer { session.kill() }
        try await session.waitUntil("the feed list is up") { screen in
            screen.contains { $0.contains("1/4 feeds") }
        }
        try session.sendKeys("Enter")
        try await session.waitUntil("the first feed's articles") { screen in
            screen.contains { $0.contains("articles ·") }
        }
        // The sqlite3 tool takes the write lock and keeps it until the test lets go (a file
        // appears; 90 s at most). It waits for the lock (as a `herald reload` from cron
        // would) should the reader be writing at that instant: without `.timeout` its BEGIN
        // fails at once, and nothing holds the lock at all. Held until told, not for a time:
        // on a loaded machine the star must not arrive after a timed hold has ended.
        let marker = library.directory.appendingPathComponent("lock-held").path
        let release = library.directory.appendingPathComponent("lock-release").path
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/bin/sh")
        holder.arguments = [
            "-c",
            "printf '.timeout 20000\\nBEGIN IMMEDIATE;\\n.shell touch %s\\n"
                + ".shell n=0; while [ ! -e %s ] && [ $n -lt 900 ]; do sleep 0.1; n=$((n+1)); done\\nCOMMIT;\\n' "
                + "\"$1\" \"$2\" | sqlite3 \"$0\"",
            library.path, marker, release,
        ]
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        defer { holder.waitUntilExit() }
        // Waits until the lock is held (the holder's marker file is there, and a write that does
        // not wait for the lock fails).
        var held = false
        let deadline = ContinuousClock.now + .seconds(30)
        while !held, ContinuousClock.now < deadline {
            guard FileManager.default.fileExists(atPath: marker) else {
                try await Task.sleep(for: .milliseconds(50))
                continue
            }
            let probe = try Spawn.run(
                ["sqlite3", "-cmd", ".timeout 0", library.path, "BEGIN IMMEDIATE; ROLLBACK;"],
                environment: ProcessInfo.processInfo.environment, timeout: 10)
            held = probe.exitStatus != 0
            if !held { try await Task.sleep(for: .milliseconds(50)) }
        }
        try #require(held, "sqlite3 never took the write lock")
        try session.sendKeys("*")
        // Past the busy timeout (5 s) the old reader undid the star ("Could not save the star
        // (undone): the library is busy"); this one says it waits, and keeps the star on screen.
        let waiting = try await session.waitUntil("the reader says it waits", timeout: .seconds(40)) { screen in
            screen.contains { $0.contains("The library is busy") || $0.contains("Could not save") }
        }
        #expect(waiting.contains { $0.contains("N* ") }, "starred on screen:\n\(TmuxSession.framed(waiting))")
        #expect(FileManager.default.createFile(atPath: release, contents: nil))
        let saved = try await session.waitUntil("the star is saved", timeout: .seconds(40)) { screen in
            screen.contains { $0.contains("Saved the star") || $0.contains("Could not save") }
        }
        #expect(
            saved.contains { $0.contains("Saved the star (the library was busy).") },
            "\(TmuxSession.framed(saved))")
        #expect(
            saved.contains { $0.contains("N* ") },
            "starred on screen all along:\n\(TmuxSession.framed(saved))")
        try session.sendKeys("q", "q")
        #expect(try await session.waitForExitStatus() == 0)
        #expect(try library.sqlite("SELECT count(*) FROM articles WHERE starred = 1") == "1")
    }
}
