import Foundation
import HeraldCore
import Testing

@testable import HeraldStore
@testable import HeraldSync

/// Two machines sharing one folder (the same directory: a sync engine that copied at once).
@DatabaseActor
struct Pair {
    let scratch: Scratch
    let a: Machine
    let b: Machine
    static let feed = "https://news.example/feed.xml"

    init() throws {
        scratch = try Scratch()
        a = try Machine(scratch, "a")
        b = try Machine(scratch, "b")
    }

    /// Makes `b` read `a`'s folder (a copy of everything `a` wrote).
    func carry(from source: Machine, to target: Machine) throws {
        let from = source.folder.appendingPathComponent(source.device)
        let to = target.folder.appendingPathComponent(source.device)
        try? FileManager.default.removeItem(at: to)
        try FileManager.default.copyItem(at: from, to: to)
    }

    func read(_ machine: Machine, _ guid: String) throws -> (read: Bool, starred: Bool)? {
        try machine.flags()["\(Self.feed) \(guid)"]
    }
}

@Suite("Sync engine")
struct SyncEngineTests {
    @Test("the first sync brings the library in: subscriptions, tags and flags reach the other device")
    @DatabaseActor
    func firstSyncSnapshot() throws {
        let pair = try Pair()
        defer { pair.scratch.cleanUp() }
        try pair.a.store.subscribe(Subscription(url: Pair.feed, tags: ["news"]))
        try pair.a.reload(Pair.feed, guids: ["1", "2"])
        try pair.a.store.setRead(true, articleID: try #require(try pair.a.articleID(Pair.feed, "1")))
        try pair.a.store.setStarred(true, articleID: try #require(try pair.a.articleID(Pair.feed, "2")))
        let first = try pair.a.sync(at: 1_000)
        #expect(first.firstSync && first.compacted && first.written == 4)
        let files = FolderShuffler.files(pair.a.folder.appendingPathComponent(pair.a.device))
        #expect(files == ["snapshot-1"])
        try pair.b.sync(at: 2_000)
        try pair.carry(from: pair.a, to: pair.b)
        let report = try pair.b.sync(at: 3_000)
        #expect(report.read == 4 && report.applied.subscribed == 1 && report.applied.pending == 2)
        #expect(try pair.b.feeds() == [Pair.feed: "news"])
        // Nothing new: the state is not applied again, and what waits still waits.
        let idle = try pair.b.sync(at: 3_500)
        #expect(!idle.appliedState && idle.applied.pending == 2)
        try pair.b.reload(Pair.feed, guids: ["1", "2", "3"])
        // The articles arrived: the waiting flags apply without any new operation.
        let fetched = try pair.b.sync(at: 4_000)
        #expect(fetched.appliedState && fetched.won == 0 && fetched.applied.flagsChanged == 2)
        #expect(try pair.read(pair.b, "1")! == (true, false))
        #expect(try pair.read(pair.b, "2")! == (false, true))
        #expect(try pair.read(pair.b, "3")! == (false, false))
    }

    @Test("an unread after a read wins when it is later, on both devices")
    @DatabaseActor
    func unreadAfterRead() throws {
        let pair = try Pair()
        defer { pair.scratch.cleanUp() }
        for machine in [pair.a, pair.b] {
            try machine.store.subscribe(Subscription(url: Pair.feed))
            try machine.reload(Pair.feed, guids: ["1"])
        }
        try pair.a.sync(at: 1_000)
        try pair.b.sync(at: 1_001)
        try pair.a.store.setRead(true, articleID: try #require(try pair.a.articleID(Pair.feed, "1")))
        try pair.a.sync(at: 2_000)
        try pair.carry(from: pair.a, to: pair.b)
        try pair.b.sync(at: 3_000)
        #expect(try pair.read(pair.b, "1")?.read == true)
        try pair.b.store.setRead(false, articleID: try #require(try pair.b.articleID(Pair.feed, "1")))
        try pair.b.sync(at: 4_000)
        try pair.carry(from: pair.b, to: pair.a)
        let report = try pair.a.sync(at: 5_000)
        #expect(report.applied.flagsChanged == 1)
        #expect(try pair.read(pair.a, "1")?.read == false)
        // And the older read, read again, does not bring it back.
        try pair.carry(from: pair.a, to: pair.b)
        try pair.b.store.execute("DELETE FROM sync_devices")
        try pair.b.sync(at: 6_000)
        #expect(try pair.read(pair.b, "1")?.read == false)
    }

    @Test("merging the same files again changes nothing, and applied changes are not captured again")
    @DatabaseActor
    func idempotentAndNotRecaptured() throws {
        let pair = try Pair()
        defer { pair.scratch.cleanUp() }
        try pair.a.sync(at: 1_000)
        try pair.b.sync(at: 1_001)
        try pair.a.store.subscribe(Subscription(url: Pair.feed, tags: ["x", "y"]))
        try pair.a.reload(Pair.feed, guids: ["1", "2"])
        try pair.a.store.setStarred(true, articleID: try #require(try pair.a.articleID(Pair.feed, "2")))
        try pair.a.sync(at: 2_000)
        try pair.carry(from: pair.a, to: pair.b)
        let first = try pair.b.sync(at: 3_000)
        #expect(first.won == 3 && first.applied.subscribed == 1 && first.applied.retagged == 1)
        #expect(first.applied.pending == 1)
        try pair.b.reload(Pair.feed, guids: ["1", "2"])
        #expect(try pair.b.sync(at: 3_500).applied.flagsChanged == 1)
        let state = try pair.b.store.syncStates()
        let flags = try pair.b.flags().mapValues { "\($0.read)\($0.starred)" }
        #expect(flags == ["\(Pair.feed) 1": "falsefalse", "\(Pair.feed) 2": "falsetrue"])
        #expect(try pair.b.feeds() == [Pair.feed: "x\ty"])
        #expect(try pair.b.store.capturedChanges().isEmpty)
        try pair.b.store.execute("DELETE FROM sync_devices")
        let again = try pair.b.sync(at: 4_000)
        #expect(again.read == first.read && again.won == 0 && again.written == 0 && !again.appliedState)
        #expect(again.applied.flagsChanged == 0 && again.applied.retagged == 0)
        #expect(try pair.b.store.syncStates() == state)
        #expect(try pair.b.flags().mapValues { "\($0.read)\($0.starred)" } == flags)
    }

    @Test("the bundled demo feeds are not synced; subscribing to one makes it the user's")
    @DatabaseActor
    func demoFeedsStayLocal() throws {
        let pair = try Pair()
        defer { pair.scratch.cleanUp() }
        try pair.a.sync(at: 1_000)
        let demo = Feed(url: "https://example.com/field-journal/feed.json", title: "Field journal")
        try pair.a.store.importFeeds([(demo, [])], demo: true)
        #expect(try pair.a.store.capturedChanges().isEmpty)
        try pair.a.store.subscribe(Subscription(url: demo.url))
        #expect(try pair.a.store.capturedChanges().map(\.change.kind) == [.sub, .tags])
    }

    @Test("a corrupt record in another device's file is reported with its offset and never applied")
    @DatabaseActor
    func corruptRecordInFolder() throws {
        let pair = try Pair()
        defer { pair.scratch.cleanUp() }
        try pair.a.sync(at: 1_000)
        try pair.b.sync(at: 1_001)
        try pair.a.store.subscribe(Subscription(url: Pair.feed))
        try pair.a.store.subscribe(Subscription(url: "https://other.example/feed"))
        try pair.a.sync(at: 2_000)
        try pair.carry(from: pair.a, to: pair.b)
        let segment = pair.b.folder.appendingPathComponent(pair.a.device).appendingPathComponent(
            "ops-000002.log")
        var bytes = Array(try Data(contentsOf: segment))
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: false)
        let offset = lines[0].count + 1  // after the header: the first feed's "sub"
        bytes[offset + 30] ^= 0x01
        try Data(bytes).write(to: segment)
        let report = try pair.b.sync(at: 3_000)
        #expect(report.problems.count == 1)
        #expect(
            report.problems.first?.contains(
                "\(pair.a.device)/ops-000002.log: a corrupt record skipped (the first at byte \(offset):") == true)
        let feeds = try pair.b.feeds()
        #expect(feeds.keys.sorted() == ["https://other.example/feed"], "\(feeds) \(report)")
    }

    @Test("compaction keeps a device's files under 1 KB per 10 operations")
    @DatabaseActor
    func compactionKeepsFolderSmall() throws {
        let scratch = try Scratch()
        defer { scratch.cleanUp() }
        let machine = try Machine(scratch, "a")
        machine.segmentLimit = 32 << 10
        try machine.sync(at: 1_000)
        let feeds = (0..<10).map { "https://blog\($0).example.org/feeds/all.atom.xml" }
        var operations = 0
        var random = SeededGenerator(seed: 5)
        for feed in feeds {
            try machine.store.subscribe(Subscription(url: feed, tags: ["tech"]))
            try machine.reload(feed, guids: (0..<30).map { "tag:blog.example.org,2026:/posts/\($0)-a-title" })
        }
        for round in 0..<40 {
            for _ in 0..<100 {
                let id = String(Int.random(in: 1...300, using: &random))
                if Bool.random(using: &random) {
                    try machine.store.setRead(Bool.random(using: &random), articleID: id)
                } else {
                    try machine.store.setStarred(Bool.random(using: &random), articleID: id)
                }
            }
            operations += try machine.sync(at: 2_000 + Int64(round)).written
        }
        let bytes = DeviceFolder(url: machine.folder.appendingPathComponent(machine.device)).list().bytes
        print(
            "compaction: \(operations) operations written, \(bytes) bytes on disk, \(bytes * 10 / operations) bytes per 10"
        )
        #expect(operations > 1_000)
        #expect(bytes * 10 <= operations * 1024)
    }
}
