import Foundation
import HeraldCore

/// Feeds moved by a permanent redirect, carried by sync as `moved` registers (key: the old
/// URL, value: the new). A device applies a move by moving its subscription (or dropping the
/// old one when it has the new URL already), and forwards every state keyed by the old URL to
/// the new one, last writer wins per key: the new URL's state is then the latest of both,
/// whichever arrived first. States keyed by the old URL that arrive later are forwarded too.
/// The new URL comes from another machine's files: it is used only if it is a feed address.
extension LibraryStore {
    /// A move this device followed (a reload's permanent redirect), captured for sync; the
    /// states kept under the old URL move along, and those of the new URL apply again to
    /// the feed there now.
    func captureMove(from oldURL: String, to newURL: String) throws {
        let demo = try db.prepare("SELECT demo FROM feeds WHERE url = ?1").bind(.text(newURL)).firstRow {
            $0.bool(0)
        }
        guard demo == false else { return }
        try capture(SyncChange(kind: .moved, feedURL: oldURL, value: newURL))
        try reapplyAllStates(newURL)
        try forwardStates(from: oldURL, to: newURL, pendingOnly: false)
    }

    /// Applies the moves: a feed still at a moved URL (a move not applied yet, or the user
    /// subscribed to the old URL again) goes to where that URL lives now, with every state
    /// kept under the old URL; of the other moved URLs only the states not applied yet are
    /// forwarded (capture is off).
    func applyMoves(_ result: inout SyncApplyResult) throws {
        let moves = try movedStates()
        guard !moves.isEmpty else { return }
        let device = try syncValue("device") ?? ""
        for (oldURL, destination) in Self.destinations(of: moves).sorted(by: { $0.key < $1.key }) {
            let movedHere = try moveLocalFeed(from: oldURL, to: destination)
            if movedHere {
                result.moved += 1
                // The feed there now shows what it had: the new URL's states apply to it again.
                try reapplyAllStates(destination)
            }
            let pending = moves[oldURL]?.applied == false
            try forwardStates(
                from: oldURL, to: destination, pendingOnly: !(pending || movedHere), device: device)
        }
        for (oldURL, move) in moves where !move.applied { try markMoveApplied(oldURL) }
        forgetFeedRowIDs()
    }

    /// A moved register: where to, its stamp (as a pair to compare), and whether it applied.
    struct Move {
        var to: String
        var order: (Int64, String)
        var applied: Bool
    }

    /// Where each moved URL lives now: its move, then the move of where it went, and so on
    /// (a redirect is the server's: the new address may itself have moved since). The
    /// stamps do not matter, so what a device learns only adds to the answer. In a loop (a
    /// feed moved back), the feed lives at the URL of the loop that was moved into last.
    /// Every device with the same registers gets the same answer.
    ///
    /// Each URL is walked once (another device's files may hold a chain of thousands of
    /// moves): a walk stops at a URL already resolved and takes its answer, and every URL it
    /// passed resolves with it.
    static func destinations(of moves: [String: Move]) -> [String: String] {
        var resolved: [String: String] = [:]
        for start in moves.keys where resolved[start] == nil {
            var path: [String] = []
            var onPath: [String: Int] = [:]
            var url = start
            let end: String
            while true {
                if let known = resolved[url] {
                    end = known
                    break
                }
                if let loop = onPath[url] {
                    // The URLs of the loop, path[loop...] in order: each was moved into from
                    // the one before it (the first from the last); the last moved into wins.
                    var winner = path[loop]
                    var best = moves[path[path.count - 1]]?.order ?? (0, "")
                    for index in (loop + 1)..<path.count {
                        let order = moves[path[index - 1]]?.order ?? (0, "")
                        if best < order { (winner, best) = (path[index], order) }
                    }
                    end = winner
                    break
                }
                guard let next = moves[url]?.to else {
                    end = url
                    break
                }
                onPath[url] = path.count
                path.append(url)
                url = next
            }
            for url in path { resolved[url] = end }
        }
        return resolved.filter { $0.key != $0.value }
    }

    /// Moves the feed at `oldURL` to `newURL` (an archived one too: it stays archived), or
    /// removes it when a feed is there already, its starred articles joining that feed first:
    /// nothing but the user deletes them.
    private func moveLocalFeed(from oldURL: String, to newURL: String) throws -> Bool {
        guard let from = try? feedRowID(oldURL) else { return false }
        guard let to = try? feedRowID(newURL) else {
            try db.prepare("UPDATE feeds SET url = ?2 WHERE url = ?1").bind(.text(oldURL), .text(newURL)).run()
            return true
        }
        // A subscribed feed moving onto an archived one brings it back.
        if try !isArchived(url: oldURL) { try unarchive(url: newURL) }
        try db.prepare(
            """
            UPDATE articles SET feed_id = ?2 WHERE feed_id = ?1 AND starred = 1
                AND guid NOT IN (SELECT guid FROM articles WHERE feed_id = ?2)
            """
        ).bind(.integer(from), .integer(to)).run()
        if db.changes > 0 {
            try recount(feed: from)
            try recount(feed: to)
        }
        return try unsubscribe(url: oldURL)
    }

    /// Counts a feed's articles again (the triggers count inserts, deletes and read flags,
    /// not an article moved from another feed).
    private func recount(feed: Int64) throws {
        try db.prepare(
            """
            UPDATE feeds SET total_count = (SELECT count(*) FROM articles WHERE feed_id = ?1),
                unread_count = (SELECT count(*) FROM articles WHERE feed_id = ?1 AND read = 0)
            WHERE id = ?1
            """
        ).bind(.integer(feed)).run()
    }

    // MARK: The state's SQL

    /// Every moved register whose new URL is a feed address, by old URL.
    private func movedStates() throws -> [String: Move] {
        let statement = try db.prepare(
            "SELECT feed_url, value, stamp, device, applied FROM sync_state WHERE kind = 'moved' AND guid = ''"
        )
        var moves: [String: Move] = [:]
        while try statement.step() {
            let (from, to) = (statement.text(0) ?? "", statement.text(1) ?? "")
            // Hostile data: another machine's file. A refused address is no move.
            guard from != to, (try? FeedAddress.check(to, from: .synced)) == to else { continue }
            moves[from] = Move(
                to: to, order: (statement.int64(2), statement.text(3) ?? ""), applied: statement.bool(4))
        }
        return moves
    }

    /// Writes the states keyed by `oldURL` (all, or those not applied yet and this
    /// `device`'s, which it records applied: a feed at the old URL here may have gone since)
    /// as states of `newURL`, each if it wins there, and marks them applied under the old URL.
    private func forwardStates(
        from oldURL: String, to newURL: String, pendingOnly: Bool, device: String = ""
    ) throws {
        try db.prepare(
            """
            INSERT INTO sync_state(feed_url, guid, kind, value, stamp, device, applied)
                SELECT ?2, guid, kind, value, stamp, device, 0 FROM sync_state
                WHERE feed_url = ?1 AND kind != 'moved' AND (?3 = 0 OR applied = 0 OR device = ?4)
            ON CONFLICT(feed_url, guid, kind) DO UPDATE SET value = excluded.value, stamp = excluded.stamp,
                device = excluded.device, applied = 0
            WHERE (excluded.stamp, excluded.device) > (sync_state.stamp, sync_state.device)
            """
        ).bind(.text(oldURL), .text(newURL), .bool(pendingOnly), .text(device)).run()
        try db.prepare(
            "UPDATE sync_state SET applied = 1 WHERE feed_url = ?1 AND kind != 'moved' AND applied = 0"
        )
        .bind(.text(oldURL)).run()
    }

    private func reapplyAllStates(_ url: String) throws {
        try db.prepare(
            "UPDATE sync_state SET applied = 0 WHERE feed_url = ?1 AND kind != 'moved' AND applied != 0"
        )
        .bind(.text(url)).run()
    }

    private func markMoveApplied(_ oldURL: String) throws {
        try db.prepare(
            "UPDATE sync_state SET applied = 1 WHERE feed_url = ?1 AND guid = '' AND kind = 'moved'"
        )
        .bind(.text(oldURL)).run()
    }
}
