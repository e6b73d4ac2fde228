import HeraldUI
import Synchronization
import Testing

/// A debounce clock that moves only when a test advances it.
///
/// A sleeper's deadline is the clock's `now` when it starts sleeping plus its duration; it
/// resumes when `advance` reaches the deadline, or throws `CancellationError` at once when its
/// task is cancelled (it is then no longer pending). Tests wait for a sleeper to have started
/// (`waitForSleepers`) before advancing, so no deadline is measured from a later `now`.
final class ManualClock: DebounceClock {
    private struct Sleeper {
        var id: Int
        var deadline: Duration
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Duration.zero
        var nextID = 0
        var sleepers: [Sleeper] = []
        /// Sleepers cancelled before they had registered their continuation.
        var cancelled: Set<Int> = []
        /// Every sleep ever started (cancelled ones included).
        var started = 0
        /// After `stop()`: every sleep is cancelled at once.
        var stopped = false
    }

    private let state = Mutex(State())

    /// Sleepers waiting for their deadline.
    var pendingSleepers: Int { state.withLock { $0.sleepers.count } }
    /// Sleeps started so far.
    var sleepsStarted: Int { state.withLock { $0.started } }
    var now: Duration { state.withLock { $0.now } }

    func sleep(for duration: Duration) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            state.started += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if state.cancelled.remove(id) != nil || state.stopped {
                        return .failure(CancellationError())
                    }
                    if duration <= .zero { return .success(()) }
                    state.sleepers.append(
                        Sleeper(id: id, deadline: state.now + duration, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                if let index = state.sleepers.firstIndex(where: { $0.id == id }) {
                    return state.sleepers.remove(at: index)
                }
                state.cancelled.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time on and resumes every sleeper whose deadline has come, earliest first.
    func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.now += duration
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Cancels every pending sleeper and every later one (their tasks see `CancellationError`):
    /// a test that ends with a debounce still waiting, or not yet started, would otherwise
    /// leave that task suspended for good, holding the app, which LeakSanitizer
    /// (`make test-asan`) then reports as leaked.
    func stop() {
        let pending = state.withLock { state in
            state.stopped = true
            defer { state.sleepers.removeAll() }
            return state.sleepers
        }
        for sleeper in pending { sleeper.continuation.resume(throwing: CancellationError()) }
    }

    /// Returns once `count` sleeps have started since the clock was made (a keystroke's
    /// search task has reached its debounce); records an issue after about two seconds.
    @MainActor
    func waitForSleeps(started count: Int, sourceLocation: SourceLocation = #_sourceLocation) async {
        if await waitUntil({ self.sleepsStarted >= count }) { return }
        Issue.record(
            "expected \(count) sleeps to have started, have \(sleepsStarted)", sourceLocation: sourceLocation)
    }
}

/// Polls `condition`, letting other tasks run, for up to about two seconds.
@MainActor
func waitUntil(_ condition: () -> Bool) async -> Bool {
    for attempt in 0..<2_000 {
        if condition() { return true }
        if attempt < 200 {
            await Task.yield()
        } else {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
    return condition()
}
