import Foundation
import HeraldCore
import HeraldStore
import HeraldSync

/// `herald-bench sync-change --db PATH [--changes N]`: what one change made while reading
/// costs with sync off and on. On a copy of the library, N articles are marked read (as `j`
/// in the article view does to the next article), marked unread (`N`) and starred (`s`), one
/// write each as the reader makes them; then sync is turned on (a first sync into a scratch
/// folder) and the same is timed again: the difference is what capturing the change costs.
/// Also timed: the background sync that sends those changes, then one that sends a
/// second's worth (at most one starts per second); the reader waits for neither.
enum SyncChangeBench {
    static func run(path: String, changes: Int) async throws {
        let scratch = URL(fileURLWithPath: NSTemporaryDirectory() + "herald-sync-change-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let copy = scratch.appendingPathComponent("library.db").path
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
        }
        let folder = scratch.appendingPathComponent("folder")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = try await LibraryStore.open(path: copy)
        let ids = (1...changes).map(String.init)
        let off = try await timeChanges(store, ids)
        let first = try await timed { try await sync(store, folder) }
        let on = try await timeChanges(store, ids)
        let round = try await timed { try await sync(store, folder) }
        let batch = min(changes, 20)
        for id in ids.prefix(batch) { try await store.setStarred(false, articleID: id) }
        let background = try await timed { try await sync(store, folder) }
        print(
            "sync-change: \(changes) changes of each kind, one write each (µs per change, median / 99th percentile)"
        )
        for (name, index) in [("j (read)", 0), ("N (unread)", 1), ("s (star)", 2)] {
            print(
                String(
                    format: "  %@ sync off %6.0f / %6.0f   sync on %6.0f / %6.0f",
                    name.padding(toLength: 11, withPad: " ", startingAt: 0),
                    off[index].median, off[index].p99, on[index].median, on[index].p99))
        }
        print(
            String(
                format:
                    "sync-change: first sync (brings the library in) %.0f ms; the sync sending the %d changes above %.0f ms; one sending %d changes %.0f ms",
                first.1, changes * 4, round.1, batch, background.1))
    }

    struct Figures {
        var median: Double
        var p99: Double

        init(_ samples: [Double]) {
            let sorted = samples.sorted()
            median = sorted[sorted.count / 2]
            p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        }
    }

    /// Read, unread, star: each article once, each change its own write, in µs.
    static func timeChanges(_ store: LibraryStore, _ ids: [String]) async throws -> [Figures] {
        var samples: [[Double]] = [[], [], []]
        for id in ids {
            samples[0].append(try await timed { try await store.setRead(true, articleID: id) }.1 * 1000)
        }
        for id in ids {
            samples[1].append(try await timed { try await store.setRead(false, articleID: id) }.1 * 1000)
        }
        for id in ids {
            samples[2].append(try await timed { try await store.setStarred(true, articleID: id) }.1 * 1000)
        }
        // Back as they were, for the second round.
        for id in ids { try await store.setStarred(false, articleID: id) }
        return samples.map(Figures.init)
    }

    @DatabaseActor
    static func sync(_ store: LibraryStore, _ folder: URL) throws {
        _ = try SyncEngine(store: store, folder: folder).run()
    }

    /// The result of `body` and its wall time in ms.
    static func timed<T>(_ body: () async throws -> T) async throws -> (T, Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = try await body()
        return (result, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
}
