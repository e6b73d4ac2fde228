/// The asynchronous work a view model started, so a frame can be asked for when each piece
/// ends and a test or `herald snapshot` can wait until everything has settled.
@MainActor
public final class PendingWork {
    private var tasks: [Int: Task<Void, Never>] = [:]
    private var nextID = 0
    /// Called on the main actor after each piece of work ends.
    public var onFinish: @MainActor () -> Void = {}

    public init() {}

    /// Starts `operation` as a main-actor task; it awaits background actors as it needs.
    @discardableResult
    public func start(_ operation: @escaping @MainActor () async -> Void) -> Task<Void, Never> {
        let id = nextID
        nextID += 1
        let task = Task { [weak self] in
            await operation()
            self?.tasks[id] = nil
            self?.onFinish()
        }
        tasks[id] = task
        return task
    }

    /// Returns when no work is pending, including work started by work that ended.
    public func settle() async {
        while let task = tasks.values.first {
            await task.value
        }
    }

    public var isIdle: Bool { tasks.isEmpty }
}
