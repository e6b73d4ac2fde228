import Foundation
import HeraldTestSupport
import Testing

/// The podcast queue with the real binary: `e` and `d` in the reader in tmux, a download that
/// a kill interrupts and the next start finishes, the player, and `herald podcasts`.
@Suite("The podcast queue, in a tmux terminal", .serialized)
struct PodcastQueueEndToEndTests {
    typealias Library = CommandLineTests.Library

    /// A library subscribed to the fixture server's podcast `route`, reloaded; and a config
    /// sending episodes to `pods/%n` in the library's folder, played by a script that writes
    /// down what it was given.
    func setUp(_ library: Library, _ server: FixtureServer, route: String) throws -> (config: URL, played: URL) {
        let played = library.directory.appendingPathComponent("played.txt")
        let player = try library.write("#!/bin/sh\nprintf '%s\\n' \"$@\" >> \(HeraldUnderTest.shellQuoted(played.path))\n", to: "player.sh")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: player.path)
        let config = try library.write(
            """
            set download-path "\(library.directory.path)/pods/%n"
            set player "\(player.path)"
            """, to: "config")
        let added = try library.run(["add", server.url(route).absoluteString])
        #expect(added.exitStatus == 0, "\(added.errors)")
        let reloaded = try library.run(["reload", "--quiet"])
        #expect(reloaded.exitStatus == 0, "\(reloaded.errors)")
        return (config, played)
    }

    static func episode(_ count: Int) -> Data { Data((0..<count).map { UInt8($0 % 251) }) }

    @Test("e queues the episode, d shows it downloading with a bar while keys answer, then Enter plays the file")
    func queueAndPlay() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        // 300 KB/s: ten seconds of download for the bar to be seen in (under ASan, at 1 MB/s,
        // it was done before the queue screen showed).
        let (config, played) = try setUp(library, server, route: "/podcast/3000000?rate=300000")
        let session = try await library.openReader(["--config", config.path])
        defer { session.kill() }
        try await session.waitUntil("the podcast feed") { $0.contains { $0.contains("Pod & cast") } }
        try session.sendKeys("Enter")
        try await session.waitUntil("its episode") { $0.contains { $0.contains("Episode of 3000000 bytes") } }
        try session.sendKeys("e")
        let file = library.directory.path + "/pods/Pod & cast/episode.mp3"
        try await session.waitUntil("the episode is queued") { screen in
            screen.contains { $0.contains("Queued “Episode of 3000000 bytes”") }
        }
        try session.sendKeys("d")
        let downloading = try await session.waitUntil("a progress bar") { screen in
            screen.contains { $0.contains("downloading") && $0.contains("[") && $0.contains("%") }
        }
        #expect(downloading.first?.contains("Herald · Podcasts") == true, "\(TmuxSession.framed(downloading))")
        // Keys answer while it downloads: back to the list, the article, and the queue again.
        try session.sendKeys("q", "Enter")
        try await session.waitUntil("the article opens during the download") { screen in
            screen.first?.contains("Episode of 3000000 bytes") == true || screen.contains { $0.contains("Feed:") }
        }
        try session.sendKeys("d")
        let finished = try await session.waitUntil("the episode is finished", timeout: .seconds(120)) { screen in
            screen.contains { $0.contains("finished") && $0.contains("3 MB") }
        }
        #expect(
            finished.contains { $0.contains("…") && $0.hasSuffix("/pods/Pod & cast/episode.mp3") },
            "the status line names the file by its end:\n\(TmuxSession.framed(finished))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Self.episode(3_000_000))
        try session.sendKeys("Enter")
        try await session.waitUntil("it plays") { $0.contains { $0.contains("Playing ") } }
        #expect(try String(contentsOf: played, encoding: .utf8) == file + "\n")
        try await session.waitUntil("it is marked played") { $0.contains { $0.contains("played ") } }
        // The queue, the article, the list, the feeds.
        try session.sendKeys("q", "q", "q", "q")
        #expect(try await session.waitForExitStatus() == 0)
        let rows = try library.jsonLines(["podcasts"])
        #expect(rows.count == 1 && rows.first?["state"] as? String == "played", "\(rows)")
    }

    @Test("a reader killed mid-download leaves a part; the next start goes on from it to a whole file")
    func killedThenResumed() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        // 300 KB/s: 20 s of download, wide enough a window for the kill on a sanitizer's slow
        // machine (at 1.5 MB/s TSan's reader once finished before the kill landed).
        let (config, _) = try setUp(library, server, route: "/podcast/6000000?rate=300000")
        let id = try #require(try library.jsonLines(["list"]).first?["id"] as? String)
        let queued = try library.run(["podcasts", "add", id, "--config", config.path])
        #expect(queued.exitStatus == 0, "\(queued.errors)")
        let first = try await library.openReader(["--config", config.path])
        let file = library.directory.path + "/pods/Pod & cast/episode.mp3"
        // The reader starts the queue by itself: wait for some bytes, then kill it.
        let deadline = ContinuousClock.now + .seconds(90)
        while (try? FileManager.default.attributesOfItem(atPath: file + ".part")[.size] as? Int ?? 0) ?? 0 < 1_000_000,
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(50))
        }
        let pid = try #require(HeraldUnderTest.childPID(of: try first.panePID()))
        kill(pid, SIGKILL)
        first.kill()
        let rows = try library.jsonLines(["podcasts"])
        let row = try #require(rows.first)
        #expect(row["state"] as? String == "downloading", "a killed download is left as it was: \(row)")
        let kept = try #require(row["received"] as? Int)
        #expect(kept >= 1_000_000 && kept < 6_000_000, "\(row)")
        // The part's head made unlike the server's: a resume keeps it, a download from the
        // start would not.
        let part = try FileHandle(forWritingTo: URL(fileURLWithPath: file + ".part"))
        try part.write(contentsOf: Data(repeating: 0xEE, count: 16))
        try part.close()

        let second = try await library.openReader(["--config", config.path])
        defer { second.kill() }
        try await second.waitUntil("the feed list") { $0.first?.contains("Herald · Feeds") == true }
        try second.sendKeys("d")
        try await second.waitUntil("it goes on and finishes", timeout: .seconds(120)) { screen in
            screen.contains { $0.contains("finished") && $0.contains("6 MB") }
        }
        var expected = Self.episode(6_000_000)
        expected.replaceSubrange(0..<16, with: Data(repeating: 0xEE, count: 16))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == expected, "resumed from where the kill left it")
        try second.sendKeys("q", "q")
        #expect(try await second.waitForExitStatus() == 0)
    }

    @Test("herald podcasts: add, download and list; a hostile title and address stay inside the folder")
    func commandLine() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        let (config, _) = try setUp(library, server, route: "/podcast-hostile")
        let id = try #require(try library.jsonLines(["list"]).first?["id"] as? String)
        let added = try library.run(["podcasts", "add", id, "--config", config.path])
        #expect(added.exitStatus == 0, "\(added.errors)")
        #expect(!added.output.contains("\u{1B}"), "no escape reaches the terminal: \(added.output)")
        let again = try library.run(["podcasts", "add", id, "--config", config.path])
        #expect(again.output.contains("already queued"), "\(again.output)")
        let downloaded = try library.run(["podcasts", "download", "--config", config.path])
        #expect(downloaded.exitStatus == 0, "\(downloaded.errors)")
        #expect(downloaded.errors.contains("finished"), "\(downloaded.errors)")
        let row = try #require(try library.jsonLines(["podcasts"]).first)
        #expect(row["state"] as? String == "finished" && row["received"] as? Int == 1000, "\(row)")
        let path = try #require(row["path"] as? String)
        #expect(path == library.directory.path + "/pods/Pod & cast/bashrc", "\(path)")
        // Nothing was written anywhere else: the folder holds the library, the config, the
        // player, and the one episode.
        let everything = FileManager.default.enumerator(atPath: library.directory.path)?.allObjects as? [String] ?? []
        #expect(everything.filter { !$0.hasPrefix("lib") }.sorted() == ["config", "player.sh", "pods", "pods/Pod & cast", "pods/Pod & cast/bashrc"])
        let missing = try library.run(["podcasts", "add", "999999"])
        #expect(missing.exitStatus == 1 && missing.errors.contains("no article 999999"), "\(missing.errors)")
    }
}
