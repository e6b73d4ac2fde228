public import Foundation
import HeraldCore

/// The server's feeds, articles and flags brought into the library. Nothing here is captured:
/// what the server says never goes back up, nor into the sync folder.
extension LibraryStore {
    /// Makes the account's feeds the server's list: new ones subscribed, local ones at the
    /// same address taken over (their articles kept), titles and the server's categories (as
    /// tags, beside the user's own) brought up to date, and the account's feeds the server no
    /// longer lists unsubscribed here (archived while they hold starred articles).
    public func applyAccountFeeds(_ feeds: [AccountFeed]) throws -> AccountFeedsResult {
        try markInitialized()
        return try withoutAccountCapture {
            var result = AccountFeedsResult()
            var listed = Set<String>()
            for feed in feeds {
                guard let url = checkedFeedURL(feed.url) else {
                    result.refused.append("\(TextSanitizer.singleLine(feed.title)): not an http(s) address")
                    continue
                }
                listed.insert(feed.remoteID)
                try applyAccountFeed(feed, url: url, result: &result)
            }
            // A feed subscribed here whose subscription has not gone up yet is not gone.
            let gone = try db.prepare(
                "SELECT url, remote_id FROM feeds WHERE remote_id IS NOT NULL AND remote_id NOT LIKE 'pending:%'")
                .allRows { (url: $0.text(0) ?? "", id: $0.text(1) ?? "") }
                .filter { !listed.contains($0.id) }
            for feed in gone {
                try db.prepare("UPDATE feeds SET remote_id = NULL, remote_tags = NULL WHERE url = ?1")
                    .bind(.text(feed.url)).run()
                if let (_, kept) = try unsubscribeKeepingStarred(url: feed.url) {
                    if kept > 0 { result.keptForStarred += 1 } else { result.removed += 1 }
                }
            }
            // The account's feeds are the user's own: the demo feeds leave, as they do when
            // the user subscribes to a feed (a starred article keeps its demo feed).
            if result.added + result.adopted > 0 { result.demoFeedsRemoved = try removeDemoFeeds() }
            return result
        }
    }

    private func applyAccountFeed(_ feed: AccountFeed, url: String, result: inout AccountFeedsResult) throws {
        let tags = Self.cleanTags(feed.tags)
        let title = TextSanitizer.singleLine(feed.title).trimmingCharacters(in: .whitespaces)
        // The row the server's id names, else a feed at the same address (local, or archived).
        var row = try db.prepare("SELECT id, url, tags, remote_tags FROM feeds WHERE remote_id = ?1")
            .bind(.text(feed.remoteID)).firstRow { ($0.int64(0), $0.text(1) ?? "", $0.text(2) ?? "", $0.text(3)) }
        if row == nil {
            row = try db.prepare(
                "SELECT id, url, tags, remote_tags FROM feeds WHERE url = ?1 AND (remote_id IS NULL OR remote_id LIKE 'pending:%')"
            ).bind(.text(url)).firstRow { ($0.int64(0), $0.text(1) ?? "", $0.text(2) ?? "", $0.text(3)) }
            if let found = row {
                _ = try unarchive(url: url)
                let pending = try db.prepare("SELECT remote_id LIKE 'pending:%' FROM feeds WHERE id = ?1")
                    .bind(.integer(found.0)).firstRow { $0.bool(0) } ?? false
                if !pending { result.adopted += 1 }
            }
        }
        guard let (id, oldURL, oldTags, oldRemoteTags) = row else {
            try db.prepare(
                """
                INSERT INTO feeds(url, title, site_url, tags, position, remote_id, remote_tags)
                    VALUES (?1, ?2, ?3, ?4, \(Self.nextPosition), ?5, ?4)
                """
            ).bind(
                .text(url), .text(title.isEmpty ? url : title), .optional(feed.siteURL.flatMap(checkedFeedURL)),
                .text(Self.joinTags(tags)), .text(feed.remoteID)
            ).run()
            result.added += 1
            return
        }
        // The user's own tags stay; the server's previous categories give way to its new ones.
        let previous = Set(Self.splitTags(oldRemoteTags ?? ""))
        let own = Self.splitTags(oldTags).filter { !previous.contains($0) }
        let merged = Self.cleanTags(tags + own)
        let moved = oldURL != url && (try? feedRowID(url)) == nil
        try db.prepare(
            """
            UPDATE feeds SET remote_id = ?2, remote_tags = ?3, demo = 0,
                url = CASE WHEN ?6 THEN ?7 ELSE url END,
                site_url = coalesce(?5, site_url),
                title = CASE WHEN own_title IS NULL AND ?4 != '' THEN ?4 ELSE title END,
                own_title = CASE WHEN own_title IS NOT NULL AND ?4 != '' THEN ?4 ELSE own_title END,
                tags = CASE WHEN own_tags IS NULL THEN ?8 ELSE tags END,
                own_tags = CASE WHEN own_tags IS NULL THEN NULL ELSE ?8 END
            WHERE id = ?1
            """
        ).bind(
            .integer(id), .text(feed.remoteID), .text(Self.joinTags(tags)), .text(title),
            .optional(feed.siteURL.flatMap(checkedFeedURL)), .integer(moved ? 1 : 0), .text(url),
            .text(Self.joinTags(merged))
        ).run()
        if moved { feedRowIDs[oldURL] = nil }
    }

    /// An address a feed may have: absolute http(s), one line.
    private func checkedFeedURL(_ text: String) -> String? {
        let line = TextSanitizer.singleLine(text).trimmingCharacters(in: .whitespaces)
        let lower = line.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), line.count > 8, line.utf8.count <= 8192
        else { return nil }
        return URLText.escapingUnsafe(line)
    }

    /// The address of each account feed, by the server's id.
    public func accountFeedURLs() throws -> [String: String] {
        var urls: [String: String] = [:]
        for (id, url) in try db.prepare("SELECT remote_id, url FROM feeds WHERE remote_id IS NOT NULL")
            .allRows({ ($0.text(0) ?? "", $0.text(1) ?? "") })
        {
            urls[id] = url
        }
        return urls
    }

    /// Stores the server's articles (prepared off this thread, per feed address, with their
    /// flags there) in one transaction, and gives each new one (and each known one without a
    /// change waiting here) the server's read and starred flags. Returns how many were new
    /// per feed address (feeds with none left out).
    public func storeAccountItems(
        _ feeds: [(feedURL: String, prepared: [PreparedItem], flags: [String: (read: Bool, starred: Bool)])],
        now: Date = Date()
    ) throws -> [String: Int] {
        try withoutAccountCapture {
            var index = SearchIndex.Pending()
            var added: [String: Int] = [:]
            var flagged: [(guid: String, read: Bool, starred: Bool, feed: Int64)] = []
            for feed in feeds {
                let new = try upsertArticles(feedURL: feed.feedURL, prepared: feed.prepared, now: now, index: &index)
                if new > 0 { added[feed.feedURL, default: 0] += new }
                let row = try feedRowID(feed.feedURL)
                for (guid, flags) in feed.flags { flagged.append((guid, flags.read, flags.starred, row)) }
            }
            try index.apply(in: db)
            let update = """
                UPDATE articles SET read = ?3, starred = ?4
                WHERE feed_id = ?1 AND guid = ?2 AND (read != ?3 OR starred != ?4)
                    AND guid NOT IN (SELECT item FROM account_outbox WHERE kind IN ('read', 'starred'))
                """
            for entry in flagged {
                // Prepared each time: the cache resets it (a statement stepped to its end
                // cannot be bound again).
                try db.prepare(update).bind(
                    .integer(entry.feed), .text(entry.guid), .integer(entry.read ? 1 : 0),
                    .integer(entry.starred ? 1 : 0)
                ).run()
            }
            return added
        }
    }

    /// Makes every account article's flags the server's: unread when its id is in `unread`,
    /// starred when in `starred`, except articles with a change of that flag still waiting
    /// to go up (made since the changes sent, so later than what the server said). Returns
    /// the articles changed.
    public func applyAccountStates(unread: Set<String>, starred: Set<String>) throws -> Int {
        try withoutAccountCapture {
            let unreadJSON = try Self.jsonArray(unread)
            let starredJSON = try Self.jsonArray(starred)
            var changed = 0
            for (column, kind, json, inSetMeans) in [
                ("read", "read", unreadJSON, 0), ("starred", "starred", starredJSON, 1),
            ] {
                let value = "(CASE WHEN guid IN (SELECT value FROM json_each(?1)) THEN \(inSetMeans) ELSE \(1 - inSetMeans) END)"
                changed += try db.prepare(
                    """
                    UPDATE articles SET \(column) = \(value)
                    WHERE feed_id IN (SELECT id FROM feeds WHERE remote_id IS NOT NULL)
                        AND \(column) != \(value)
                        AND guid NOT IN (SELECT item FROM account_outbox WHERE kind = '\(kind)')
                    RETURNING id
                    """
                ).bind(.text(json)).allRows { _ in 1 }.count
            }
            return changed
        }
    }

    private static func jsonArray(_ ids: Set<String>) throws -> String {
        String(decoding: try JSONEncoder().encode(Array(ids)), as: UTF8.self)
    }
}
