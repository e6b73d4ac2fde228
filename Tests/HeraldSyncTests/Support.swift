import Foundation
import HeraldCore

@testable import HeraldStore
@testable import HeraldSync

/// A scratch directory, removed by `cleanUp()`.
struct Scratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-sync-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func folder(_ name: String) throws -> URL {
        let folder = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    func cleanUp() { try? FileManager.default.removeItem(at: url) }
}

/// One machine: a real library file and its own copy of the sync folder.
@DatabaseActor
final class Machine {
    let store: LibraryStore
    let folder: URL
    var device = ""
    var segmentLimit = 1 << 20
    var compactionFloor = 64 << 10

    init(_ scratch: Scratch, _ name: String) throws {
        store = try LibraryStore.open(path: scratch.url.appendingPathComponent("\(name).db").path)
        folder = try scratch.folder("\(name)-folder")
    }

    /// Syncs with the clock at `now` (unix milliseconds).
    @discardableResult
    func sync(at now: Int64 = HybridClock.wallClock()) throws -> SyncReport {
        var engine = SyncEngine(store: store, folder: folder)
        engine.now = { now }
        engine.segmentLimit = segmentLimit
        engine.compactionFloor = compactionFloor
        let report = try engine.run()
        device = report.device
        return report
    }

    /// The feed's articles with these guids, as a reload stores them.
    func reload(_ url: String, guids: [String]) throws {
        try store.upsertArticles(
            feedURL: url,
            items: guids.map {
                ParsedItem(
                    id: $0, title: "Article \($0)", published: Date(timeIntervalSince1970: 1_790_000_000),
                    text: "")
            })
    }

    func articleID(_ url: String, _ guid: String) throws -> String? {
        try store.db.prepare(
            "SELECT a.id FROM articles a JOIN feeds f ON f.id = a.feed_id WHERE f.url = ?1 AND a.guid = ?2"
        )
        .bind(.text(url), .text(guid)).firstRow { String($0.int64(0)) }
    }

    /// Every article's flags: feed URL, guid → (read, starred); those of the feeds
    /// subscribed to, or (`archived`) those kept for their star of the feeds unsubscribed
    /// from on another device.
    func flags(archived: Bool = false) throws -> [String: (read: Bool, starred: Bool)] {
        let statement = try store.db.prepare(
            """
            SELECT f.url, a.guid, a.read, a.starred FROM articles a JOIN feeds f ON f.id = a.feed_id
            WHERE EXISTS (SELECT 1 FROM feed_settings s WHERE s.feed_id = f.id AND s.key = 'archived') = ?1
            """)
        try statement.bind(.bool(archived))
        var flags: [String: (read: Bool, starred: Bool)] = [:]
        while try statement.step() {
            flags[(statement.text(0) ?? "") + " " + (statement.text(1) ?? "")] = (
                statement.bool(2), statement.bool(3)
            )
        }
        return flags
    }

    /// Subscriptions: URL → tags as stored.
    func feeds() throws -> [String: String] {
        let statement = try store.db.prepare(
            """
            SELECT url, tags FROM feeds f
            WHERE NOT EXISTS (SELECT 1 FROM feed_settings s WHERE s.feed_id = f.id AND s.key = 'archived')
            """)
        var feeds: [String: String] = [:]
        while try statement.step() { feeds[statement.text(0) ?? ""] = statement.text(1) ?? "" }
        return feeds
    }
}

/// A small deterministic generator (SplitMix64), so a failing seed can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SyncOperation {
    /// A read flag of article `guid` of one feed, for the merge tests' tie-breaking cases.
    static func read(_ value: String, _ stamp: Int64, _ device: String, guid: String = "g") -> SyncOperation {
        SyncOperation(
            change: SyncChange(kind: .read, feedURL: "https://a.example/feed", guid: guid, value: value),
            stamp: stamp, device: device)
    }
}
