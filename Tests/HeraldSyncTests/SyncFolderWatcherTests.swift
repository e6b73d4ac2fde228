import Foundation
import Synchronization
import Testing

@testable import HeraldSync

/// The folder watcher on a real folder with real inotify: what is news, what is not.
@Suite("Sync folder watcher")
struct SyncFolderWatcherTests {
    /// Counts the signals of a watcher's stream, and whether it has ended.
    final class Signals: Sendable {
        private let state = Mutex((count: 0, ended: false))
        var count: Int { state.withLock { $0.count } }
        var ended: Bool { state.withLock { $0.ended } }

        func listen(to stream: AsyncStream<Void>) -> Task<Void, Never> {
            Task {
                for await _ in stream { state.withLock { $0.count += 1 } }
                state.withLock { $0.ended = true }
            }
        }

        /// Waits (up to five seconds) until `condition` holds.
        func wait(_ what: String, _ condition: @escaping (Signals) -> Bool) async {
            for _ in 0..<500 {
                if condition(self) { return }
                try? await Task.sleep(for: .milliseconds(10))
            }
            Issue.record("waited five seconds for \(what); \(count) signals, ended: \(ended)")
        }
    }

    static func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
    }

    @Test("another device's segment or snapshot is news; this device's own files and temporary files are not")
    func news() async throws {
        let scratch = try Scratch()
        defer { scratch.cleanUp() }
        let folder = try scratch.folder("shared")
        let (own, other, third) = (
            String(repeating: "a", count: 32), String(repeating: "b", count: 32),
            String(repeating: "c", count: 32)
        )
        for device in [own, other] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(device), withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent(".git"), withIntermediateDirectories: true)
        let watcher = SyncFolderWatcher(folder: folder)
        let signals = Signals()
        let listening = signals.listen(to: watcher.changes())
        watcher.refresh(own: own)
        #expect(watcher.watchedFolders == 2, "the folder and the other device's, not this one's nor .git")

        try Self.write("x", to: folder.appendingPathComponent(other).appendingPathComponent("ops-000001.log"))
        await signals.wait("a segment written") { $0.count == 1 }

        // Written, then renamed into place, as Syncthing does: news once it has its name.
        let temporary = folder.appendingPathComponent(other).appendingPathComponent(
            ".syncthing.snapshot-2.tmp")
        try Self.write("x", to: temporary)
        try await Task.sleep(for: .milliseconds(200))
        #expect(signals.count == 1, "a temporary file is not news")
        try FileManager.default.moveItem(
            at: temporary, to: folder.appendingPathComponent(other).appendingPathComponent("snapshot-2"))
        await signals.wait("a snapshot renamed into place") { $0.count == 2 }

        // A device that appears is news, and its files are watched from then on.
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent(third), withIntermediateDirectories: true)
        await signals.wait("a new device's folder") { $0.count == 3 }
        try Self.write("x", to: folder.appendingPathComponent(third).appendingPathComponent("ops-000001.log"))
        await signals.wait("the new device's segment") { $0.count == 4 }

        try Self.write("x", to: folder.appendingPathComponent(own).appendingPathComponent("ops-000001.log"))
        try Self.write(
            "x", to: folder.appendingPathComponent(".git").appendingPathComponent("ops-000001.log"))
        try Self.write("x", to: folder.appendingPathComponent("notes.txt"))
        try await Task.sleep(for: .milliseconds(200))
        #expect(signals.count == 4, "this device's files, .git and other files are not news")

        watcher.stop()
        await signals.wait("the stream's end") { $0.ended }
        _ = await listening.value
        #expect(watcher.watchedFolders == 0, "the thread closed its descriptors")
    }

    @Test("the consumer going away stops the watcher; a folder that is not there gives a stream that waits")
    func endings() async throws {
        let scratch = try Scratch()
        defer { scratch.cleanUp() }
        let watcher = SyncFolderWatcher(folder: try scratch.folder("shared"))
        let listening = Signals().listen(to: watcher.changes())
        #expect(watcher.watchedFolders == 1)
        listening.cancel()
        _ = await listening.value
        for _ in 0..<500 where watcher.watchedFolders != 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(watcher.watchedFolders == 0)

        let missing = SyncFolderWatcher(folder: scratch.url.appendingPathComponent("not-there"))
        let signals = Signals()
        let waiting = signals.listen(to: missing.changes())
        #expect(missing.watchedFolders == 0)
        try await Task.sleep(for: .milliseconds(100))
        #expect(!signals.ended && signals.count == 0)
        missing.stop()
        await signals.wait("the stream's end") { $0.ended }
        _ = await waiting.value
    }
}
