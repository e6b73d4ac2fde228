import Foundation
import HeraldCore
import HeraldStore
import HeraldTestSupport
import Testing

@testable import HeraldReload

/// The podcast queue in a real library, downloading from the fixture server: slots, names,
/// resumes, removals, and an idle queue that stays quiet.
@Suite("The podcast queue", .serialized)
struct PodcastQueueTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-queue-\(UUID().uuidString)")

    func withQueue(maxDownloads: Int = 1, _ body: (FixtureServer, PodcastDownloads, LibraryStore) async throws -> Void)
        async throws
    {
        let server = try FixtureServer()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer {
            server.stop()
            try? FileManager.default.removeItem(at: directory)
        }
        let store = try await LibraryStore.open(path: directory.appendingPathComponent("h.db").path)
        try await body(server, PodcastDownloads(store: store, maxDownloads: maxDownloads), store)
    }

    func request(_ server: FixtureServer, _ route: String, name: String = "episode.mp3") -> DownloadRequest {
        DownloadRequest(
            url: server.url(route).absoluteString, path: directory.appendingPathComponent("pods/\(name)").path,
            title: "Episode \(route)", feedTitle: "Pod")
    }

    func added(_ outcome: EnqueueOutcome) throws -> Download {
        guard case .added(let entry) = outcome else { throw CancellationError() }
        return entry
    }

    /// Polls the entries until `done` holds (at most 30 s), returning each look.
    func watch(_ queue: PodcastDownloads, until done: ([Download]) -> Bool) async throws -> [[Download]] {
        var looks: [[Download]] = []
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let entries = try await queue.entries()
            looks.append(entries)
            if done(entries) { return looks }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("the queue never got there: \(looks.last ?? [])")
        return looks
    }

    @Test("with max-downloads 1, two episodes download one after the other, each whole")
    func oneAtATime() async throws {
        try await withQueue { server, queue, _ in
            // The first takes 2 s: a look sees the second wait for it.
            let first = try added(try await queue.enqueue(request(server, "/episode/300000/a.mp3?rate=150000", name: "a.mp3")))
            let second = try added(try await queue.enqueue(request(server, "/episode/600000/b.mp3", name: "b.mp3")))
            let looks = try await watch(queue) { $0.allSatisfy { $0.state == .finished } }
            #expect(looks.allSatisfy { look in look.count { $0.state == .downloading } <= 1 })
            #expect(looks.contains { look in look.contains { $0.id == second.id && $0.state == .queued } })
            for (entry, size) in [(first, 300_000), (second, 600_000)] {
                let data = try Data(contentsOf: URL(fileURLWithPath: entry.path))
                #expect(data == Data((0..<size).map { UInt8($0 % 251) }))
            }
        }
    }

    @Test("two episodes named alike go to two files; the same address is queued once")
    func names() async throws {
        try await withQueue { server, queue, _ in
            let one = try added(try await queue.enqueue(request(server, "/episode/1000/x.mp3")))
            let two = try added(try await queue.enqueue(request(server, "/episode/2000/x.mp3")))
            #expect(one.path.hasSuffix("/pods/episode.mp3"))
            #expect(two.path.hasSuffix("/pods/episode (2).mp3"))
            guard case .alreadyQueued(let known) = try await queue.enqueue(request(server, "/episode/1000/x.mp3")) else {
                Issue.record("queued twice")
                return
            }
            #expect(known.id == one.id)
            _ = try await watch(queue) { $0.allSatisfy { $0.state == .finished } }
            #expect(FileManager.default.fileExists(atPath: one.path) && FileManager.default.fileExists(atPath: two.path))
        }
    }

    @Test("episodes queued at once that would share a name get two names, never one file")
    func namesAtOnce() async throws {
        try await withQueue { server, queue, _ in
            let (first, second) = (request(server, "/status/404?a"), request(server, "/status/404?b"))
            async let one = queue.enqueue(first)
            async let two = queue.enqueue(second)
            let paths = try await [one, two].map { outcome -> String in
                switch outcome {
                case .added(let entry), .alreadyQueued(let entry): entry.path
                }
            }
            #expect(Set(paths).count == 2, "\(paths)")
        }
    }

    @Test("a download a killed process left behind goes on from its part when the queue resumes")
    func resumesAfterAKill() async throws {
        try await withQueue { server, _, store in
            // What a reader killed midway leaves: the entry downloading, and a part of 300 KB.
            let quiet = PodcastDownloads(store: store, maxDownloads: 1, automatic: false)
            let entry = try added(try await quiet.enqueue(request(server, "/episode/900000/k.mp3")))
            try await store.setDownloadState(id: entry.id, .downloading)
            try FileManager.default.createDirectory(
                atPath: (entry.path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            // Its first bytes are not the server's: a resume keeps them, a download from the
            // start would not (how the test tells the two apart).
            var part = Data((0..<300_000).map { UInt8($0 % 251) })
            part.replaceSubrange(0..<16, with: Data(repeating: 0xEE, count: 16))
            try part.write(to: URL(fileURLWithPath: entry.partPath))
            let next = PodcastDownloads(store: store, maxDownloads: 1)
            try await next.resume()
            await next.waitUntilIdle()
            let after = try #require(try await next.entries().first)
            #expect(after.state == .finished)
            #expect(after.received == 900_000)
            var expected = Data((0..<900_000).map { UInt8($0 % 251) })
            expected.replaceSubrange(0..<16, with: Data(repeating: 0xEE, count: 16))
            let data = try Data(contentsOf: URL(fileURLWithPath: entry.path))
            #expect(data == expected, "resumed from byte 300,000, the part's head kept")
        }
    }

    @Test("a cancel keeps the part; d goes on from it")
    func cancelThenDownload() async throws {
        try await withQueue { server, queue, _ in
            // 100 KB/s: 30 s to the end, so the cancel lands midway however slow the machine.
            let entry = try added(try await queue.enqueue(request(server, "/episode/3000000/c.mp3?rate=100000")))
            _ = try await watch(queue) { $0.first?.received ?? 0 > 100_000 }
            #expect(try await queue.cancel(id: entry.id))
            let stopped = try await watch(queue) { $0.first?.state == .cancelled }
            let kept = stopped.last?.first?.received ?? 0
            #expect(kept > 100_000 && kept < 3_000_000)
            #expect(FileManager.default.fileExists(atPath: entry.partPath))
            #expect(try await !queue.cancel(id: entry.id), "nothing left to stop")
            try await queue.download(id: entry.id)
            _ = try await watch(queue) { $0.first?.state == .downloading }
            // c then d at once: the d waits for the stop, then goes on.
            #expect(try await queue.cancel(id: entry.id))
            try await queue.download(id: entry.id)
            _ = try await watch(queue) { $0.first?.state == .cancelled || $0.first?.state == .downloading }
            let again = try await watch(queue) { $0.first?.state == .downloading && ($0.first?.received ?? 0) > kept }
            #expect(again.last?.first?.state == .downloading, "the d after a c was not dropped")
            try await queue.remove(id: entry.id, deletingFile: false)
            _ = try await watch(queue) { $0.isEmpty }
            await queue.waitUntilIdle()
            #expect(!FileManager.default.fileExists(atPath: entry.partPath), "a removed download's part goes")
        }
    }

    @Test("removing or purging a finished episode keeps its file unless asked; played ones purge too")
    func removeAndPurge() async throws {
        try await withQueue(maxDownloads: 3) { server, queue, _ in
            let kept = try added(try await queue.enqueue(request(server, "/episode/1000/1.mp3", name: "1.mp3")))
            let deleted = try added(try await queue.enqueue(request(server, "/episode/1000/2.mp3", name: "2.mp3")))
            let played = try added(try await queue.enqueue(request(server, "/episode/1000/3.mp3", name: "3.mp3")))
            let unheard = try added(try await queue.enqueue(request(server, "/episode/1000/4.mp3", name: "4.mp3")))
            _ = try await watch(queue) { $0.count == 4 && $0.allSatisfy { $0.state == .finished } }
            // A downloaded episode never played keeps its file whatever delete-played-files says.
            try await queue.remove(id: kept.id, deletingFile: true)
            #expect(FileManager.default.fileExists(atPath: kept.path))
            try await queue.setPlayed(true, id: deleted.id)
            try await queue.remove(id: deleted.id, deletingFile: true)
            #expect(!FileManager.default.fileExists(atPath: deleted.path))
            // Purge takes the played ones only, their files staying unless asked.
            try await queue.setPlayed(true, id: played.id)
            #expect(try await queue.purge(deletingFiles: true) == 1)
            #expect(try await queue.entries().map(\.id) == [unheard.id])
            #expect(!FileManager.default.fileExists(atPath: played.path))
            #expect(FileManager.default.fileExists(atPath: unheard.path))
        }
    }

    @Test("a failed download says why; an idle queue tells of no change")
    func failureAndQuiet() async throws {
        try await withQueue { server, queue, _ in
            let changes = await queue.changes()
            let counter = Task {
                var count = 0
                for await _ in changes { count += 1 }
                return count
            }
            _ = try await queue.enqueue(request(server, "/status/404"))
            let looks = try await watch(queue) { $0.first?.state == .failed }
            #expect(looks.last?.first?.error == "the server answered 404")
            await queue.waitUntilIdle()
            try await Task.sleep(for: .milliseconds(300))
            counter.cancel()
            let heard = await counter.value
            #expect(heard >= 2, "queued, downloading and failed were told: \(heard)")
            // Queued, downloading, failed: a few, not a tick every quarter second for ever.
            let before = heard
            let again = await queue.changes()
            let idle = Task {
                var count = 0
                for await _ in again { count += 1 }
                return count
            }
            try await Task.sleep(for: .seconds(1))
            idle.cancel()
            #expect(await idle.value == 0, "an idle queue is silent (it told of \(before) changes while it worked)")
        }
    }
}
