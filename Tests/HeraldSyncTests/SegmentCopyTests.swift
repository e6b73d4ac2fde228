import Foundation
import HeraldCore
import Testing

@testable import HeraldStore
@testable import HeraldSync

/// A segment whose copy is cut at the end of a line reads like a whole one: a reader that
/// then went on to the next segment, there already, skipped the rest of it for good (the
/// convergence test's seeds 4, 6, 8 and 10 lost star and read flags so).
@Suite("Sync segments copied in part")
struct SegmentCopyTests {
    /// `a`'s file `name`, copied whole to `b`'s folder copy, or its first `lines` lines.
    @DatabaseActor
    static func copy(_ name: String, of pair: Pair, lines: Int? = nil) throws {
        let from = pair.a.folder.appendingPathComponent(pair.a.device).appendingPathComponent(name)
        let directory = pair.b.folder.appendingPathComponent(pair.a.device)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var data = try Data(contentsOf: from)
        if let lines {
            var seen = 0
            let end = data.firstIndex { byte in
                seen += byte == 10 ? 1 : 0
                return seen == lines
            }
            data = data.prefix(try #require(end) + 1)
        }
        try data.write(to: directory.appendingPathComponent(name))
    }

    @DatabaseActor
    static func star(_ machine: Machine, _ guid: String, _ values: [Bool]) throws {
        let id = try #require(try machine.articleID(Pair.feed, guid))
        for value in values { try machine.store.setStarred(value, articleID: id) }
    }

    @DatabaseActor
    static func pair() throws -> Pair {
        let pair = try Pair()
        for machine in [pair.a, pair.b] {
            try machine.store.subscribe(Subscription(url: Pair.feed))
            try machine.reload(Pair.feed, guids: ["1", "2"])
        }
        try pair.a.sync(at: 1_000)
        try pair.b.sync(at: 1_001)
        return pair
    }

    @Test("a rotated segment copied up to a line's end is read to its end before the next one")
    @DatabaseActor
    func rotatedSegmentCutAtLineEnd() throws {
        let pair = try Self.pair()
        defer { pair.scratch.cleanUp() }
        pair.a.segmentLimit = 1
        // Star then unstar: two records in ops-000002, which is then closed.
        try Self.star(pair.a, "1", [true, false])
        try pair.a.sync(at: 2_000)
        try Self.star(pair.a, "2", [true])
        try pair.a.sync(at: 3_000)
        let own = FolderShuffler.files(pair.a.folder.appendingPathComponent(pair.a.device))
        #expect(own == ["snapshot-1", "ops-000002.log", "ops-000003.log"])
        // The header and the star arrived, the unstar not yet; ops-000003 whole.
        try Self.copy("ops-000002.log", of: pair, lines: 2)
        try Self.copy("ops-000003.log", of: pair)
        try Self.copy("snapshot-1", of: pair)
        try pair.b.sync(at: 4_000)
        #expect(try pair.read(pair.b, "1")?.starred == true)
        #expect(try pair.read(pair.b, "2")?.starred == false, "ops-000003 waits for ops-000002")
        try Self.copy("ops-000002.log", of: pair)
        try pair.b.sync(at: 5_000)
        #expect(try pair.read(pair.b, "1")?.starred == false)
        #expect(try pair.read(pair.b, "2")?.starred == true)
    }

    @Test("a segment folded into a snapshot, copied in part, waits for the snapshot")
    @DatabaseActor
    func foldedSegmentCutAtLineEnd() throws {
        let pair = try Self.pair()
        defer { pair.scratch.cleanUp() }
        try Self.star(pair.a, "1", [true, false, true, false])
        try pair.a.sync(at: 2_000)
        try Self.copy("snapshot-1", of: pair)
        try Self.copy("ops-000002.log", of: pair, lines: 2)
        // ops-000002 grows and is folded into snapshot-2; what follows goes to ops-000003.
        pair.a.compactionFloor = 0
        try Self.star(pair.a, "2", [true])
        #expect(try pair.a.sync(at: 3_000).compacted)
        try Self.star(pair.a, "2", [false])
        try pair.a.sync(at: 4_000)
        let own = FolderShuffler.files(pair.a.folder.appendingPathComponent(pair.a.device))
        #expect(own == ["snapshot-2", "ops-000003.log"])
        try Self.copy("ops-000003.log", of: pair)
        try pair.b.sync(at: 5_000)
        #expect(try pair.read(pair.b, "1")?.starred == true)
        #expect(try pair.read(pair.b, "2")?.starred == false)
        try Self.copy("snapshot-2", of: pair)
        try pair.b.sync(at: 6_000)
        #expect(try pair.read(pair.b, "1")?.starred == false)
        #expect(try pair.read(pair.b, "2")?.starred == false)
        #expect(
            try pair.b.store.syncStates()[.init(kind: .star, feedURL: Pair.feed, guid: "2")]?.change.value
                == "0")
    }

    @Test("a segment's header gives the bytes of the one before; an older Herald's gives none")
    func headerGivesPreviousBytes() {
        let header = SyncRecord.header(previousSegmentBytes: 2_759)
        #expect(header == "herald-sync 1 after=2759\n")
        #expect(SyncRecord.previousSegmentBytes(header: Array(header.utf8.dropLast())) == 2_759)
        #expect(SyncRecord.previousSegmentBytes(header: Array("herald-sync 1".utf8)) == nil)
    }
}
