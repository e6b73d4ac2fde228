/// The asynchronous work one owner has started: a screen (cancelled when it leaves the stack,
/// or, for what acts on the stack, when another screen covers it) or the app (for its
/// lifetime, or until the effect is cancelled by name).
///
/// An effect's operation runs on the main actor and awaits background actors as it needs;
/// what it brings back is handed to its `apply` closure, which changes the owner's state.
/// `apply` runs only while the effect is still wanted: its owner has not closed it, nothing
/// covered an effect that lives while its owner is on top, and no newer effect of the same
/// name replaced it. That is checked here, once, on the main actor just before each value
/// is applied, so a stale result cannot arrive (the screens hold no generation counters and
/// compare no screens by identity), even from an operation that ignores cancellation.
/// Cancelling an effect cancels its task too, and with it the calls it awaits.
///
/// Effects that end are awaited in `PendingWork` (a frame is asked for when each ends, and
/// `ReaderApp.settle()` waits for them), except the ones that wait for good (timers, the
/// sync folder's watch), which `settle()` must not wait for.
@MainActor
public final class Effects {
    /// What an effect does, where its owner has one of a kind (starting one cancels the last).
    enum Name: Hashable {
        // Screens.
        case load, page, refresh, counts, search, step
        // The app.
        case reload, reloadProgress, reloadCounts, indexing, indexingProgress
        case sync, syncTimer, syncWatch, syncPause, reloadTimer, notify, libraryWatch, libraryCheck, pages
    }

    /// How long an effect's results are wanted.
    enum Lifetime {
        /// Until its owner closes (a screen leaves the stack), or it is cancelled.
        case owner
        /// As long as its owner is the screen on top: an effect that acts on the stack (opens
        /// the next article) is dropped when a key opened another screen meanwhile.
        case onTop
    }

    private struct Running {
        var task: Task<Void, Never>?
        var name: Name?
        var lifetime: Lifetime
    }

    private let work: PendingWork
    private var running: [Int: Running] = [:]
    private var named: [Name: Int] = [:]
    private var nextToken = 0
    /// Who waits for no effect to be under way (`idle()`).
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []
    /// Set once the owner has closed: nothing starts any more.
    private(set) var isClosed = false

    init(work: PendingWork) {
        self.work = work
    }

    /// Runs `operation` and hands its value to `apply`, if the effect is still wanted then.
    func run<Value>(
        _ name: Name? = nil, while lifetime: Lifetime = .owner, settles: Bool = true,
        _ operation: @escaping @MainActor () async -> Value,
        then apply: @escaping @MainActor (Value) -> Void
    ) {
        stream(name, while: lifetime, settles: settles) { send in send(await operation()) } each: { apply($0) }
    }

    /// Runs `operation`, which may hand any number of values to `send` (progress as it comes,
    /// counts one by one); each reaches `each`, in order, while the effect is still wanted.
    /// `settles: false` for an effect that waits for good (`settle()` does not wait for it).
    func stream<Value>(
        _ name: Name? = nil, while lifetime: Lifetime = .owner, settles: Bool = true,
        _ operation: @escaping @MainActor (_ send: (Value) -> Void) async -> Void,
        each apply: @escaping @MainActor (Value) -> Void
    ) {
        guard !isClosed else { return }
        if let name { cancel(name) }
        let token = nextToken
        nextToken += 1
        running[token] = Running(name: name, lifetime: lifetime)
        if let name { named[name] = token }
        let body: @MainActor () async -> Void = { [weak self] in
            await operation { value in
                guard let self, self.running[token] != nil else { return }
                apply(value)
            }
            self?.ended(token)
        }
        // The task runs on the main actor, so it cannot start before it is stored here.
        running[token]?.task = settles ? work.start(body) : Task { @MainActor in await body() }
    }

    /// Whether an effect of this name is under way.
    func isRunning(_ name: Name) -> Bool { named[name] != nil }

    /// Cancels the effect of this name: its results are no longer applied.
    func cancel(_ name: Name) {
        guard let token = named[name] else { return }
        cancel(token: token)
    }

    /// Another screen covers the owner: what lives while it is on top is cancelled.
    func covered() {
        for (token, effect) in running where effect.lifetime == .onTop { cancel(token: token) }
    }

    /// The owner is gone: everything it started is cancelled, and nothing starts any more.
    func close() {
        isClosed = true
        for token in Array(running.keys) { cancel(token: token) }
    }

    /// How many effects are under way.
    var count: Int { running.count }

    /// Returns once no effect is under way (a macro waits for a step's work this way).
    func idle() async {
        guard !running.isEmpty else { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }

    private func cancel(token: Int) {
        guard let effect = running.removeValue(forKey: token) else { return }
        if let name = effect.name, named[name] == token { named[name] = nil }
        effect.task?.cancel()
        resumeIfIdle()
    }

    private func ended(_ token: Int) {
        guard let effect = running.removeValue(forKey: token) else { return }
        if let name = effect.name, named[name] == token { named[name] = nil }
        resumeIfIdle()
    }

    private func resumeIfIdle() {
        guard running.isEmpty, !idleWaiters.isEmpty else { return }
        let waiters = idleWaiters
        idleWaiters = []
        for waiter in waiters { waiter.resume() }
    }
}

extension Result where Failure == any Error {
    /// The value an effect's operation brings back, or why it could not (`apply` says so).
    /// It runs where it is called (the main actor, for an effect).
    init(isolation: isolated (any Actor)? = #isolation, catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
