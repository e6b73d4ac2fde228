import Foundation
import HeraldCore

/// The library's side of sync: the captured changes, the merged last-writer-wins state and
/// the other devices' cursors (tables of migration 10). The folder, the files and the clock
/// are HeraldSync's.
extension LibraryStore {
    // MARK: Settings

    /// A sync setting kept in the library (`meta`, keys `sync.*`).
    public func syncValue(_ key: String) throws -> String? {
        try db.prepare("SELECT value FROM meta WHERE key = ?1").bind(.text("sync." + key)).firstRow {
            $0.text(0)
        } ?? nil
    }

    public func setSyncValue(_ key: String, _ value: String) throws {
        try db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)").bind(
            .text("sync." + key), .text(value)
        )
        .run()
    }

    /// Turns capture on for device `id` (the first sync) and returns the library's state as
    /// changes, to bring it in: its subscriptions with their tags, and every read or starred
    /// article. What was captured before is dropped: this state includes it.
    public func startSyncing(device id: String) throws -> [SyncChange] {
        try db.transaction {
            try setSyncValue("device", id)
            try setSyncValue("capture", "1")
            try db.execute("DELETE FROM sync_outbox")
            var changes = try userFeedChanges()
            let flags = try db.prepare(
                """
                SELECT f.url, a.guid, a.read, a.starred FROM articles a JOIN feeds f ON f.id = a.feed_id
                WHERE f.demo = 0 AND \(notAccountFeed("f")) AND (a.read = 1 OR a.starred = 1) ORDER BY a.id
                """)
            while try flags.step() {
                let (url, guid) = (flags.text(0) ?? "", flags.text(1) ?? "")
                if flags.bool(2) {
                    changes.append(SyncChange(kind: .read, feedURL: url, guid: guid, value: "1"))
                }
                if flags.bool(3) {
                    changes.append(SyncChange(kind: .star, feedURL: url, guid: guid, value: "1"))
                }
            }
            return changes
        }
    }

    /// Gives this library a new device id (it is a copy of another device's library): the
    /// state, the captured changes, the clock and the other devices' cursors stay; the new
    /// device starts its own files; the old id becomes another device, whose files are read
    /// from the start (what they hold is known here already, so nothing of it wins again).
    public func adoptDeviceID(_ id: String) throws {
        try db.transaction {
            try setSyncValue("device", id)
            try db.prepare("DELETE FROM meta WHERE key IN ('sync.segment', 'sync.closed-segment')").run()
            try db.prepare("DELETE FROM sync_devices WHERE device = ?1").bind(.text(id)).run()
        }
    }

    // MARK: This device's changes

    /// The oldest captured changes, in capture order, at most `limit`.
    public func capturedChanges(limit: Int = 10_000) throws -> [CapturedChange] {
        let statement = try db.prepare(
            "SELECT seq, kind, feed_url, guid, value, at FROM sync_outbox ORDER BY seq LIMIT ?1")
        try statement.bind(.integer(Int64(limit)))
        var changes: [CapturedChange] = []
        while try statement.step() {
            guard let kind = SyncChange.Kind(rawValue: statement.text(1) ?? "") else { continue }
            changes.append(
                CapturedChange(
                    sequence: statement.int64(0),
                    change: SyncChange(
                        kind: kind, feedURL: statement.text(2) ?? "", guid: statement.text(3) ?? "",
                        value: statement.text(4) ?? ""),
                    time: statement.int64(5)))
        }
        return changes
    }

    /// Records this device's stamped operations (already in the library) as the state of
    /// their keys, and forgets the captured changes up to `sequence`, in one transaction.
    public func recordOwn(_ operations: [SyncOperation], through sequence: Int64?) throws {
        try db.transaction {
            // Prepared once for the batch (the statement cache would hash this SQL per operation).
            let statement = try db.prepare(Self.upsertStateSQL)
            for operation in operations { try merge(operation, applied: true, with: statement) }
            if let sequence {
                try db.prepare("DELETE FROM sync_outbox WHERE seq <= ?1").bind(.integer(sequence)).run()
            }
        }
    }

    /// Writes `operation` as its key's state if it wins over the one stored. An
    /// unsubscription applied here (this device's own) leaves the feed's other states to be
    /// applied again should it come back.
    @discardableResult
    func merge(_ operation: SyncOperation, applied: Bool, with statement: SQLiteStatement) throws
        -> Bool
    {
        let change = operation.change
        statement.reset()
        try statement.bind(
            .text(change.feedURL), .text(change.guid), .text(change.kind.rawValue), .text(change.value),
            .integer(operation.stamp), .text(operation.device), .bool(applied)
        ).run()
        let won = db.changes > 0
        if won, applied, change.kind == .sub, change.value == "0" { try reapplyFeedStates(change.feedURL) }
        return won
    }

    static let upsertStateSQL = """
        INSERT INTO sync_state(feed_url, guid, kind, value, stamp, device, applied)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
        ON CONFLICT(feed_url, guid, kind) DO UPDATE SET value = excluded.value, stamp = excluded.stamp,
            device = excluded.device, applied = excluded.applied
        WHERE (excluded.stamp, excluded.device) > (sync_state.stamp, sync_state.device)
        """

    private func reapplyFeedStates(_ url: String) throws {
        try db.prepare(
            "UPDATE sync_state SET applied = 0 WHERE feed_url = ?1 AND kind != 'sub' AND applied != 0"
        ).bind(
            .text(url)
        )
        .run()
    }

    // MARK: Applying

    /// Applies every merged state the library does not show yet, without capturing it:
    /// moves first, then subscriptions, then titles and tags, then flags of the articles that
    /// are here, then mark-all-reads. States of
    /// articles not fetched yet stay pending and apply at a later call, after a reload.
    ///
    /// The articles' flags are found from the articles (each looks its keys up), not by
    /// scanning the state: flags for articles this library does not hold (a new machine's,
    /// those retention removed) only grow, and a scan of them cost tens of milliseconds per
    /// statement with a few hundred thousand. The feeds' states come from their own index.
    public func applySyncState() throws -> SyncApplyResult {
        let result = try db.transaction {
            let capture = try syncValue("capture")
            try setSyncValue("capture", "0")
            var result = SyncApplyResult()
            try applyMoves(&result)
            try applySubscriptions(&result)
            try applyFeedStates(&result)
            var carried = 0
            for (kind, column, flag) in [("read", "read", ArticleFlag.read), ("star", "starred", .starred)] {
                // The articles changed, for the open reader's screen (up to a limit: past it,
                // the reader reads its lists again).
                let changed = try db.prepare(Self.applyFlagSQL(kind: kind, column: column))
                var ids: [Bool: [String]] = [:]
                while try changed.step() {
                    result.flagsChanged += 1
                    guard carried < LibrarySyncResult.idLimit else { continue }
                    ids[changed.bool(1), default: []].append(String(changed.int64(0)))
                    carried += 1
                }
                for value in [true, false] {
                    guard let list = ids[value] else { continue }
                    result.changedFlags.append(.init(flag: flag, value: value, articleIDs: list))
                }
                try db.execute(Self.markFlagsAppliedSQL(kind: kind))
            }
            try applyReadAll(&result)
            // An archived feed keeps only what is starred (flags were just applied).
            try tidyArchivedFeeds()
            result.pending = try waitingStates()
            if let capture { try setSyncValue("capture", capture) }
            return result
        }
        // Feeds came and went: no URL may keep a row id it had before (a feed removed and
        // added again has a new one).
        if result.subscribed > 0 || result.unsubscribed > 0 { forgetFeedRowIDs() }
        return result
    }

    /// Sets `column` of the articles here to their merged `kind` flag not applied yet (a
    /// later mark-all-read of the feed covers a read flag), returning the ones changed. The
    /// articles lead: each looks its key up in the state. A value other than "1" or "0"
    /// (which no record now brings: `SyncRecord.fields` refuses it) is never applied.
    static func applyFlagSQL(kind: String, column: String) -> String {
        """
        UPDATE articles SET \(column) = CAST(s.value AS INTEGER)
        FROM feeds f CROSS JOIN sync_state s ON s.feed_url = f.url
        WHERE s.applied = 0 AND s.kind = '\(kind)' AND s.value IN ('0', '1') AND articles.feed_id = f.id
            AND articles.guid = s.guid AND articles.\(column) != CAST(s.value AS INTEGER)
            AND (s.kind != 'read' OR NOT \(Self.coveredByLaterReadAll))
        RETURNING articles.id, articles.\(column)
        """
    }

    /// Marks applied the merged `kind` flags of the articles here.
    static func markFlagsAppliedSQL(kind: String) -> String {
        """
        UPDATE sync_state SET applied = 1 WHERE applied = 0 AND kind = '\(kind)'
            AND (feed_url, guid) IN (SELECT f.url, a.guid FROM articles a JOIN feeds f ON f.id = a.feed_id)
        """
    }

    private func applySubscriptions(_ result: inout SyncApplyResult) throws {
        let statement = try db.prepare(
            "SELECT feed_url, value FROM sync_state WHERE applied = 0 AND guid = '' AND kind = 'sub'")
        var subscriptions: [(String, Bool?)] = []
        while try statement.step() {
            // "1" or "0"; any other value is no state, applied as nothing.
            let value = statement.text(1)
            subscriptions.append((statement.text(0) ?? "", value == "1" ? true : value == "0" ? false : nil))
        }
        for (url, state) in subscriptions {
            guard let subscribed = state else {
                try db.prepare(
                    "UPDATE sync_state SET applied = 1 WHERE feed_url = ?1 AND guid = '' AND kind = 'sub'"
                ).bind(.text(url)).run()
                continue
            }
            if subscribed, let why = Self.syncRefusal(url) {
                // Another device's files are hostile: an address a feed may not have (`file:`,
                // a device) is not subscribed to, and said once (the state is marked applied).
                result.refused.append("\(URLText.escapingUnsafe(String(url.prefix(300)))): \(why)")
            } else if subscribed {
                let present = try hasFeed(url: url)
                if !present, try unarchive(url: url) {
                    try db.prepare("UPDATE feeds SET demo = 0 WHERE url = ?1").bind(.text(url)).run()
                    try reapplyFeedStates(url)
                    result.subscribed += 1
                } else if present {
                    try db.prepare("UPDATE feeds SET demo = 0 WHERE url = ?1").bind(.text(url)).run()
                } else {
                    try db.prepare(
                        """
                        INSERT INTO feeds(url, title, position)
                            VALUES (?1, ?1, \(Self.nextPosition))
                        """
                    ).bind(.text(url)).run()
                    try markInitialized()
                    try reapplyFeedStates(url)
                    result.subscribed += 1
                }
            } else if try hasFeed(url: url), let (removed, kept) = try unsubscribeKeepingStarred(url: url) {
                try reapplyFeedStates(url)
                result.unsubscribed += 1
                result.articlesRemoved += removed
                if kept > 0 {
                    // Starred articles go only by the user's own hand: they stay, said once.
                    result.kept.append(
                        "\(URLText.escapingUnsafe(url)): unsubscribed on another device; its \(kept) starred "
                            + "\(kept == 1 ? "article stays" : "articles stay") in Starred")
                }
            }
            try db.prepare(
                "UPDATE sync_state SET applied = 1 WHERE feed_url = ?1 AND guid = '' AND kind = 'sub'"
            )
            .bind(.text(url)).run()
        }
    }

    /// Why `url` may not be subscribed to from another device, in words (nil: it may).
    static func syncRefusal(_ url: String) -> String? {
        do throws(FeedAddress.Refusal) {
            return try FeedAddress.check(url, from: .synced) == url ? nil : "spaces around the address"
        } catch {
            return error.description
        }
    }

    // MARK: Other devices

    /// Runs `body` in one transaction (a device's files are merged in one: a large merge
    /// then writes each page of the state once, not once per file).
    public func syncTransaction<T>(_ body: () throws -> T) throws -> T {
        try db.transaction { try body() }
    }

    /// Where reading `device`'s files stopped (nil: never read).
    public func syncCursor(device: String) throws -> SyncCursor? {
        try db.prepare("SELECT segment, offset, last_stamp, operations FROM sync_devices WHERE device = ?1")
            .bind(.text(device)).firstRow { row in
                SyncCursor(
                    device: device, segment: Int(row.int64(0)), offset: Int(row.int64(1)),
                    lastStamp: row.int64(2),
                    operations: Int(row.int64(3)))
            }
    }

    /// Every other device read so far.
    public func syncCursors() throws -> [SyncCursor] {
        let statement = try db.prepare(
            "SELECT device, segment, offset, last_stamp, operations FROM sync_devices ORDER BY device")
        var cursors: [SyncCursor] = []
        while try statement.step() {
            cursors.append(
                SyncCursor(
                    device: statement.text(0) ?? "", segment: Int(statement.int64(1)),
                    offset: Int(statement.int64(2)),
                    lastStamp: statement.int64(3), operations: Int(statement.int64(4))))
        }
        return cursors
    }

    func setCursor(_ cursor: SyncCursor) throws {
        try db.prepare(
            """
            INSERT OR REPLACE INTO sync_devices(device, segment, offset, last_stamp, operations)
                VALUES (?1, ?2, ?3, ?4, ?5)
            """
        ).bind(
            .text(cursor.device), .integer(Int64(cursor.segment)), .integer(Int64(cursor.offset)),
            .integer(cursor.lastStamp), .integer(Int64(cursor.operations))
        ).run()
    }

    // MARK: Reading the state

    /// The states last written by `device` (a snapshot of its files), handed to `body` in
    /// pages so the whole state is never in memory.
    public func forEachSyncState(
        by device: String, pageSize: Int = 5_000, _ body: ([SyncOperation]) throws -> Void
    ) throws {
        var after = ("", "", "")
        while true {
            let statement = try db.prepare(
                """
                SELECT feed_url, guid, kind, value, stamp FROM sync_state
                WHERE device = ?1 AND (feed_url, guid, kind) > (?2, ?3, ?4)
                ORDER BY feed_url, guid, kind LIMIT ?5
                """)
            try statement.bind(
                .text(device), .text(after.0), .text(after.1), .text(after.2), .integer(Int64(pageSize)))
            var page: [SyncOperation] = []
            var rows = 0
            while try statement.step() {
                rows += 1
                let (url, guid, kind) = (
                    statement.text(0) ?? "", statement.text(1) ?? "", statement.text(2) ?? ""
                )
                after = (url, guid, kind)
                guard let kind = SyncChange.Kind(rawValue: kind) else { continue }
                page.append(
                    SyncOperation(
                        change: SyncChange(
                            kind: kind, feedURL: url, guid: guid, value: statement.text(3) ?? ""),
                        stamp: statement.int64(4), device: device))
            }
            if !page.isEmpty { try body(page) }
            if rows < pageSize { return }
        }
    }

    /// The merged state of every key (tests, status).
    public func syncStates() throws -> [SyncChange.Key: SyncOperation] {
        let statement = try db.prepare("SELECT feed_url, guid, kind, value, stamp, device FROM sync_state")
        var states: [SyncChange.Key: SyncOperation] = [:]
        while try statement.step() {
            guard let kind = SyncChange.Kind(rawValue: statement.text(2) ?? "") else { continue }
            let change = SyncChange(
                kind: kind, feedURL: statement.text(0) ?? "", guid: statement.text(1) ?? "",
                value: statement.text(3) ?? "")
            states[change.key] = SyncOperation(
                change: change, stamp: statement.int64(4), device: statement.text(5) ?? "")
        }
        return states
    }

    /// Changes captured and not yet written to the folder, and merged states waiting for
    /// their feed or article.
    public func syncBacklog() throws -> (unsent: Int, pending: Int) {
        (
            Int(try db.integer("SELECT count(*) FROM sync_outbox")),
            try waitingStates()
        )
    }

    /// States of subscribed feeds not applied yet: their articles have not been fetched.
    /// (The states of feeds not subscribed wait too, for a subscription, but are not counted.)
    private func waitingStates() throws -> Int {
        Int(
            try db.integer(
                """
                SELECT count(*) FROM feeds f CROSS JOIN sync_state s ON s.feed_url = f.url
                WHERE s.applied = 0
                """))
    }
}
