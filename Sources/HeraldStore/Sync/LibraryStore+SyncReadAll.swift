import Foundation
import HeraldCore

/// Mark-all-read as one `readall` register per feed, not one flag per article. Its value is
/// a cutoff in unix seconds: every article of the feed *dated* at or before it is read, the
/// date being the one every device stores alike (published, else updated; an article with
/// neither falls back to when this device first saw it, the one date that may differ). The
/// cutoff is the newest date among the feed's articles then, never later than the moment
/// `A` was pressed: an article dated in the future (a feed's mistake, or a hostile feed)
/// would otherwise cover every article the feed brings until that date. Such an article is
/// sent as a flag of its own. An article's own `read`
/// register stamped after the `readall` still wins: the merge is per article, the latest of
/// its own register and the covering mark-all-read.
extension LibraryStore {
    /// The feeds a list is made of when it is whole feeds (a feed, a tag, every feed or
    /// the unread of those); nil for a list of some articles (starred, a query).
    func wholeFeeds(_ source: ArticleSource) throws -> [Int64]? {
        switch source {
        case .feed(let id): [try feedRowID(id)]
        case .all, .unread: try feedIDs()
        case .tag(let name): try feedRowIDs(tagged: name)
        case .unreadOf(let list), .oldestFirst(let list): try wholeFeeds(list)
        case .starred, .query: nil
        }
    }

    /// Marks every article of `source` read with `update` and, when sync captures and the
    /// list is whole feeds, records one `readall` per feed it changed instead of a flag per
    /// article. Returns what `update` returns: the ids it changed (undo unreads them one by
    /// one, which syncs as flags stamped later, so they win).
    func markingAllRead(_ source: ArticleSource, _ update: () throws -> [String]) throws -> [String] {
        guard try syncValue("capture") == "1", try wholeFeeds(source) != nil else { return try update() }
        return try db.transaction {
            let ids = try withoutCapture(update)
            let now = Int64(Date().timeIntervalSince1970)
            for (url, newest) in try feedsOfArticles(ids) {
                try capture(SyncChange(kind: .readall, feedURL: url, value: String(min(now, newest))))
            }
            // Articles dated after now are past every cutoff: each goes as a flag of its own.
            for (url, guid) in try articles(ids, datedAfter: now) {
                try capture(SyncChange(kind: .read, feedURL: url, guid: guid, value: "1"))
            }
            return ids
        }
    }

    /// Marks read the articles the merged `readall` registers cover, where no later flag of
    /// their own says otherwise (capture is off). Every feed with unread articles is looked
    /// at, applied or not: a reload may have brought articles the register covers.
    func applyReadAll(_ result: inout SyncApplyResult) throws {
        let changed = try db.prepare(
            """
            UPDATE articles SET read = 1
            FROM feeds f JOIN sync_state r ON r.feed_url = f.url AND r.guid = '' AND r.kind = 'readall'
            WHERE f.unread_count > 0 AND articles.feed_id = f.id AND articles.read = 0
                AND \(Self.articleDate) <= CAST(r.value AS INTEGER)
                AND NOT EXISTS (
                    SELECT 1 FROM sync_state s WHERE s.feed_url = r.feed_url AND s.guid = articles.guid
                        AND s.kind = 'read' AND (s.stamp, s.device) > (r.stamp, r.device))
            RETURNING articles.id
            """)
        var carried = result.changedFlags.reduce(0) { $0 + $1.articleIDs.count }
        var ids: [String] = []
        while try changed.step() {
            result.flagsChanged += 1
            guard carried < LibrarySyncResult.idLimit else { continue }
            ids.append(String(changed.int64(0)))
            carried += 1
        }
        if !ids.isEmpty { result.changedFlags.append(.init(flag: .read, value: true, articleIDs: ids)) }
        try db.execute(
            "UPDATE sync_state SET applied = 1 WHERE applied = 0 AND guid = '' AND kind = 'readall'")
    }

    /// The date a `readall` cutoff is compared with, of `articles`.
    static let articleDate = "coalesce(articles.published, articles.updated, articles.first_seen)"

    /// A condition on a merged `read` register `s` of an article of `articles` (the feed
    /// joined as `f`): a `readall` of its feed stamped later covers it, so its value does
    /// not apply.
    static let coveredByLaterReadAll = """
        EXISTS (SELECT 1 FROM sync_state r WHERE r.feed_url = s.feed_url AND r.guid = '' AND r.kind = 'readall'
            AND (r.stamp, r.device) > (s.stamp, s.device) AND \(articleDate) <= CAST(r.value AS INTEGER))
        """

    private func feedIDs() throws -> [Int64] {
        let statement = try db.prepare("SELECT id FROM feeds")
        var ids: [Int64] = []
        while try statement.step() { ids.append(statement.int64(0)) }
        return ids
    }

    /// The feed URL and guid of those of these articles (of non-demo feeds) dated after `time`.
    private func articles(_ ids: [String], datedAfter time: Int64) throws -> [(String, String)] {
        let numbers = ids.compactMap { Int64($0) }
        let json = String(decoding: try JSONEncoder().encode(numbers), as: UTF8.self)
        let statement = try db.prepare(
            """
            SELECT f.url, articles.guid FROM articles JOIN feeds f ON f.id = articles.feed_id
            WHERE f.demo = 0 AND articles.id IN (SELECT value FROM json_each(?1)) AND \(Self.articleDate) > ?2
            ORDER BY articles.id
            """)
        try statement.bind(.text(json), .integer(time))
        var found: [(String, String)] = []
        while try statement.step() { found.append((statement.text(0) ?? "", statement.text(1) ?? "")) }
        return found
    }

    /// The non-demo feeds of these articles, with the newest date of each feed's articles.
    private func feedsOfArticles(_ ids: [String]) throws -> [(String, Int64)] {
        let numbers = ids.compactMap { Int64($0) }
        let json = String(decoding: try JSONEncoder().encode(numbers), as: UTF8.self)
        let statement = try db.prepare(
            """
            SELECT f.url, (SELECT max(\(Self.articleDate)) FROM articles WHERE feed_id = f.id) FROM feeds f
            WHERE f.demo = 0 AND f.id IN (SELECT a.feed_id FROM articles a WHERE a.id IN (SELECT value FROM json_each(?1)))
            ORDER BY f.position, f.id
            """)
        try statement.bind(.text(json))
        var feeds: [(String, Int64)] = []
        while try statement.step() { feeds.append((statement.text(0) ?? "", statement.int64(1))) }
        return feeds
    }
}
