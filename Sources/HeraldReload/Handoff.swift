import Synchronization

/// A value handed to another thread once: whoever `take`s it holds the only reference, so
/// it is freed as soon as that one is done with it, however long the sender's scope lasts.
///
/// A reload keeps a feed's fetched body, then its parsed items, only as long as the next
/// step needs them: a closure that captured them would keep them alive until the whole
/// feed was stored, several copies of the same articles side by side.
final class Handoff<Value: Sendable>: Sendable {
    private let slot: Mutex<Value?>

    init(_ value: Value) {
        slot = Mutex(value)
    }

    /// The value; nil after the first call.
    func take() -> Value? {
        slot.withLock { $0.take() }
    }
}
