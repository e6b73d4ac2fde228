import Foundation
import HeraldCore
import Testing

@testable import HeraldStore
@testable import HeraldSync

/// Another device's files are hostile input: anyone who can write to the shared folder (a
/// Syncthing peer, a git remote) writes them. Each test plants one kind of forgery beside an
/// honest device's files and checks that the sync goes on: the forgery is refused with one
/// message, the honest device's changes merge, the library stays whole.
@Suite("A hostile partner in the sync folder")
@DatabaseActor
struct HostilePartnerTests {
    nonisolated static let honest = "00000000000000aa00000000000000aa"
    nonisolated static let hostile = "00000000000000bb00000000000000bb"

    /// A library and a folder holding the honest device's segment of `count` read flags.
    @DatabaseActor
    struct Setup {
        let scratch: Scratch
        let folder: URL
        let store: LibraryStore

        init(count: Int = 5) throws {
            scratch = try Scratch()
            folder = try scratch.folder("folder")
            try MergePathTests.writeSegment(folder, HostilePartnerTests.honest, 1, count: count)
            store = try LibraryStore.open(path: scratch.url.appendingPathComponent("l.db").path)
        }

        /// The hostile device's folder (created).
        func hostileFolder() throws -> URL {
            let url = folder.appendingPathComponent(HostilePartnerTests.hostile)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }

        func sync() throws -> SyncReport { try SyncEngine(store: store, folder: folder).run() }

        /// The honest device's states merged, and the library's integrity.
        func expectHonestMergedAndIntact(_ count: Int = 5, sourceLocation: SourceLocation = #_sourceLocation)
            throws
        {
            let merged = try store.syncStates().values.filter { $0.device == HostilePartnerTests.honest }.count
            #expect(merged == count, sourceLocation: sourceLocation)
            let check = try store.db.prepare("PRAGMA integrity_check").firstRow { $0.text(0) }
            #expect(check == "ok", sourceLocation: sourceLocation)
        }
    }

    @Test("a snapshot numbered 2^63 - 1 (a valid header and end) is refused, not a trap")
    func hugeSnapshotNumber() throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        let device = try setup.hostileFolder()
        try Data((SyncRecord.header + SyncRecord.encodeEnd(count: 0, stamp: 1)).utf8).write(
            to: device.appendingPathComponent("snapshot-9223372036854775807"))
        try Data(SyncRecord.header.utf8).write(to: device.appendingPathComponent("ops-999999999999.log"))
        let report = try setup.sync()
        #expect(report.problems.count == 1, "\(report.problems)")
        #expect(
            report.problems.first?.hasPrefix("\(Self.hostile)/snapshot-9223372036854775807: not a number") == true
                || report.problems.first?.hasPrefix("\(Self.hostile)/ops-999999999999.log: not a number") == true,
            "\(report.problems)")
        #expect(report.problems.first?.contains("(and 1 more problems)") == true)
        try setup.expectHonestMergedAndIntact()
    }

    @Test(
        "names with a sign, a space, too many digits or no digits are not sync files",
        arguments: ["ops-+00001.log", "ops--1.log", "ops- 1.log", "ops-0000000000001.log", "snapshot-", "snapshot-1x"])
    func forgedNames(_ name: String) throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        let device = try setup.hostileFolder()
        var text = SyncRecord.header
        text += SyncRecord.encode(
            stamp: 99 << HybridClock.counterBits,
            change: SyncChange(kind: .read, feedURL: "https://a.example/feed", guid: "forged", value: "1"))
        try Data(text.utf8).write(to: device.appendingPathComponent(name))
        let report = try setup.sync()
        #expect(report.problems.count <= 1, "\(report.problems)")
        #expect(report.read == 5, "nothing of \(name) was read")
        try setup.expectHonestMergedAndIntact()
    }

    @Test("a segment that is a symbolic link (to a file of the user's, or to /dev/zero) is refused unread")
    func symbolicLinks() throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        let device = try setup.hostileFolder()
        let secret = setup.scratch.url.appendingPathComponent("secret")
        try Data((SyncRecord.header + "not a record\n").utf8).write(to: secret)
        try FileManager.default.createSymbolicLink(
            atPath: device.appendingPathComponent("ops-000001.log").path, withDestinationPath: secret.path)
        try FileManager.default.createSymbolicLink(
            atPath: device.appendingPathComponent("snapshot-3").path, withDestinationPath: "/dev/zero")
        let report = try setup.sync()
        #expect(report.problems.count == 1, "\(report.problems)")
        #expect(report.problems.first?.contains("a symbolic link, not a file") == true, "\(report.problems)")
        #expect(try store(setup).syncCursor(device: Self.hostile)?.operations ?? 0 == 0)
        try setup.expectHonestMergedAndIntact()
    }

    private func store(_ setup: Setup) -> LibraryStore { setup.store }

    @Test("a device folder that is a symbolic link (to a folder outside) is skipped with one message")
    func linkedDeviceFolder() throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        let outside = try setup.scratch.folder("outside")
        try MergePathTests.writeSegment(outside, "x", 1, count: 3)
        try FileManager.default.createSymbolicLink(
            atPath: setup.folder.appendingPathComponent(Self.hostile).path,
            withDestinationPath: outside.appendingPathComponent("x").path)
        let report = try setup.sync()
        #expect(report.problems.count == 1, "\(report.problems)")
        #expect(report.problems.first?.contains("a symbolic link, not a folder, refused") == true, "\(report.problems)")
        #expect(report.read == 5)
        try setup.expectHonestMergedAndIntact()
    }

    @Test("a FIFO named as a segment is refused at once, without waiting for a writer")
    func fifo() throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        let device = try setup.hostileFolder()
        let path = device.appendingPathComponent("ops-000001.log").path
        #expect(mkfifo(path, 0o644) == 0)
        // Should a reader wait on it, a writer comes after 20 s, so the test ends either way
        // (a Thread of its own, sleeping: the sync under test is synchronous, and no pool
        // thread is held).
        let writer = Thread {
            Thread.sleep(forTimeInterval: 20)
            let fd = open(path, O_WRONLY | O_NONBLOCK)
            if fd >= 0 {
                _ = SyncRecord.header.withCString { write(fd, $0, strlen($0)) }
                close(fd)
            }
        }
        writer.start()
        let started = Date()
        let report = try setup.sync()
        #expect(Date().timeIntervalSince(started) < 15, "the sync waited on the FIFO")
        #expect(report.problems.first?.contains("a FIFO, not a file") == true, "\(report.problems)")
        try setup.expectHonestMergedAndIntact()
    }

    @Test("a segment of 3 MiB without a newline is passed over once, said once, and not read again")
    func recordWithoutEnd() throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        let device = try setup.hostileFolder()
        var bytes = Array(SyncRecord.header.utf8)
        bytes += [UInt8](repeating: 0x61, count: 3 << 20)
        let path = device.appendingPathComponent("ops-000001.log")
        try Data(bytes).write(to: path)
        let report = try setup.sync()
        #expect(report.problems.count == 1, "\(report.problems)")
        #expect(report.problems.first?.contains("a record longer than \(SyncRecord.maximumLineBytes) bytes") == true)
        let cursor = try #require(try setup.store.syncCursor(device: Self.hostile))
        #expect(cursor.offset == bytes.count, "the cursor passed the whole record")
        // The next sync starts where the last ended: nothing to read, nothing to say.
        #expect(try setup.sync().problems.isEmpty)
        try setup.expectHonestMergedAndIntact()
    }

    @Test("a long record ends where its newline is: the records after it are read")
    func longRecordThenRecords() throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        let device = try setup.hostileFolder()
        var text = SyncRecord.header + String(repeating: "z", count: (1 << 20) + 10) + "\n"
        text += SyncRecord.encode(
            stamp: 7 << HybridClock.counterBits,
            change: SyncChange(kind: .star, feedURL: "https://b.example/feed", guid: "after", value: "1"))
        try Data(text.utf8).write(to: device.appendingPathComponent("ops-000001.log"))
        var engine = SyncEngine(store: setup.store, folder: setup.folder)
        engine.backlogLimit = 2
        let report = try engine.run()
        #expect(report.problems.count == 1, "\(report.problems)")
        #expect(report.read == 6)
        #expect(try setup.store.syncStates().values.contains { $0.change.guid == "after" })
    }

    @Test(
        "a subscription to file:, a device or a command (exec:, filter:) from another device is refused once; the honest ones are taken",
        arguments: [
            "file:///dev/tty", "file:///etc/passwd", "/dev/zero", "ftp://x.example/feed", "exec:touch /tmp/owned",
            "filter:sh -c id:https://x.example/feed",
        ])
    func refusedSubscription(_ address: String) throws {
        let setup = try Setup()
        defer { setup.scratch.cleanUp() }
        let device = try setup.hostileFolder()
        var text = SyncRecord.header
        for (stamp, url) in [(50, address), (51, "https://fine.example/feed.xml")] {
            text += SyncRecord.encode(
                stamp: Int64(stamp) << HybridClock.counterBits,
                change: SyncChange(kind: .sub, feedURL: url, value: "1"))
        }
        try Data(text.utf8).write(to: device.appendingPathComponent("ops-000001.log"))
        let report = try setup.sync()
        #expect(report.applied.refused.count == 1, "\(report.applied.refused)")
        if CommandFeed.isCommand(address) {
            // A command feed runs a command here: only this machine's user may add one.
            #expect(
                report.applied.refused.first?.contains("runs a command on this machine") == true,
                "\(report.applied.refused)")
        }
        #expect(report.applied.subscribed == 1)
        #expect(try setup.store.hasFeed(url: "https://fine.example/feed.xml"))
        #expect(try !setup.store.hasFeed(url: address))
        #expect(try setup.store.reloadTargets().map(\.url) == ["https://fine.example/feed.xml"])
        // Said once: the next sync has nothing to say of it.
        let again = try setup.sync()
        #expect(again.applied.refused.isEmpty)
        try setup.expectHonestMergedAndIntact()
    }

    @Test("a partner stamping a record 70368744177663.65535 (2^46 - 1 ms) cannot push this clock past what readers take")
    func clockPoisoning() throws {
        let pair = try Pair()
        defer { pair.scratch.cleanUp() }
        try pair.a.sync(at: 1_000_000)
        try pair.b.sync(at: 1_000_001)
        let forged = pair.a.folder.appendingPathComponent(Self.hostile)
        try FileManager.default.createDirectory(at: forged, withIntermediateDirectories: true)
        let line = SyncRecord.encode(
            stamp: ((1 << 46) - 1) << HybridClock.counterBits | 65_535,
            change: SyncChange(kind: .read, feedURL: Pair.feed, guid: "x", value: "1"))
        #expect(line.hasPrefix(String(line.prefix(9))) && line.contains(" 70368744177663.65535\t"))
        try Data((SyncRecord.header + line).utf8).write(to: forged.appendingPathComponent("ops-000001.log"))
        let report = try pair.a.sync(at: 2_000_000)
        #expect(report.problems.isEmpty, "the record itself is well formed: \(report.problems)")
        let saved = try #require(Int64(try pair.a.store.syncValue("clock") ?? ""))
        #expect(HybridClock.milliseconds(saved) <= 2_000_000 + HybridClock.window)
        // A's next change is stamped where every reader takes it: B gets it.
        try pair.a.store.subscribe(Subscription(url: Pair.feed))
        try pair.a.sync(at: 2_000_100)
        try pair.carry(from: pair.a, to: pair.b)
        let received = try pair.b.sync(at: 2_000_200)
        #expect(received.problems.isEmpty, "\(received.problems)")
        #expect(try pair.b.feeds().keys.sorted() == [Pair.feed])
    }

    @Test("this device never writes through a link or into a FIFO someone put in its folder")
    func ownFolderForgeries() throws {
        let scratch = try Scratch()
        defer { scratch.cleanUp() }
        let folder = try scratch.folder("folder")
        let store = try LibraryStore.open(path: scratch.url.appendingPathComponent("l.db").path)
        try store.subscribe(Subscription(url: "https://a.example/feed"))
        let first = try SyncEngine(store: store, folder: folder).run()
        let own = folder.appendingPathComponent(first.device)
        // The next segment's name, as a link to a file of the user's.
        let victim = scratch.url.appendingPathComponent("victim")
        try Data("precious\n".utf8).write(to: victim)
        let listing = DeviceFolder(url: own).list()
        let next = (listing.snapshots.last ?? 0) + 1
        try FileManager.default.createSymbolicLink(
            atPath: own.appendingPathComponent(DeviceFolder.segmentName(next)).path, withDestinationPath: victim.path)
        try store.subscribe(Subscription(url: "https://b.example/feed"))
        #expect(throws: (any Error).self) { try SyncEngine(store: store, folder: folder).run() }
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious\n")
        // The whole folder replaced by a link to another: refused, nothing written there.
        try FileManager.default.removeItem(at: own)
        let elsewhere = try scratch.folder("elsewhere")
        try FileManager.default.createSymbolicLink(atPath: own.path, withDestinationPath: elsewhere.path)
        #expect(throws: SyncError.self) { try SyncEngine(store: store, folder: folder).run() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
    }

    @Test("another device's unsubscription keeps the starred articles here, in Starred; subscribing again brings the feed back")
    func unsubscriptionKeepsStarred() throws {
        let pair = try Pair()
        defer { pair.scratch.cleanUp() }
        try pair.a.store.subscribe(Subscription(url: Pair.feed))
        try pair.a.reload(Pair.feed, guids: ["1", "2", "3"])
        try pair.a.sync(at: 1_000)
        try pair.b.sync(at: 1_001)
        try pair.carry(from: pair.a, to: pair.b)
        try pair.b.sync(at: 1_002)
        try pair.b.reload(Pair.feed, guids: ["1", "2", "3"])
        try pair.b.store.setStarred(true, articleID: try #require(try pair.b.articleID(Pair.feed, "2")))
        // On a, the feed goes (before b's star reached it).
        try pair.a.store.unsubscribe(url: Pair.feed)
        try pair.a.sync(at: 2_000)
        try pair.carry(from: pair.a, to: pair.b)
        let report = try pair.b.sync(at: 3_000)
        #expect(report.applied.unsubscribed == 1)
        #expect(report.applied.articlesRemoved == 2)
        #expect(report.applied.kept.count == 1, "\(report.applied.kept)")
        #expect(try pair.b.feeds().isEmpty, "the feed left the subscriptions")
        #expect(try pair.b.store.reloadTargets().isEmpty, "and the reloads")
        #expect(try pair.b.store.feedSummaries().isEmpty, "and the feed list")
        let starred = try pair.b.flags(archived: true)
        #expect(starred.keys.sorted() == ["\(Pair.feed) 2"] && starred.values.allSatisfy(\.starred))
        #expect(try pair.b.store.isArchived(url: Pair.feed))
        // Subscribed again (here): a new subscription, fetched whole.
        #expect(try pair.b.store.subscribe(Subscription(url: Pair.feed)) == .new)
        #expect(try pair.b.feeds().keys.sorted() == [Pair.feed])
        #expect(try !pair.b.store.isArchived(url: Pair.feed))
    }

    @Test("an archived feed keeps starred articles only: unstarred, an article goes, and the feed with the last")
    func archiveTidies() throws {
        let pair = try Pair()
        defer { pair.scratch.cleanUp() }
        let store = pair.b.store
        try store.subscribe(Subscription(url: Pair.feed))
        try pair.b.reload(Pair.feed, guids: ["1", "2", "3"])
        for guid in ["1", "2"] {
            try store.setStarred(true, articleID: try #require(try pair.b.articleID(Pair.feed, guid)))
        }
        #expect(try store.unsubscribeKeepingStarred(url: Pair.feed)! == (1, 2))
        try store.setStarred(false, articleID: try #require(try pair.b.articleID(Pair.feed, "1")))
        try store.tidyArchivedFeeds()
        #expect(try pair.b.flags(archived: true).keys.sorted() == ["\(Pair.feed) 2"])
        try store.setStarred(false, articleID: try #require(try pair.b.articleID(Pair.feed, "2")))
        try store.tidyArchivedFeeds()
        #expect(try pair.b.flags(archived: true).isEmpty)
        #expect(try store.articleCount(url: Pair.feed) == nil, "the feed went with its last article")
    }
}
