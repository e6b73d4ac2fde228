import Testing

@testable import HeraldReload

/// A reload hands a feed's body, then its parsed items, from one step to the next so that
/// each is freed as soon as the step that needs it is done.
@Suite("Handing a value to the next step")
struct HandoffTests {
    final class Payload: Sendable {}

    @Test("the value is taken once, and lives no longer than its taker keeps it")
    func takenOnce() {
        let handoff: Handoff<Payload>
        weak var seen: Payload?
        do {
            let payload = Payload()
            seen = payload
            handoff = Handoff(payload)
        }
        #expect(seen != nil)
        do {
            let taken = handoff.take()
            #expect(taken === seen)
        }
        // The handoff is still here (as a sender's scope keeps it); the value is not.
        #expect(seen == nil)
        #expect(handoff.take() == nil)
    }
}
