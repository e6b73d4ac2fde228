import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

/// Found in review of schema 6: leaving WAL to change the page size failed, and stopped
/// the library from opening, while another connection had it open.
@Suite("Compacting an older library")
struct ReviewStoreProbeTests {
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
