import Foundation
import HeraldCore
import Testing

@testable import HeraldUI

/// `Effects`: a result is applied only while its effect is still wanted. Each test holds an
/// operation at a gate, changes what is wanted, then opens the gate and looks at what was
/// applied.
@MainActor
@Suite("Effects owned by a screen or the app")
struct EffectsTests {
    @Test("a newer effect of the same name replaces the older: only the newer's value applies")
    func namedReplaces() async {
        let work = PendingWork()
        let effects = Effects(work: work)
        let gate = Gate()
        var applied: [Int] = []
        effects.run(.search) { await gate.pass(); return 1 } then: { applied.append($0) }
        effects.run(.search) { await gate.pass(); return 2 } then: { applied.append($0) }
        // Unnamed effects do not replace one another.
        effects.run { await gate.pass(); return 3 } then: { applied.append($0) }
        effects.run { await gate.pass(); return 4 } then: { applied.append($0) }
        await gate.open()
        await work.settle()
        #expect(applied.sorted() == [2, 3, 4])
        #expect(effects.count == 0)
        #expect(!effects.isRunning(.search))
    }

    @Test("closing the owner drops every result and starts nothing more")
    func closeDrops() async {
        let work = PendingWork()
        let effects = Effects(work: work)
        let gate = Gate()
        var applied: [Int] = []
        effects.run(.page) { await gate.pass(); return 1 } then: { applied.append($0) }
        effects.run(while: .onTop) { await gate.pass(); return 2 } then: { applied.append($0) }
        effects.close()
        effects.run { 3 } then: { applied.append($0) }
        await gate.open()
        await work.settle()
        #expect(applied.isEmpty)
        #expect(effects.isClosed)
    }

    @Test("a covered owner drops what lives while it is on top, and keeps the rest")
    func coverDropsOnTopOnly() async {
        let work = PendingWork()
        let effects = Effects(work: work)
        let gate = Gate()
        var applied: [Int] = []
        effects.run(.page) { await gate.pass(); return 1 } then: { applied.append($0) }
        effects.run(.step, while: .onTop) { await gate.pass(); return 2 } then: { applied.append($0) }
        effects.covered()
        await gate.open()
        await work.settle()
        #expect(applied == [1])
    }

    @Test("a stream's values arrive in order until it is cancelled; settle does not wait for a timer")
    func streamsInOrder() async {
        let work = PendingWork()
        let effects = Effects(work: work)
        let gate = Gate()
        var seen: [Int] = []
        effects.stream(.counts) { send in
            for value in 1...3 { send(value) }
            await gate.pass()
            send(4)
        } each: { seen.append($0) }
        // A timer that never ends: settle() must return all the same.
        effects.stream(.syncTimer, settles: false) { (_: (Int) -> Void) in
            try? await Task.sleep(for: .seconds(3600))
        } each: { seen.append($0) }
        await Task.yield()
        while seen.count < 3 { await Task.yield() }
        effects.cancel(.counts)
        await gate.open()
        await work.settle()
        #expect(seen == [1, 2, 3])
        #expect(effects.isRunning(.syncTimer))
        effects.cancel(.syncTimer)
        #expect(effects.count == 0)
    }

    @Test("an effect that ignores cancellation still never applies once cancelled")
    func ignoringCancellation() async {
        let work = PendingWork()
        let effects = Effects(work: work)
        let gate = Gate()
        var applied = false
        // The gate does not end when its task is cancelled.
        effects.run(.refresh) { await gate.pass() } then: { applied = true }
        effects.cancel(.refresh)
        await gate.open()
        await work.settle()
        #expect(!applied)
    }
}
