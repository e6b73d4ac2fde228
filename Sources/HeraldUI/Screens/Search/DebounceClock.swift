/// The clock a debounce waits on, injected so tests and `herald snapshot` control time.
///
/// `sleep` must honour task cancellation: a cancelled sleeper throws `CancellationError`
/// (promptly, not at its deadline), so a superseded keystroke's search never runs.
public protocol DebounceClock: Sendable {
    /// Suspends for `duration`, or throws `CancellationError` when the task is cancelled.
    func sleep(for duration: Duration) async throws
}

/// Real time: sleeps on `ContinuousClock` (the reader in a terminal).
public struct LiveDebounceClock: DebounceClock {
    public init() {}

    public func sleep(for duration: Duration) async throws {
        try await ContinuousClock().sleep(for: duration)
    }
}

/// No waiting at all: every sleep returns at once (unless the task is already cancelled).
///
/// For headless sessions (`herald snapshot`, snapshot tests): each scripted key runs its
/// search straight away, so the screen after a key does not depend on timing.
public struct ImmediateDebounceClock: DebounceClock {
    public init() {}

    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
    }
}
