import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

/// A real process killed with SIGKILL in the middle of a bulk write.
@Suite("Crash safety")
struct CrashSafetyTests {
    /// `herald-bench`, built beside the test bundle.
    static func benchBinary() throws -> URL {
        let candidates = [
            Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .deletingLastPathComponent(),
        ].map { $0.appendingPathComponent("herald-bench") }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else {
            throw CocoaError(
                .fileNoSuchFile,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "herald-bench is not built; run `swift build` first (looked in \(candidates.map(\.path)))"
                ])
        }
        return found
    }

    @Test("SIGKILL mid bulk write leaves a sound database with every read flag set before it")
    func killMidWrite() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let bench = try Self.benchBinary()

        // A library with some articles, a third of them read.
        var readIDs: [String] = []
        var before = 0
        do {
            let store = try await LibraryStore.open(path: library.path)
            try await store.upsertFeed(url: "kept", title: "Kept", siteURL: nil)
            try await store.upsertArticles(
                feedURL: "kept", items: (0..<300).map { item("k\($0)", "Kept \($0)", day: $0) })
            let rows = try await store.articles(inFeed: "kept", page: .first(limit: 300))
            for row in rows.enumerated() where row.offset % 3 == 0 {
                try await store.setRead(true, articleID: row.element.id)
                readIDs.append(row.element.id)
            }
            before = try await store.feedSummaries().reduce(0) { $0 + $1.total }
        }

        // Another process writes many articles; kill it once it has written some.
        let child = Process()
        child.executableURL = bench
        child.arguments = ["populate", "--articles", "500000", "--db", library.path, "--seed", "7"]
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        let deadline = Date().addingTimeInterval(60)
        var grew = false
        while Date() < deadline, child.isRunning {
            try await Task.sleep(for: .milliseconds(100))
            let wal =
                (try? FileManager.default.attributesOfItem(atPath: library.path + "-wal")[.size] as? Int) ?? 0
            if wal > 4_000_000 { grew = true; break }
        }
        #expect(child.isRunning, "the writer should still be writing when it is killed")
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(grew, "the writer wrote some MB before it was killed")

        let store = try await LibraryStore.open(path: library.path)
        #expect(try await store.integrityCheck() == "ok")
        for id in readIDs {
            #expect(try await store.article(id: id).summary.isRead)
        }
        let feeds = try await store.feedSummaries()
        let kept = try #require(feeds.first { $0.feed.url == "kept" })
        #expect(kept.total == 300 && kept.unread == 200)
        let total = feeds.reduce(0) { $0 + $1.total }
        #expect(total >= before)
        // Counts kept by triggers agree with the rows that survived.
        #expect(try await store.integer("SELECT count(*) FROM articles") == Int64(total))
        // The search index agrees too: every surviving article can still be found.
        #expect(try await store.search("Kept", limit: 500).count == 300)
    }
}
