import Foundation
import HeraldTestSupport
import Synchronization
import Testing

@testable import HeraldFetch

/// An episode streamed to disk from the fixture server, whose episodes have byte i = i % 251:
/// whole, resumed, refused, cut, cancelled, and onto a full disk.
@Suite("Downloading an episode", .serialized)
struct EpisodeDownloadTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-episode-\(UUID().uuidString)")

    func withServer(_ body: (FixtureServer) async throws -> Void) async throws {
        let server = try FixtureServer()
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        try await body(server)
    }

    /// The first `count` bytes of every fixture episode.
    static func expected(_ count: Int) -> Data { Data((0..<count).map { UInt8($0 % 251) }) }

    static func contents(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func path(_ name: String = "episode.mp3") -> String { folder.appendingPathComponent(name).path }

    func run(_ server: FixtureServer, _ route: String, to file: String, limits: EpisodeDownload.Limits = .init())
        async -> EpisodeDownload.Outcome
    {
        let url = server.url(route).absoluteString
        return await Task.detached { EpisodeDownload.run(url: url, to: file, limits: limits) }.value
    }

    @Test("an episode arrives whole under its name, through its part file, its progress told")
    func whole() async throws {
        try await withServer { server in
            let heard = Mutex<[Int64]>([])
            let url = server.url("/episode/3000000/a.mp3").absoluteString
            let file = path("shows/deep/a.mp3")
            let outcome = await Task.detached {
                EpisodeDownload.run(url: url, to: file, progress: { received, total in
                    heard.withLock { $0.append(received) }
                    #expect(total == 3_000_000)
                })
            }.value
            #expect(outcome == .finished(bytes: 3_000_000))
            let written = try Self.contents(file)
            #expect(written == Self.expected(3_000_000))
            #expect(!FileManager.default.fileExists(atPath: file + ".part"))
            let counts = heard.withLock { $0 }
            #expect(counts.count > 3, "progress told as it came: \(counts.count) times")
            #expect(counts == counts.sorted() && counts.last == 3_000_000)
        }
    }

    @Test("a part left by an earlier try is resumed with a Range: only the rest is asked for")
    func resumes() async throws {
        try await withServer { server in
            let file = path()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // The part holds the right first 1 MB; what a resume asks for is the rest, which
            // the server sends from byte 1,000,000 (a 206): bytes from 0 again would not match.
            try Self.expected(1_000_000).write(to: URL(fileURLWithPath: file + ".part"))
            let counts = Mutex<[Int64]>([])
            let url = server.url("/episode/2500000/e.mp3").absoluteString
            let outcome = await Task.detached {
                EpisodeDownload.run(url: url, to: file, progress: { received, _ in counts.withLock { $0.append(received) } })
            }.value
            #expect(outcome == .finished(bytes: 2_500_000))
            let written = try Self.contents(file)
            #expect(written == Self.expected(2_500_000))
            #expect((counts.withLock { $0.first } ?? 0) > 1_000_000, "counted on from the part's end")
        }
    }

    @Test("a server that ignores the Range sends it all, and the part is replaced, not appended to")
    func ignoredRange() async throws {
        try await withServer { server in
            let file = path()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(repeating: 0xEE, count: 700_000).write(to: URL(fileURLWithPath: file + ".part"))
            let outcome = await run(server, "/episode/1200000/e.mp3?norange", to: file)
            #expect(outcome == .finished(bytes: 1_200_000))
            let written = try Self.contents(file)
            #expect(written == Self.expected(1_200_000))
        }
    }

    @Test("a part as long as the file (killed before it was named) is finished by the server's 416")
    func alreadyWhole() async throws {
        try await withServer { server in
            let file = path()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Self.expected(400_000).write(to: URL(fileURLWithPath: file + ".part"))
            #expect(await run(server, "/episode/400000/e.mp3", to: file) == .finished(bytes: 400_000))
            let written = try Self.contents(file)
            #expect(written == Self.expected(400_000))
        }
    }

    @Test("a part longer than the file the server has now (416) starts over: the file is that file, no more")
    func startsOver() async throws {
        try await withServer { server in
            let file = path()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(repeating: 0xEE, count: 500_000).write(to: URL(fileURLWithPath: file + ".part"))
            #expect(await run(server, "/episode/400000/e.mp3", to: file) == .finished(bytes: 400_000))
            let written = try Self.contents(file)
            #expect(written.count == 400_000 && written == Self.expected(400_000))
        }
    }

    @Test("a resume names the file its part began (If-Range): a file changed since is fetched whole, not spliced")
    func ifRange() async throws {
        try await withServer { server in
            let file = path()
            // The first try is cut; the server's file then changes (another ETag, other bytes).
            let cut = await run(server, "/episode/800000/e.mp3?etag=one&cut=300000", to: file)
            guard case .failed(_, let kept) = cut else {
                Issue.record("not cut: \(cut)")
                return
            }
            #expect(kept == 300_000)
            #expect(await run(server, "/episode/800000/e.mp3?etag=two&shift=7", to: file) == .finished(bytes: 800_000))
            let written = try Self.contents(file)
            #expect(written == Data((0..<800_000).map { UInt8(($0 + 7) % 251) }), "the new file, whole")
            // The same file again is resumed, not fetched whole: its head is kept.
            let other = path("other.mp3")
            _ = await run(server, "/episode/800000/o.mp3?etag=one&cut=300000", to: other)
            var part = try Self.contents(other + ".part")
            part.replaceSubrange(0..<8, with: Data(repeating: 0xEE, count: 8))
            try part.write(to: URL(fileURLWithPath: other + ".part"))
            #expect(await run(server, "/episode/800000/o.mp3?etag=one", to: other) == .finished(bytes: 800_000))
            let resumed = try Self.contents(other)
            #expect(resumed.prefix(8) == Data(repeating: 0xEE, count: 8) && resumed.dropFirst(8) == Self.expected(800_000).dropFirst(8))
        }
    }

    @Test("an empty answer is no episode")
    func empty() async throws {
        try await withServer { server in
            let file = path()
            #expect(await run(server, "/episode/0/e.mp3", to: file) == .failed("the server sent nothing", kept: 0))
            #expect(!FileManager.default.fileExists(atPath: file))
        }
    }

    @Test("a connection cut midway fails with the bytes kept; the next try finishes from there")
    func cutThenResumed() async throws {
        try await withServer { server in
            let file = path()
            let first = await run(server, "/episode/2000000/e.mp3?cut=1500000", to: file)
            guard case .failed(let why, let kept) = first else {
                Issue.record("a cut download did not fail: \(first)")
                return
            }
            #expect(kept == 1_500_000, "\(why)")
            #expect(!FileManager.default.fileExists(atPath: file))
            #expect(await run(server, "/episode/2000000/e.mp3", to: file) == .finished(bytes: 2_000_000))
            let written = try Self.contents(file)
            #expect(written == Self.expected(2_000_000))
        }
    }

    @Test("an HTTP error is said with its status, and leaves no file")
    func status() async throws {
        try await withServer { server in
            let file = path()
            #expect(await run(server, "/status/404", to: file) == .failed("the server answered 404", kept: 0))
            #expect(!FileManager.default.fileExists(atPath: file))
        }
    }

    @Test("a redirect to file: is refused, and only http and https are asked for")
    func schemes() async throws {
        try await withServer { server in
            let file = path()
            guard case .failed(let why, _) = await run(server, "/to/file", to: file) else {
                Issue.record("a redirect to file: was followed")
                return
            }
            #expect(why.contains("redirect"), "\(why)")
            let local = await Task.detached { EpisodeDownload.run(url: "file:///etc/passwd", to: file) }.value
            guard case .failed(let refusal, _) = local else {
                Issue.record("a file: episode was read")
                return
            }
            #expect(refusal.contains("only http and https"))
            #expect(!FileManager.default.fileExists(atPath: file))
        }
    }

    @Test("an episode larger than the limit is refused by its length, or stopped when it has none")
    func tooLarge() async throws {
        try await withServer { server in
            var limits = EpisodeDownload.Limits()
            limits.maxBytes = 1 << 20
            let declared = await run(server, "/episode/3000000/e.mp3", to: path("a.mp3"), limits: limits)
            guard case .failed(let why, _) = declared else {
                Issue.record("an episode over the limit was taken: \(declared)")
                return
            }
            #expect(why.contains("over the 1 MB limit"), "\(why)")
            let undeclared = await run(server, "/episode/3000000/e.mp3?nolength", to: path("b.mp3"), limits: limits)
            guard case .failed(let grew, let kept) = undeclared else {
                Issue.record("an episode without a length grew past the limit: \(undeclared)")
                return
            }
            #expect(grew.contains("grew past") && kept <= 1 << 20, "\(grew), \(kept)")
        }
    }

    @Test("a cancel stops it, keeping what arrived for a resume")
    func cancel() async throws {
        try await withServer { server in
            let file = path()
            let stop = Atomic<Bool>(false)
            let url = server.url("/episode/5000000/e.mp3?rate=500000").absoluteString
            let outcome = await Task.detached {
                EpisodeDownload.run(
                    url: url, to: file, progress: { received, _ in if received > 100_000 { stop.store(true, ordering: .relaxed) } },
                    isCancelled: { stop.load(ordering: .relaxed) })
            }.value
            guard case .cancelled(let kept) = outcome else {
                Issue.record("not cancelled: \(outcome)")
                return
            }
            #expect(kept > 100_000 && kept < 5_000_000)
            let written = try Self.contents(file + ".part")
            #expect(written == Self.expected(Int(kept)))
        }
    }

    @Test("a full disk (ENOSPC from /dev/full) is a clear error naming the bytes kept for a resume")
    func fullDisk() async throws {
        try await withServer { server in
            let fd = open("/dev/full", O_WRONLY)
            try #require(fd >= 0)
            defer { close(fd) }
            let url = server.url("/episode/300000/e.mp3").absoluteString
            let attempt = await Task.detached {
                EpisodeDownload.transfer(
                    url: url, fd: fd, label: "/podcasts/e.mp3.part", offset: 0, limits: .init(), progress: { _, _ in },
                    isCancelled: { false })
            }.value
            guard case .stopped(.failed(let why, let kept)) = attempt else {
                Issue.record("a write onto a full disk did not fail: \(attempt)")
                return
            }
            #expect(why.hasPrefix("the disk is full"), "\(why)")
            #expect(why.contains("kept in /podcasts/e.mp3.part for a resume"), "\(why)")
            #expect(kept == 0)
        }
    }

    @Test("a part another process is writing (locked) is left to it: nothing is written here")
    func lockedElsewhere() async throws {
        try await withServer { server in
            let file = path()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Self.expected(1000).write(to: URL(fileURLWithPath: file + ".part"))
            // The other process's lock (flock locks belong to the open file: a second open in
            // this process contends as another process would). O_CLOEXEC: a child another
            // test spawns meanwhile would inherit the descriptor, and the lock with it, past
            // the close below (the second download found the part still locked, now and then).
            let other = open(file + ".part", O_RDWR | O_CLOEXEC)
            try #require(other >= 0 && flock(other, LOCK_EX | LOCK_NB) == 0)
            #expect(await run(server, "/episode/5000/e.mp3", to: file) == .elsewhere)
            let untouched = try Self.contents(file + ".part")
            #expect(untouched == Self.expected(1000))
            close(other)
            #expect(await run(server, "/episode/5000/e.mp3", to: file) == .finished(bytes: 5000))
        }
    }

    @Test("a link planted where the part goes is not written through")
    func plantedLink() async throws {
        try await withServer { server in
            let file = path()
            let victim = folder.appendingPathComponent("victim")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("keep me".utf8).write(to: victim)
            try FileManager.default.createSymbolicLink(atPath: file + ".part", withDestinationPath: victim.path)
            guard case .failed = await run(server, "/episode/1000/e.mp3", to: file) else {
                Issue.record("wrote through a link")
                return
            }
            #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me")
        }
    }
}
