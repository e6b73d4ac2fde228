import Foundation
import HeraldCore
import Testing

@testable import HeraldStore
@testable import HeraldSync

/// A device's files are gathered in a backlog (the winner per key, on the files' bytes) and
/// written feed by feed when it is full and at the end: whatever the limit, the state and the
/// cursors must be the ones that merging each operation alone leaves.
@Suite("Merging a device's backlog")
@DatabaseActor
struct BacklogTests {
    static let other = "00000000000000aa00000000000000bb"

    /// Operations on few keys (so each key has several, ties included: equal stamps with
    /// different values), with feed URLs and guids that need escapes, over two segments.
    static func writeFiles(_ folder: URL, using random: inout some RandomNumberGenerator) throws
        -> [SyncOperation]
    {
        let directory = folder.appendingPathComponent(other)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var operations: [SyncOperation] = []
        for segment in 1...2 {
            var text = SyncRecord.header
            for _ in 0..<300 {
                let feed = ["https://b.example/feed", "https://a.example/f%\tx", "https://c.example/"][
                    Int.random(in: 0..<3, using: &random)]
                let kind = [SyncChange.Kind.read, .star, .sub, .tags].randomElement(using: &random) ?? .read
                let guid =
                    kind.isArticleFlag ? ["g1", "g%2\n", "", "g3"].randomElement(using: &random) ?? "" : ""
                let value =
                    kind == .tags
                    ? ["", "a\tb", "x"].randomElement(using: &random) ?? ""
                    : "\(Int.random(in: 0..<2, using: &random))"
                let change = SyncChange(kind: kind, feedURL: feed, guid: guid, value: value)
                let stamp = Int64.random(in: 1...40, using: &random) << HybridClock.counterBits
                text += SyncRecord.encode(stamp: stamp, change: change)
                operations.append(SyncOperation(change: change, stamp: stamp, device: other))
            }
            try Data(text.utf8).write(to: directory.appendingPathComponent(DeviceFolder.segmentName(segment)))
        }
        return operations
    }

    @Test("a backlog written in pieces or whole leaves the state of merging each operation alone")
    func piecesOrWhole() throws {
        let scratch = try Scratch()
        defer { scratch.cleanUp() }
        var random = SystemRandomNumberGenerator()
        for round in 0..<5 {
            let folder = try scratch.folder("folder\(round)")
            let operations = try Self.writeFiles(folder, using: &random)
            let single = try LibraryStore.open(path: scratch.url.appendingPathComponent("s\(round).db").path)
            for operation in operations { try single.mergeOthers([operation], cursor: nil) }
            var states: [[SyncChange.Key: SyncOperation]] = []
            var cursors: [[SyncCursor]] = []
            // Each library writes its own device folder there too: only `other` is compared.
            for limit in [1, 7, 1 << 18] {
                let store = try LibraryStore.open(
                    path: scratch.url.appendingPathComponent("\(round)-\(limit).db").path)
                var engine = SyncEngine(store: store, folder: folder)
                engine.backlogLimit = limit
                let report = try engine.run()
                #expect(report.read == operations.count && report.problems.isEmpty)
                states.append(try store.syncStates().filter { $0.value.device == Self.other })
                cursors.append(try store.syncCursors().filter { $0.device == Self.other })
            }
            let expected = try single.syncStates()
            #expect(states.allSatisfy { $0 == expected })
            #expect(cursors.allSatisfy { $0 == cursors[0] })
            #expect(cursors[0].first?.segment == 2 && cursors[0].first?.operations == operations.count)
        }
    }

    @Test("a backlog keeps the greater stamp, then the greater device, then the first; a value may go back")
    func winners() throws {
        let scratch = try Scratch()
        defer { scratch.cleanUp() }
        let store = try LibraryStore.open(path: scratch.url.appendingPathComponent("l.db").path)
        var backlog = SyncBacklog()
        backlog.add(contentsOf: [
            SyncOperation.read("1", 3, "aaaa"), SyncOperation.read("0", 4, "aaaa"),
            SyncOperation.read("1", 5, "aaaa"),
            SyncOperation.read("1", 7, "bbbb", guid: "h"), SyncOperation.read("0", 7, "cccc", guid: "h"),
            SyncOperation.read("1", 7, "cccc", guid: "h"), SyncOperation.read("1", 7, "aaaa", guid: "h"),
        ])
        #expect(backlog.count == 2)
        #expect(try store.mergeOthers(&backlog, cursor: nil) == 2)
        #expect(backlog.count == 0)
        let states = try store.syncStates()
        #expect(states[SyncOperation.read("", 0, "").change.key] == SyncOperation.read("1", 5, "aaaa"))
        #expect(
            states[SyncOperation.read("", 0, "", guid: "h").change.key]
                == SyncOperation.read("0", 7, "cccc", guid: "h"))
        // Written again: the state keeps what it has; a newer one wins.
        backlog.add(SyncOperation.read("0", 5, "aaaa"))
        backlog.add(SyncOperation.read("0", 6, "aaaa", guid: "h"))
        #expect(try store.mergeOthers(&backlog, cursor: nil) == 0)
        backlog.add(SyncOperation.read("0", 5, "abab"))
        #expect(try store.mergeOthers(&backlog, cursor: nil) == 1)
        #expect(
            try store.syncStates()[SyncOperation.read("", 0, "").change.key]
                == SyncOperation.read("0", 5, "abab"))
    }

    @Test("a key's value written over and over keeps the last winner's and the backlog's bytes do not grow")
    func valuesWrittenOver() throws {
        let scratch = try Scratch()
        defer { scratch.cleanUp() }
        let store = try LibraryStore.open(path: scratch.url.appendingPathComponent("l.db").path)
        var backlog = SyncBacklog()
        let values = ["news\tlong tag name", "", "x", "news\tlonger tag name still"]
        for stamp in 1...1_000 {
            backlog.add(
                SyncOperation(
                    change: SyncChange(
                        kind: .tags, feedURL: "https://a.example/feed", value: values[stamp % 4]),
                    stamp: Int64(stamp), device: "aaaa"))
        }
        #expect(backlog.byteCount <= values.map(\.utf8.count).reduce(0, +))
        try store.mergeOthers(&backlog, cursor: nil)
        #expect(
            try store.syncStates().values.map(\.change.value) == [values[1_000 % 4]])
    }
}
