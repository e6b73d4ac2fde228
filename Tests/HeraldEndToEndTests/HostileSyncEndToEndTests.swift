import Foundation
import HeraldTestSupport
import Testing

/// The real reader (the release binary in CI: `make test-release`) with `set sync-dir` on a
/// folder another device has written hostile files into: it keeps running, keys keep
/// working, and `q` quits.
@Suite("A hostile sync folder under the open reader", .serialized)
struct HostileSyncEndToEndTests {
    typealias Library = CommandLineTests.Library
    static let partner = "00000000000000cc00000000000000cc"

    /// A library with the demo feeds and a config whose `sync-dir` is a folder holding the
    /// partner's folder, with `files` (name → bytes) in it.
    struct Setup {
        let library = Library()
        let folder: URL
        let config: URL

        init(files: [String: [UInt8]]) throws {
            folder = library.directory.appendingPathComponent("shared")
            let partner = folder.appendingPathComponent(HostileSyncEndToEndTests.partner)
            try FileManager.default.createDirectory(at: partner, withIntermediateDirectories: true)
            for (name, bytes) in files {
                try Data(bytes).write(to: partner.appendingPathComponent(name))
            }
            #expect(try library.run(["list", "--limit", "1"]).exitStatus == 0)
            config = try library.write("set sync-dir \"\(folder.path)\"\n", to: "config")
        }

        func openReader() async throws -> TmuxSession {
            let session = try await library.openReader(["--config", config.path])
            try await session.waitUntil("the reader shows the feed list") { screen in
                screen.contains { $0.contains("All articles") }
            }
            return session
        }
    }

    /// A sync record line, as Herald writes one: `CRC STAMP\tKIND\tVALUE\tURL\tGUID\n`.
    static func record(milliseconds: Int, kind: String, value: String, url: String, guid: String = "") -> String {
        let body = "\(milliseconds).0\t\(kind)\t\(value)\t\(url)\t\(guid)"
        let hex = String(crc32(Array(body.utf8)), radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex + " " + body + "\n"
    }

    /// CRC-32 (zlib's), bit by bit: the test writes a few lines.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    @Test("a snapshot named snapshot-9223372036854775807 (a valid header and end) does not bring the reader down")
    func hugeSnapshotNumber() async throws {
        let snapshot = "herald-sync 1\n" + Self.record(milliseconds: 1, kind: "end", value: "0", url: "")
        let setup = try Setup(files: ["snapshot-9223372036854775807": Array(snapshot.utf8)])
        defer { setup.library.cleanUp() }
        let session = try await setup.openReader()
        defer { session.kill() }
        // The first sync runs at start; the old reader died of it (SIGILL) within seconds.
        try await Task.sleep(for: .seconds(4))
        try session.sendKeys("j")
        let screen = try await session.waitUntil("the reader still answers keys") { screen in
            screen.contains { $0.hasPrefix(">") && !$0.contains("All articles") }
                || TmuxSession.exitStatus(in: screen) != nil
        }
        #expect(TmuxSession.exitStatus(in: screen) == nil, "the reader ended:\n\(screen.joined(separator: "\n"))")
        try session.sendKeys("q")
        #expect(try await session.waitForExitStatus() == 0)
        // What it refused was said (the sync runs again at the end).
        let problems = try setup.library.run(["sync", "--dir", setup.folder.path])
        #expect(problems.errors.contains("snapshot-9223372036854775807: not a number"), "\(problems.errors)")
    }

    @Test("a subscription to file:///dev/tty from the partner is refused: after R, keys still reach the reader")
    func deviceSubscription() async throws {
        let lines =
            "herald-sync 1\n"
            + Self.record(milliseconds: 1_700_000_000_000, kind: "sub", value: "1", url: "file:///dev/tty")
        let setup = try Setup(files: ["ops-000001.log": Array(lines.utf8)])
        defer { setup.library.cleanUp() }
        let session = try await setup.openReader()
        defer { session.kill() }
        // The first sync at start takes the partner's files (the old reader subscribed).
        try await Task.sleep(for: .seconds(3))
        try session.sendKeys("R")
        try await Task.sleep(for: .seconds(1))
        // The old reader's reload read the terminal: the q never reached it.
        try session.sendKeys("q")
        #expect(try await session.waitForExitStatus(timeout: .seconds(10)) == 0)
        #expect(try setup.library.sqlite("SELECT count(*) FROM feeds WHERE url LIKE 'file:%'") == "0")
        let problems = try setup.library.run(["sync", "--dir", setup.folder.path])
        #expect(problems.errors.isEmpty, "refused once, in the reader: \(problems.errors)")
    }

    @Test(
        "every forgery at once (names, numbers, sizes, links, a FIFO, file: feeds): the reader runs, the library stays whole, an honest device's stars arrive"
    )
    func everyForgeryAtOnce() async throws {
        let machines = try SyncInTheReaderTests.Machines()
        defer { machines.cleanUp() }
        // The hostile partner's folder, beside the two honest ones.
        let hostile = machines.folder.appendingPathComponent(Self.partner)
        try FileManager.default.createDirectory(at: hostile, withIntermediateDirectories: true)
        let end = Self.record(milliseconds: 1, kind: "end", value: "0", url: "")
        let files: [String: String] = [
            "snapshot-9223372036854775807": "herald-sync 1\n" + end,
            "ops-+00001.log": "herald-sync 1\n" + end,
            "ops-000001.log": "herald-sync 1\n"
                + Self.record(milliseconds: 1_700_000_000_000, kind: "sub", value: "1", url: "file:///dev/tty")
                + Self.record(milliseconds: 1_700_000_000_001, kind: "sub", value: "1", url: "file:///etc/passwd")
                + Self.record(
                    milliseconds: (1 << 46) - 1, kind: "star", value: "0", url: SyncInTheReaderTests.feed, guid: "x")
                + String(repeating: "z", count: 2 << 20),
        ]
        for (name, text) in files { try Data(text.utf8).write(to: hostile.appendingPathComponent(name)) }
        try FileManager.default.createSymbolicLink(
            atPath: hostile.appendingPathComponent("ops-000002.log").path, withDestinationPath: "/dev/zero")
        #expect(mkfifo(hostile.appendingPathComponent("ops-000003.log").path, 0o644) == 0)
        try FileManager.default.createSymbolicLink(
            atPath: machines.folder.appendingPathComponent("00000000000000dd00000000000000dd").path,
            withDestinationPath: "/etc")
        let session = try await machines.openReader()
        defer { session.kill() }
        try await Task.sleep(for: .seconds(2))
        // The honest library stars every Hangul article and syncs.
        try machines.there.sqlite(
            "UPDATE articles SET starred = 1 WHERE feed_id = (SELECT id FROM feeds WHERE url = '\(SyncInTheReaderTests.feed)')")
        try machines.sync(machines.there)
        try session.sendKeys("j")
        try await Task.sleep(for: .seconds(3))
        try session.sendKeys("q")
        #expect(try await session.waitForExitStatus(timeout: .seconds(10)) == 0)
        let here = machines.here
        #expect(try here.sqlite("PRAGMA integrity_check") == "ok")
        #expect(try here.sqlite("SELECT count(*) FROM feeds WHERE url NOT LIKE 'http%'") == "0")
        #expect(
            try here.sqlite("SELECT count(*) FROM articles WHERE starred = 1")
                == String(CommandLineTests.Demo.hangulArticles), "the honest device's stars arrived")
    }

    @Test(
        "a flag or subscription whose value is not 1 or 0 (maybe) is refused as a bad record, not read as 0")
    func flagValues() throws {
        let library = Library()
        defer { library.cleanUp() }
        #expect(try library.run(["list", "--limit", "1"]).exitStatus == 0)
        let feed = CommandLineTests.Demo.hangul
        let guid = try library.sqlite(
            "SELECT guid FROM articles WHERE feed_id = (SELECT id FROM feeds WHERE url = '\(feed)') ORDER BY id LIMIT 1"
        )
        try library.sqlite("UPDATE articles SET read = 1, starred = 1 WHERE guid = '\(guid)'")
        let folder = library.directory.appendingPathComponent("shared")
        let partner = folder.appendingPathComponent(Self.partner)
        try FileManager.default.createDirectory(at: partner, withIntermediateDirectories: true)
        // Stamped now: later than anything this library holds, so a value taken would win.
        let now = Int(Date().timeIntervalSince1970 * 1000)
        let lines =
            "herald-sync 1\n"
            + Self.record(milliseconds: now, kind: "read", value: "maybe", url: feed, guid: guid)
            + Self.record(milliseconds: now, kind: "star", value: "", url: feed, guid: guid)
            + Self.record(milliseconds: now, kind: "sub", value: "maybe", url: feed)
        try Data(lines.utf8).write(to: partner.appendingPathComponent("ops-000001.log"))

        let synced = try library.run(["sync", "--dir", folder.path])
        #expect(synced.exitStatus == 0, "\(synced.errors)")
        #expect(
            synced.errors.contains("3 corrupt records skipped")
                && synced.errors.contains("bad value for read: 'maybe'"),
            "\(synced.errors)")
        #expect(try library.sqlite("SELECT read || starred FROM articles WHERE guid = '\(guid)'") == "11")
        #expect(
            try library.sqlite("SELECT count(*) FROM feeds WHERE url = '\(feed)'") == "1", "still subscribed")
    }

    @Test("a FIFO or a device given as a file: feed is refused by the reload without waiting on it")
    func fifoFeed() throws {
        let library = Library()
        defer { library.cleanUp() }
        #expect(try library.run(["list", "--limit", "1"]).exitStatus == 0)
        let typed = try library.run(["add", "file:///dev/tty"])
        #expect(typed.exitStatus != 0)
        #expect(typed.errors.contains("a device is not a feed"), "\(typed.errors)")
        let fifo = library.directory.appendingPathComponent("feed.fifo")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        #expect(try library.run(["add", "file://" + fifo.path]).exitStatus == 0)
        let started = Date()
        let reload = try library.run(["reload"], timeout: 20)
        #expect(Date().timeIntervalSince(started) < 10, "the reload waited on the FIFO")
        #expect(reload.output.contains("not a regular file"), "\(reload.output) \(reload.errors)")
    }
}
