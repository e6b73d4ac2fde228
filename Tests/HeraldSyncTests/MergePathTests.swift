import Foundation
import HeraldCore
import Testing

@testable import HeraldStore
@testable import HeraldSync

/// How a large merge does its work: the other devices' files are read on a thread of their
/// own while the database writes, and applying finds flags from the articles.
@Suite("Merge paths")
@DatabaseActor
struct MergePathTests {
    static let first = "00000000000000aa00000000000000aa"
    static let second = "00000000000000bb00000000000000bb"

    /// Writes segment `number` of `device` with `count` read flags of one feed.
    static func writeSegment(_ folder: URL, _ device: String, _ number: Int, count: Int, from start: Int = 0)
        throws
    {
        let directory = folder.appendingPathComponent(device)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var text = SyncRecord.header
        for index in start..<start + count {
            let change = SyncChange(
                kind: .read, feedURL: "https://a.example/feed", guid: "g\(index)", value: "1")
            text += SyncRecord.encode(stamp: Int64(index + 1) << HybridClock.counterBits, change: change)
        }
        try Data(text.utf8).write(to: directory.appendingPathComponent(DeviceFolder.segmentName(number)))
    }

    @Test(
        "a device whose file is not a file (a directory) is read up to it, said once; the others merge; the next sync merges it all"
    )
    func unreadableFile() throws {
        let scratch = try Scratch()
        defer { scratch.cleanUp() }
        let folder = try scratch.folder("folder")
        try Self.writeSegment(folder, Self.first, 1, count: 30)
        try Self.writeSegment(folder, Self.second, 2, count: 25, from: 20)
        // Segment 1 of the second device is a directory: it is refused, and segment 2 waits.
        let broken = folder.appendingPathComponent(Self.second).appendingPathComponent(
            DeviceFolder.segmentName(1))
        try FileManager.default.createDirectory(at: broken, withIntermediateDirectories: true)
        let store = try LibraryStore.open(path: scratch.url.appendingPathComponent("l.db").path)
        var engine = SyncEngine(store: store, folder: folder)
        engine.backlogLimit = 7
        let first = try engine.run()
        #expect(first.problems == ["\(Self.second)/ops-000001.log: a directory, not a file"])
        let states = try store.syncStates().values
        #expect(states.filter { $0.device == Self.first }.count == 30)
        #expect(!states.contains { $0.device == Self.second })

        try FileManager.default.removeItem(at: broken)
        try Self.writeSegment(folder, Self.second, 1, count: 20)
        let report = try engine.run()
        #expect(report.problems.isEmpty)
        #expect(try store.syncStates().values.filter { $0.device == Self.second }.count == 45)
        #expect(try store.syncCursor(device: Self.second)?.operations == 45)
    }

    @Test(
        "a device whose file fails while it is read (cut shorter than what was read of it) is skipped with one message, keeps what was merged, and the others merge"
    )
    func failingDevice() throws {
        let scratch = try Scratch()
        defer { scratch.cleanUp() }
        let folder = try scratch.folder("folder")
        try Self.writeSegment(folder, Self.first, 1, count: 30)
        try Self.writeSegment(folder, Self.second, 1, count: 10, from: 100)
        let store = try LibraryStore.open(path: scratch.url.appendingPathComponent("l.db").path)
        let engine = SyncEngine(store: store, folder: folder)
        #expect(try engine.run().problems.isEmpty)
        let cursor = try #require(try store.syncCursor(device: Self.first))
        // The first device's segment is replaced by a shorter one (its cursor is past its end);
        // the second device writes more.
        try Self.writeSegment(folder, Self.first, 1, count: 2)
        try Self.writeSegment(folder, Self.second, 1, count: 15, from: 100)
        let report = try engine.run()
        #expect(report.problems.count == 1)
        #expect(report.problems.first?.hasPrefix("\(Self.first): skipped: ") == true, "\(report.problems)")
        #expect(report.problems.first?.contains("shorter than the \(cursor.offset) read of it before") == true)
        #expect(try store.syncCursor(device: Self.first) == cursor)
        #expect(try store.syncStates().values.filter { $0.device == Self.first }.count == 30)
        #expect(try store.syncStates().values.filter { $0.device == Self.second }.count == 15)
    }

    @Test("applying finds the articles' flags from the articles: no statement scans the whole state")
    func applyingLooksFlagsUp() throws {
        let scratch = try Scratch()
        defer { scratch.cleanUp() }
        let store = try LibraryStore.open(path: scratch.url.appendingPathComponent("l.db").path)
        var statements: [String] = []
        for (kind, column) in [("read", "read"), ("star", "starred")] {
            statements.append(LibraryStore.applyFlagSQL(kind: kind, column: column))
            statements.append(LibraryStore.markFlagsAppliedSQL(kind: kind))
        }
        for sql in statements {
            let plan = try store.db.prepare("EXPLAIN QUERY PLAN " + sql)
            var steps: [String] = []
            while try plan.step() { steps.append(plan.text(3) ?? "") }
            plan.reset()
            #expect(!steps.isEmpty)
            #expect(
                !steps.contains { $0.hasPrefix("SCAN s") || $0.hasPrefix("SCAN sync_state") }, "\(steps)")
        }
    }
}

/// The backlog hands its keys over in the state's order (feed URL, guid, kind, by bytes), so
/// the database walks its B-tree once: guids that share a long start, that start one
/// another, are empty, or carry any byte.
@Suite("A backlog's key order")
struct BacklogOrderTests {
    @Test("keys come out in byte order of feed URL, guid and kind, whatever order they went in")
    func keyOrder() {
        var random = SystemRandomNumberGenerator()
        let stems = ["tag:blog.example.org,2026:/posts/", "https://x.example/p?id=", "", "\u{00e9}\u{0}"]
        for _ in 0..<20 {
            var backlog = SyncBacklog()
            var expected: Set<[[UInt8]]> = []
            for _ in 0..<Int.random(in: 1...400, using: &random) {
                let url = ["https://b.example/f", "https://a.example/f", "https://a.example/"][
                    Int.random(in: 0..<3, using: &random)]
                let stem = stems[Int.random(in: 0..<stems.count, using: &random)]
                let tail = String(repeating: "7", count: Int.random(in: 0..<12, using: &random))
                let guid = stem + tail + (Bool.random(using: &random) ? "" : "\u{ff}")
                let kind: SyncChange.Kind = Bool.random(using: &random) ? .read : .star
                backlog.add(
                    SyncOperation(
                        change: SyncChange(kind: kind, feedURL: url, guid: guid, value: "1"), stamp: 1,
                        device: "d"))
                expected.insert([Array(url.utf8), Array(guid.utf8), Array(kind.rawValue.utf8)])
            }
            if Bool.random(using: &random) { backlog.sortForWriting() }
            var seen: [[[UInt8]]] = []
            backlog.drain { kind, url, guid, _, _, _ in
                seen.append([Array(url), Array(guid), Array(kind.rawValue.utf8)])
            }
            let sorted = expected.sorted { a, b in
                for (x, y) in zip(a, b) where x != y { return x.lexicographicallyPrecedes(y) }
                return false
            }
            // One flag, not two lists of byte arrays, in a failure's message.
            let inOrder = seen == sorted
            #expect(inOrder, "\(seen.count) keys out, \(sorted.count) in")
        }
    }
}
