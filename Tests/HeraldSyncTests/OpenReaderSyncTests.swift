import Foundation
import HeraldCore
import Synchronization
import Testing

@testable import HeraldStore
@testable import HeraldSync

/// What the open reader's sync needs of the engine and the library: the ids of the articles
/// a sync changed, a library copied to another machine taking its own device id, a feed row
/// cache that another connection's sync cannot leave stale, and the folder watcher.
@Suite("Sync under the open reader")
struct OpenReaderSyncTests {
    @Test("a sync names the articles whose flags it changed, by flag and new value")
    @DatabaseActor
    func changedArticles() throws {
        let pair = try Pair()
        defer { pair.scratch.cleanUp() }
        for machine in [pair.a, pair.b] {
            try machine.store.subscribe(Subscription(url: Pair.feed))
            try machine.reload(Pair.feed, guids: ["1", "2", "3"])
        }
        try pair.b.store.setRead(true, articleID: try #require(try pair.b.articleID(Pair.feed, "3")))
        try pair.a.sync(at: 1_000)
        try pair.b.sync(at: 1_001)
        try pair.a.store.setRead(true, articleID: try #require(try pair.a.articleID(Pair.feed, "1")))
        try pair.a.store.setStarred(true, articleID: try #require(try pair.a.articleID(Pair.feed, "2")))
        let third = try #require(try pair.a.articleID(Pair.feed, "3"))
        try pair.a.store.setRead(true, articleID: third)
        try pair.a.store.setRead(false, articleID: third)
        try pair.a.sync(at: 2_000)
        try pair.carry(from: pair.a, to: pair.b)
        let applied = try pair.b.sync(at: 3_000).applied
        let ids = try ["1", "2", "3"].map { try #require(try pair.b.articleID(Pair.feed, $0)) }
        #expect(applied.flagsChanged == 3)
        #expect(
            Set(applied.changedFlags) == [
                .init(flag: .read, value: true, articleIDs: [ids[0]]),
                .init(flag: .read, value: false, articleIDs: [ids[2]]),
                .init(flag: .starred, value: true, articleIDs: [ids[1]]),
            ])
        let result = FolderSync.result(try pair.b.sync(at: 4_000))
        #expect(result.flagsChanged == 0 && result.flags.isEmpty && !result.changedLibrary)
    }

    @Test("a library file copied to another file or machine takes a new device id and keeps syncing")
    @DatabaseActor
    func copiedLibrary() throws {
        let scratch = try Scratch()
        defer { scratch.cleanUp() }
        let folder = try scratch.folder("shared")
        let original = try LibraryStore.open(path: scratch.url.appendingPathComponent("original.db").path)
        try original.subscribe(Subscription(url: Pair.feed))
        try original.upsertArticles(
            feedURL: Pair.feed,
            items: ["1", "2"].map { ParsedItem(id: $0, title: "Article \($0)", published: nil, text: "") })
        func engine(_ store: LibraryStore, host: String = "laptop") -> SyncEngine {
            var engine = SyncEngine(store: store, folder: folder)
            engine.host = host
            return engine
        }
        let first = try engine(original).run()
        #expect(first.copiedFrom == nil)
        #expect(try engine(original).run().copiedFrom == nil, "the same file on the same machine")
        let own = folder.appendingPathComponent(first.device)
        let ownFiles = try FileManager.default.contentsOfDirectory(atPath: own.path).sorted()

        // cp to another file (what copying to another machine gives too): a new inode.
        try original.checkpoint()
        let copyPath = scratch.url.appendingPathComponent("copy.db").path
        try FileManager.default.copyItem(atPath: original.path, toPath: copyPath)
        let copy = try LibraryStore.open(path: copyPath)
        let id = try #require(
            try copy.db.prepare("SELECT id FROM articles WHERE guid = '2'").firstRow { $0.int64(0) })
        try copy.setRead(true, articleID: String(id))
        let copied = try engine(copy).run()
        #expect(copied.copiedFrom == first.device)
        #expect(copied.device != first.device && SyncEngine.isDeviceID(copied.device))
        #expect(
            !copied.firstSync && copied.written == 1, "its change is written, its state not stamped again")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: own.path).sorted() == ownFiles,
            "the copy never writes the original's folder")
        #expect(try engine(copy).run().copiedFrom == nil, "once is enough")

        // The original keeps its id and reads the copy's change.
        let back = try engine(original).run()
        #expect(back.copiedFrom == nil && back.device == first.device)
        #expect(try original.db.integer("SELECT read FROM articles WHERE guid = '2'") == 1)
        // The same file on a machine of another name is a copy too.
        #expect(try engine(original, host: "desktop").run().copiedFrom == first.device)
    }

    @Test("another connection's syncs that remove a feed and add it back leave the reader no stale row id")
    @DatabaseActor
    func feedRowCache() throws {
        let pair = try Pair()
        defer { pair.scratch.cleanUp() }
        let other = "https://other.example/feed.xml"
        try pair.b.store.subscribe(Subscription(url: Pair.feed))
        try pair.b.store.subscribe(Subscription(url: other))
        try pair.b.sync(at: 1_000)
        try pair.carry(from: pair.b, to: pair.a)
        try pair.a.sync(at: 1_001)
        // The open reader's connection to machine a's library; `pair.a` stands for
        // `herald sync` run by cron on the same file.
        let reader = try LibraryStore.open(path: pair.a.store.path)
        try reader.upsertArticles(
            feedURL: Pair.feed, items: [ParsedItem(id: "1", title: "Old", published: nil, text: "")])
        let before = try reader.feedRowID(Pair.feed)
        try pair.b.store.unsubscribe(url: Pair.feed)
        try pair.b.sync(at: 2_000)
        try pair.carry(from: pair.b, to: pair.a)
        #expect(try pair.a.sync(at: 2_001).applied.unsubscribed == 1)
        try pair.b.store.subscribe(Subscription(url: Pair.feed))
        try pair.b.sync(at: 3_000)
        try pair.carry(from: pair.b, to: pair.a)
        #expect(try pair.a.sync(at: 3_001).applied.subscribed == 1)
        #expect(try pair.a.store.feedRowID(Pair.feed) != before, "the feed came back on a row of its own")
        // The reader reloads the feed: its articles go to the feed's row as it is now.
        try reader.upsertArticles(
            feedURL: Pair.feed, items: [ParsedItem(id: "2", title: "New", published: nil, text: "")])
        let titles = try reader.articles(in: .feed(try reader.feedID(url: Pair.feed)), page: .first(limit: 10)).map(\.title)
        #expect(titles == ["New"])
    }
}
