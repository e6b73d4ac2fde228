import Foundation
import HeraldCore
import HeraldStore

/// What `C` and its undo cost on a large library: every article marked read in one
/// transaction (the ids that changed come back for undo), then those ids marked unread
/// again. A main-actor heartbeat (a 1 ms sleep in a loop) runs meanwhile: its longest gap is
/// how long keys would wait, which stays small because the main actor only awaits the
/// database actor.
enum UndoBench {
    @MainActor
    final class Heartbeat {
        var running = true
        var worstGap = 0.0
        var beats = 0
    }

    @MainActor
    static func run(path: String) async throws {
        let store = try await LibraryStore.open(path: path)
        let repository: any ArticleRepository = store
        // From a library with every article unread, as `populate` leaves it.
        _ = try await repository.setFlag(.read, false, in: .all)
        let total = try await store.feedSummaries().reduce(0) { $0 + $1.total }
        print("library: \(total) articles")

        let heartbeat = Heartbeat()
        let beat = Task { @MainActor in
            var last = DispatchTime.now().uptimeNanoseconds
            while heartbeat.running {
                try? await Task.sleep(for: .milliseconds(1))
                let now = DispatchTime.now().uptimeNanoseconds
                heartbeat.worstGap = max(heartbeat.worstGap, Double(now - last) / 1e6)
                heartbeat.beats += 1
                last = now
            }
        }
        let (ids, mark) = try await timed { try await repository.setFlag(.read, true, in: .all) }
        let (restored, undo) = try await timed {
            try await repository.setFlag(.read, false, articleIDs: ids)
        }
        let setStart = DispatchTime.now().uptimeNanoseconds
        let set = await Task.detached { Set(ids) }.value
        let setTime = Double(DispatchTime.now().uptimeNanoseconds - setStart) / 1e6
        heartbeat.running = false
        await beat.value
        print(String(format: "mark all read: %d articles in %.0f ms (one transaction)", ids.count, mark))
        print(String(format: "undo:          %d articles in %.0f ms (one transaction)", restored.count, undo))
        print(
            String(
                format: "set of the ids for the screen (off the main actor): %d in %.0f ms", set.count,
                setTime))
        print(
            String(
                format: "main actor meanwhile: %d heartbeats, longest gap %.1f ms", heartbeat.beats,
                heartbeat.worstGap))
    }

    @MainActor
    static func timed<T>(_ body: () async throws -> T) async throws -> (T, Double) {
        let start = DispatchTime.now().uptimeNanoseconds
        let value = try await body()
        return (value, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
}
