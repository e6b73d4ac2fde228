import Testing

@testable import HeraldStore
@testable import HeraldSync

@Suite("Hybrid logical clock")
struct HybridClockTests {
    @Test("stamps follow the wall clock and never go backwards when it does")
    func monotonic() {
        var clock = HybridClock()
        let first = clock.stamp(now: 5_000)
        let sameMillisecond = clock.stamp(now: 5_000)
        let clockWentBack = clock.stamp(now: 4_000)
        let later = clock.stamp(now: 6_000)
        #expect(HybridClock.milliseconds(first) == 5_000 && HybridClock.counter(first) == 0)
        #expect(sameMillisecond == first + 1)
        #expect(clockWentBack > sameMillisecond)
        #expect(HybridClock.milliseconds(clockWentBack) == 5_000)
        #expect(later == 6_000 << 16)
    }

    @Test("a stamp made after seeing another device's is greater, even with a slower wall clock")
    func mergesRemoteStamps() {
        var clock = HybridClock()
        _ = clock.stamp(now: 1_000)
        let remote: Int64 = 9_000 << 16 | 7
        clock.observe(remote, now: 1_000)
        let next = clock.stamp(now: 2_000)
        #expect(next > remote)
        #expect(HybridClock.milliseconds(next) == 9_000 && HybridClock.counter(next) == 8)
        clock.observe(100 << 16, now: 2_000)
        #expect(clock.stamp(now: 2_000) == next + 1)
    }

    @Test("the clock is kept in the library: a later run stamps above the earlier one's stamps")
    @DatabaseActor
    func persistedAcrossRuns() throws {
        let scratch = try Scratch()
        defer { scratch.cleanUp() }
        let machine = try Machine(scratch, "a")
        try machine.sync(at: 50_000)
        try machine.store.subscribe(.init(url: "https://a.example/feed"))
        try machine.sync(at: 60_000)
        let first = try #require(try machine.store.syncStates().values.map(\.stamp).max())
        let reopened = try Machine(scratch, "a")
        try reopened.store.unsubscribe(url: "https://a.example/feed")
        try reopened.sync(at: 10_000)  // the wall clock went back
        let state = try #require(
            try reopened.store.syncStates()[
                SyncChange.Key(kind: .sub, feedURL: "https://a.example/feed", guid: "")])
        #expect(state.change.value == "0")
        #expect(state.stamp > first)
    }
}
