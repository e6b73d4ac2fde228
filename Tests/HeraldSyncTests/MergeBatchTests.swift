import Foundation
import HeraldCore
import Testing

@testable import HeraldStore
@testable import HeraldSync

/// A batch of other devices' operations is reduced to its last writer per key before it is
/// written: the state it leaves must be the one the operations leave merged one at a time.
@Suite("Merging a batch")
@DatabaseActor
struct MergeBatchTests {
    static let devices = ["aaaa", "bbbb", "cccc"]

    /// Operations on a few keys, so each key has several, with stamps that repeat (ties
    /// between devices, and the same stamp and device twice with different values).
    static func operations(_ count: Int, using random: inout some RandomNumberGenerator) -> [SyncOperation] {
        (0..<count).map { _ in
            let feed = "https://blog\(Int.random(in: 0..<2, using: &random)).example.org/feed%\t"
            let kind = [SyncChange.Kind.read, .star, .sub, .tags].randomElement(using: &random) ?? .read
            let guid = kind.isArticleFlag ? "guid-\(Int.random(in: 0..<3, using: &random))" : ""
            return SyncOperation(
                change: SyncChange(
                    kind: kind, feedURL: feed, guid: guid, value: "\(Int.random(in: 0..<4, using: &random))"),
                stamp: Int64.random(in: 1...6, using: &random),
                device: devices.randomElement(using: &random) ?? "aaaa")
        }
    }

    @Test("a batch leaves the state that merging its operations one at a time leaves")
    func batchMatchesOneAtATime() throws {
        let scratch = try Scratch()
        defer { scratch.cleanUp() }
        var random = SystemRandomNumberGenerator()
        for round in 0..<20 {
            let batched = try LibraryStore.open(path: scratch.url.appendingPathComponent("b\(round).db").path)
            let single = try LibraryStore.open(path: scratch.url.appendingPathComponent("s\(round).db").path)
            let before = Self.operations(20, using: &random)
            let batch = Self.operations(200, using: &random)
            try batched.mergeOthers(before, cursor: nil)
            for operation in before { try single.mergeOthers([operation], cursor: nil) }
            let won = try batched.mergeOthers(batch, cursor: nil)
            var changed = Set<SyncChange.Key>()
            for operation in batch where try single.mergeOthers([operation], cursor: nil) == 1 {
                changed.insert(operation.change.key)
            }
            #expect(try batched.syncStates() == single.syncStates())
            #expect(won == changed.count)
        }
    }

    @Test("of one key's operations the greater stamp wins, then the greater device, then the first")
    func tiesByDeviceThenFirst() throws {
        let scratch = try Scratch()
        defer { scratch.cleanUp() }
        let store = try LibraryStore.open(path: scratch.url.appendingPathComponent("l.db").path)
        let won = try store.mergeOthers(
            [
                SyncOperation.read("1", 7, "bbbb"), SyncOperation.read("0", 7, "cccc"),
                SyncOperation.read("1", 7, "aaaa"),
                SyncOperation.read("1", 5, "ffff"), SyncOperation.read("0", 9, "aaaa", guid: "h"),
                SyncOperation.read("1", 9, "aaaa", guid: "h"),
            ], cursor: nil)
        let states = try store.syncStates()
        let key = SyncChange.Key(kind: .read, feedURL: "https://a.example/feed", guid: "g")
        #expect(states[key] == SyncOperation.read("0", 7, "cccc"))
        #expect(
            states[SyncChange.Key(kind: .read, feedURL: "https://a.example/feed", guid: "h")]
                == SyncOperation.read("0", 9, "aaaa", guid: "h"))
        #expect(won == 2)
        #expect(try store.mergeOthers([SyncOperation.read("1", 7, "cccc")], cursor: nil) == 0)
        #expect(
            try store.mergeOthers(
                [SyncOperation.read("1", 7, "dddd"), SyncOperation.read("0", 6, "eeee")], cursor: nil) == 1)
        #expect(try store.syncStates()[key] == SyncOperation.read("1", 7, "dddd"))
    }
}
