/// Progress reported by background work, back on the main actor in order: one stream the
/// main actor reads, in place of a task per report (tasks may run in any order, and each
/// report had to check that it was not older than the one shown). Reports that arrive while
/// the main actor is busy are coalesced to the newest: progress has no history worth keeping.
struct ProgressStream<Value: Sendable>: Sendable {
    let reports: AsyncStream<Value>
    private let continuation: AsyncStream<Value>.Continuation

    init() {
        (reports, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// What the background work calls with each report.
    var report: @Sendable (Value) -> Void {
        { [continuation] value in continuation.yield(value) }
    }

    /// No more reports: the reading loop ends once it has the last one.
    func finish() { continuation.finish() }
}
