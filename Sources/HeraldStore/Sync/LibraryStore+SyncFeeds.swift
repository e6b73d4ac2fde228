import Foundation
import HeraldCore

/// A feed's title and tags as sync carries them: the user's (`herald feed set`, the
/// subscription's tags), never a config file's `feed` line. Applied under the config: where a
/// config line sets the value, the config's stays in force here and the synced value waits
/// under it (as the library's setting, or as the feed's own tags), showing once the line goes.
extension LibraryStore {
    /// The subscriptions, with their user's tags and titles, as changes (a first sync).
    func userFeedChanges() throws -> [SyncChange] {
        try userFeedValues().flatMap { feed in
            [
                SyncChange(kind: .sub, feedURL: feed.url, value: "1"),
                SyncChange(kind: .tags, feedURL: feed.url, value: feed.tags),
            ] + (feed.title.isEmpty ? [] : [SyncChange(kind: .title, feedURL: feed.url, value: feed.title)])
        }
    }

    /// Applies the merged tags and titles of the feeds that are here (capture is off).
    func applyFeedStates(_ result: inout SyncApplyResult) throws {
        for (url, kind, value, feed) in try pendingFeedStates() {
            let before = try shownTitleAndTags(feed)
            if kind == .title {
                try setLibrarySetting(feed, .title, value.isEmpty ? nil : value)
            } else if try hasSetting(feed, .tags, source: "library") {
                try setLibrarySetting(feed, .tags, Self.splitTags(value).joined(separator: ","))
            } else if try hasSetting(feed, .tags, source: "config") {
                try db.prepare("UPDATE feeds SET own_tags = ?2 WHERE id = ?1").bind(
                    .integer(feed), .text(value)
                )
                .run()
            } else {
                try db.prepare("UPDATE feeds SET tags = ?2 WHERE id = ?1").bind(.integer(feed), .text(value))
                    .run()
            }
            let after = try shownTitleAndTags(feed)
            if after.title != before.title { result.retitled += 1 }
            if after.tags != before.tags { result.retagged += 1 }
            try markFeedStateApplied(url, kind)
        }
    }

    private func setLibrarySetting(_ feed: Int64, _ key: FeedSettingKey, _ value: String?) throws {
        if let value {
            try db.prepare(
                "INSERT OR REPLACE INTO feed_settings(feed_id, key, source, value) VALUES (?1, ?2, 'library', ?3)"
            ).bind(.integer(feed), .text(key.rawValue), .text(value)).run()
        } else {
            try db.prepare("DELETE FROM feed_settings WHERE feed_id = ?1 AND key = ?2 AND source = 'library'")
                .bind(.integer(feed), .text(key.rawValue)).run()
        }
        try materialize(feed: feed)
    }

    private func hasSetting(_ feed: Int64, _ key: FeedSettingKey, source: String) throws -> Bool {
        try db.prepare("SELECT 1 FROM feed_settings WHERE feed_id = ?1 AND key = ?2 AND source = ?3")
            .bind(.integer(feed), .text(key.rawValue), .text(source)).firstRow { _ in true } ?? false
    }

    private func shownTitleAndTags(_ feed: Int64) throws -> (title: String, tags: String) {
        try db.prepare("SELECT title, tags FROM feeds WHERE id = ?1").bind(.integer(feed)).firstRow {
            ($0.text(0) ?? "", $0.text(1) ?? "")
        } ?? ("", "")
    }

    // MARK: The state's SQL

    /// The merged tags and titles not applied yet of the feeds that are here.
    private func pendingFeedStates() throws -> [(String, SyncChange.Kind, String, Int64)] {
        let statement = try db.prepare(
            """
            SELECT s.feed_url, s.kind, s.value, f.id FROM sync_state s JOIN feeds f ON f.url = s.feed_url
            WHERE s.applied = 0 AND s.guid = '' AND s.kind IN ('tags', 'title')
            """)
        var states: [(String, SyncChange.Kind, String, Int64)] = []
        while try statement.step() {
            guard let kind = SyncChange.Kind(rawValue: statement.text(1) ?? "") else { continue }
            states.append((statement.text(0) ?? "", kind, statement.text(2) ?? "", statement.int64(3)))
        }
        return states
    }

    private func markFeedStateApplied(_ url: String, _ kind: SyncChange.Kind) throws {
        try db.prepare("UPDATE sync_state SET applied = 1 WHERE feed_url = ?1 AND guid = '' AND kind = ?2")
            .bind(.text(url), .text(kind.rawValue)).run()
    }
}
