import Foundation
import HeraldCore
import Testing

@testable import HeraldStore
@testable import HeraldSync

/// The registers past read, star, sub and tags: the config's lines kept out, titles, moves
/// followed, mark-all-read as one operation per feed.
@Suite("Sync of titles, moves and mark-all-read")
@DatabaseActor
struct SyncKindsTests {
    static let feed = Pair.feed
    static let moved = "https://new.example/feed.xml"

    /// Both machines subscribed (through `a`'s first sync) and in step, clock at 10_000.
    static func pair(guids: [String] = []) throws -> Pair {
        let pair = try Pair()
        try pair.a.store.subscribe(Subscription(url: feed, tags: ["news"]))
        try pair.a.sync(at: 1_000)
        try pair.b.sync(at: 2_000)
        try exchange(pair, at: 3_000)
        for machine in [pair.a, pair.b] where !guids.isEmpty { try machine.reload(feed, guids: guids) }
        try exchange(pair, at: 4_000)
        return pair
    }

    /// `a` syncs, its files reach `b`, `b` syncs, its files reach `a`, `a` syncs.
    static func exchange(_ pair: Pair, at time: Int64) throws {
        try pair.a.sync(at: time)
        try pair.carry(from: pair.a, to: pair.b)
        try pair.b.sync(at: time + 1)
        try pair.carry(from: pair.b, to: pair.a)
        try pair.a.sync(at: time + 2)
    }

    static func line(_ key: FeedSettingKey, _ value: String, url: String = feed) -> FeedSettingLine {
        FeedSettingLine(url: url, key: key, value: value, file: "config", line: 1, column: 1)
    }

    static func title(_ machine: Machine, _ url: String = feed) throws -> String? {
        try machine.store.db.prepare("SELECT title FROM feeds WHERE url = ?1").bind(.text(url)).firstRow {
            $0.text(0) ?? ""
        }
    }

    @Test("two configs with different feed lines do not fight: each wins locally, neither is sent")
    func configLinesStayLocal() throws {
        let pair = try Self.pair()
        defer { pair.scratch.cleanUp() }
        try pair.a.store.syncConfigFeedSettings([Self.line(.tags, "work"), Self.line(.title, "A's name")])
        try pair.b.store.syncConfigFeedSettings([Self.line(.tags, "home")])
        #expect(try pair.a.store.capturedChanges().isEmpty && pair.b.store.capturedChanges().isEmpty)
        for round in 0..<3 { try Self.exchange(pair, at: 10_000 + Int64(round) * 10) }
        #expect(try pair.a.feeds() == [Self.feed: "work"])
        #expect(try pair.b.feeds() == [Self.feed: "home"])
        #expect(try Self.title(pair.b) == Self.feed)
        // What the user sets in the library is sent, and waits under the other's config line.
        try pair.a.store.setFeedSetting(url: Self.feed, key: .tags, value: "mine, shared")
        #expect(try pair.a.store.capturedChanges().map(\.change.value) == ["mine\tshared"])
        try Self.exchange(pair, at: 20_000)
        #expect(try pair.a.feeds() == [Self.feed: "work"])
        #expect(try pair.b.feeds() == [Self.feed: "home"])
        try pair.b.store.syncConfigFeedSettings([])
        #expect(try pair.b.feeds() == [Self.feed: "mine\tshared"])
        #expect(try pair.b.store.capturedChanges().isEmpty)
    }

    @Test("a title set with feed set reaches the other machine, and so does clearing it")
    func renameSyncs() throws {
        let pair = try Self.pair()
        defer { pair.scratch.cleanUp() }
        try pair.a.store.setFeedSetting(url: Self.feed, key: .title, value: "Morning news")
        try Self.exchange(pair, at: 10_000)
        #expect(try Self.title(pair.b) == "Morning news")
        #expect(try pair.b.store.storedFeedSettings(url: Self.feed).map(\.value) == ["Morning news"])
        try pair.b.store.unsetFeedSetting(url: Self.feed, key: .title)
        try Self.exchange(pair, at: 20_000)
        #expect(try Self.title(pair.a) == Self.feed)
        #expect(try pair.a.store.storedFeedSettings(url: Self.feed).isEmpty)
    }

    @Test("a feed moved by a permanent redirect moves on the other machine, its flags with it")
    func moveFollowed() throws {
        let pair = try Self.pair(guids: ["1", "2", "3"])
        defer { pair.scratch.cleanUp() }
        try pair.b.store.setRead(true, articleID: try #require(try pair.b.articleID(Self.feed, "1")))
        #expect(try pair.a.store.moveFeed(from: Self.feed, to: Self.moved))
        try pair.a.store.setStarred(true, articleID: try #require(try pair.a.articleID(Self.moved, "2")))
        try Self.exchange(pair, at: 10_000)
        for machine in [pair.a, pair.b] {
            #expect(try machine.feeds() == [Self.moved: "news"])
            let flags = try machine.flags()
            #expect(flags["\(Self.moved) 1"]! == (true, false))
            #expect(flags["\(Self.moved) 2"]! == (false, true))
        }
        #expect(try pair.b.store.syncBacklog().pending == 0)
    }

    static func operation(
        _ kind: SyncChange.Kind, _ url: String, guid: String = "", _ value: String, stamp: Int64
    ) -> SyncOperation {
        SyncOperation(
            change: SyncChange(kind: kind, feedURL: url, guid: guid, value: value), stamp: stamp << 16,
            device: "other")
    }

    @Test("a flag keyed by the new URL that arrives before the move waits, then applies")
    func flagBeforeMove() throws {
        let pair = try Self.pair(guids: ["1", "2"])
        defer { pair.scratch.cleanUp() }
        let store = pair.b.store
        try store.mergeOthers([Self.operation(.read, Self.moved, guid: "2", "1", stamp: 50_000)], cursor: nil)
        #expect(try store.applySyncState().pending == 0)  // no such feed here yet: not counted
        #expect(try pair.b.flags()["\(Self.feed) 2"]!.read == false)
        try store.mergeOthers([Self.operation(.moved, Self.feed, Self.moved, stamp: 40_000)], cursor: nil)
        let applied = try store.applySyncState()
        #expect(applied.moved == 1)
        #expect(try pair.b.flags()["\(Self.moved) 2"]!.read == true)
        // A later flag keyed by the old URL reaches the moved feed too.
        try store.mergeOthers([Self.operation(.star, Self.feed, guid: "1", "1", stamp: 60_000)], cursor: nil)
        _ = try store.applySyncState()
        #expect(try pair.b.flags()["\(Self.moved) 1"]! == (false, true))
    }

    @Test("a move to an address already subscribed drops the old feed; a hostile address is no move")
    func moveOntoSubscribedAndHostile() throws {
        let pair = try Self.pair(guids: ["1"])
        defer { pair.scratch.cleanUp() }
        let store = pair.b.store
        for bad in ["file:///etc/passwd", "javascript:alert(1)", "https://x.example/a b", ""] {
            try store.mergeOthers([Self.operation(.moved, Self.feed, bad, stamp: 30_000)], cursor: nil)
            _ = try store.applySyncState()
            #expect(try pair.b.feeds().keys.sorted() == [Self.feed], "\(bad)")
        }
        try store.subscribe(Subscription(url: Self.moved, tags: []))
        try store.mergeOthers([Self.operation(.moved, Self.feed, Self.moved, stamp: 40_000)], cursor: nil)
        #expect(try store.applySyncState().moved == 1)
        #expect(try pair.b.feeds().keys.sorted() == [Self.moved])
    }

    @Test("mark-all-read is one operation per feed; a later unread wins; undo syncs")
    func markAllReadIsOneOperation() throws {
        let pair = try Self.pair(guids: ["1", "2", "3", "4"])
        defer { pair.scratch.cleanUp() }
        // b reads then unreads 3 before a marks the feed read: a's mark-all-read is later.
        let three = try #require(try pair.b.articleID(Self.feed, "3"))
        try pair.b.store.setRead(true, articleID: three)
        try pair.b.store.setRead(false, articleID: three)
        try Self.exchange(pair, at: 10_000)
        let ids = try pair.a.store.setFlag(.read, true, in: .feed(try pair.a.store.feedID(url: Self.feed)))
        #expect(ids.count == 4)
        let captured = try pair.a.store.capturedChanges().map(\.change)
        #expect(captured.map(\.kind) == [.readall] && captured.map(\.feedURL) == [Self.feed])
        try Self.exchange(pair, at: 20_000)
        #expect(try pair.b.flags().values.allSatisfy(\.read))
        // An article b fetches later, dated before the cutoff, is covered too.
        try pair.b.reload(Self.feed, guids: ["5"])
        try Self.exchange(pair, at: 30_000)
        #expect(try pair.b.flags()["\(Self.feed) 5"]!.read)
        // A later unread of one article wins over the mark-all-read.
        try pair.b.store.setRead(false, articleID: try #require(try pair.b.articleID(Self.feed, "2")))
        try Self.exchange(pair, at: 40_000)
        #expect(try pair.a.flags()["\(Self.feed) 2"]!.read == false)
        #expect(try pair.a.flags()["\(Self.feed) 1"]!.read == true)
        // Undo of the mark-all-read: the articles it marked are unread again everywhere.
        try _ = pair.a.store.setFlag(.read, false, articleIDs: ids)
        try Self.exchange(pair, at: 50_000)
        for guid in ["1", "2", "3", "4"] {
            #expect(try pair.b.flags()["\(Self.feed) \(guid)"]!.read == false, "\(guid)")
        }
        // A query's mark-read stays per article (its result differs per device).
        let starred = try pair.a.store.setFlag(.read, true, in: .starred)
        #expect(starred.isEmpty)
    }

    @Test("an article dated in the future does not stretch a mark-all-read over what comes later")
    func markAllReadWithFutureDate() throws {
        let pair = try Self.pair(guids: ["1"])
        defer { pair.scratch.cleanUp() }
        let now = Date().timeIntervalSince1970
        func fetch(_ machine: Machine, _ guid: String, daysAhead: Double) throws {
            try machine.store.upsertArticles(
                feedURL: Self.feed,
                items: [
                    ParsedItem(
                        id: guid, title: guid,
                        published: Date(timeIntervalSince1970: now + daysAhead * 86_400),
                        text: "")
                ])
        }
        try fetch(pair.a, "2099", daysAhead: 3_650)
        try Self.exchange(pair, at: 10_000)
        _ = try pair.a.store.setFlag(.read, true, in: .feed(try pair.a.store.feedID(url: Self.feed)))
        let captured = try pair.a.store.capturedChanges().map(\.change)
        #expect(captured.map(\.kind) == [.readall, .read] && captured.last?.guid == "2099")
        #expect(Double(try #require(Int64(captured[0].value))) <= now + 60)
        // b has the future-dated article too; one dated tomorrow comes later and stays unread.
        try fetch(pair.b, "2099", daysAhead: 3_650)
        try fetch(pair.b, "tomorrow", daysAhead: 1)
        try Self.exchange(pair, at: 20_000)
        let flags = try pair.b.flags()
        #expect(flags["\(Self.feed) 1"]!.read && flags["\(Self.feed) 2099"]!.read)
        #expect(flags["\(Self.feed) tomorrow"]!.read == false)
    }

    @Test(
        "a flag or subscription state that is not 1 or 0, merged by whoever, is never applied and never wins")
    func badValuesNeverApply() throws {
        let pair = try Self.pair(guids: ["1"])
        defer { pair.scratch.cleanUp() }
        let store = pair.a.store
        try store.setRead(true, articleID: try #require(try pair.a.articleID(Self.feed, "1")))
        _ = try store.applySyncState()
        // Straight into the store, past the files' check: later stamps than anything here.
        try store.mergeOthers(
            [
                SyncOperation(
                    change: SyncChange(kind: .read, feedURL: Self.feed, guid: "1", value: "maybe"),
                    stamp: 1 << 50, device: "ffff"),
                SyncOperation(
                    change: SyncChange(kind: .star, feedURL: Self.feed, guid: "2", value: "yes"),
                    stamp: 1 << 50, device: "ffff"),
                SyncOperation(
                    change: SyncChange(kind: .sub, feedURL: Self.feed, value: "maybe"), stamp: 1 << 50,
                    device: "ffff"),
            ], cursor: nil)
        _ = try store.applySyncState()
        #expect(try pair.a.flags()["\(Self.feed) 1"]?.read == true)
        #expect(try pair.a.feeds().keys.contains(Self.feed), "still subscribed")
        let states = try store.syncStates().values.filter { $0.change.feedURL == Self.feed }
        #expect(!states.contains { $0.change.value == "maybe" && $0.change.kind != .star }, "never won")
    }
}

@Suite("Moves from another device, many")
@DatabaseActor
struct ManyMovesTests {
    typealias Move = LibraryStore.Move

    @Test("a chain of 20,000 moves and a loop of 20,000 resolve, each URL walked once")
    func longChainAndLoop() {
        var moves: [String: Move] = [:]
        for index in 0..<20_000 {
            moves["https://chain.example/\(index)"] = Move(
                to: "https://chain.example/\(index + 1)", order: (Int64(index), "d"), applied: false)
        }
        // A loop whose move into member 7 is the latest.
        for index in 0..<20_000 {
            moves["https://loop.example/\(index)"] = Move(
                to: "https://loop.example/\((index + 1) % 20_000)", order: (index == 6 ? 1_000_000 : Int64(index), "d"),
                applied: false)
        }
        let found = LibraryStore.destinations(of: moves)
        #expect(found["https://chain.example/0"] == "https://chain.example/20000")
        #expect(found["https://chain.example/19999"] == "https://chain.example/20000")
        #expect(found["https://loop.example/0"] == "https://loop.example/7")
        #expect(found["https://loop.example/7"] == nil, "the loop's winner stays where it is")
        #expect(found.count == 20_000 + 19_999)
    }
}
