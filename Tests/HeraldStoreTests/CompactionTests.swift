import Foundation
import Synchronization
import HeraldCore
import Testing

@testable import HeraldStore

/// Found in review of schema 6: leaving WAL to change the page size failed, and stopped
/// the library from opening, while another connection had it open.
@Suite("Compacting an older library")
struct CompactionTests {
    @Test("a library with 4 KB pages still opens while another connection has it open")
    func compactionDoesNotStopOpening() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        try SQLiteConnection(path: library.path).execute(
            "PRAGMA page_size = 4096; CREATE TABLE t(x); DROP TABLE t;")
        // Another Herald (the reader, or a cron `herald reload`) has the library open.
        let other = try await LibraryStore.open(path: library.path, upTo: 5)
        #expect(await other.schemaVersion == 5)
        do {
            let store = try await LibraryStore.open(path: library.path)
            #expect(await store.schemaVersion == Migrations.latest)
        } catch {
            Issue.record("the library did not open: \(error)")
        }
        _ = other
    }
}

@Suite("Upgrading a library")
struct UpgradeNoticeTests {
    @Test(
        "opening an older library says it is being upgraded, from which schema to which; a new one says nothing"
    )
    func upgradeIsAnnounced() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let heard = Heard()
        _ = try await LibraryStore.open(path: library.path, upTo: 5)
        _ = try await LibraryStore.open(path: library.path) { from, to in heard.add(from, to) }
        #expect(heard.calls == [[5, Migrations.latest]])

        let fresh = try TemporaryLibrary()
        defer { fresh.cleanUp() }
        let silent = Heard()
        _ = try await LibraryStore.open(path: fresh.path) { from, to in silent.add(from, to) }
        #expect(silent.calls.isEmpty)
    }
}

/// The calls a callback heard, from any thread.
final class Heard: Sendable {
    private let state = Mutex<[[Int]]>([])
    func add(_ from: Int, _ to: Int) { state.withLock { $0.append([from, to]) } }
    var calls: [[Int]] { state.withLock { $0 } }
}
