public import HeraldCore

/// One per-feed setting as stored, and where it came from.
public struct StoredFeedSetting: Sendable, Hashable {
    public var url: String
    public var key: FeedSettingKey
    public var value: String
    public var source: FeedSettingSource
    /// False when a value from the config file hides this one (a library value under it).
    public var inForce: Bool

    public init(url: String, key: FeedSettingKey, value: String, source: FeedSettingSource, inForce: Bool) {
        (self.url, self.key, self.value, self.source, self.inForce) = (url, key, value, source, inForce)
    }
}

/// Per-feed settings (schema 9): the library's (`herald feed set`) and the config file's
/// (`feed URL KEY VALUE`, copied in by `syncConfigFeedSettings` whenever Herald reads the
/// config). For each key the config file's value wins. A title or tags setting is written
/// into the feed's `title` and `tags` (the feed's own kept in `own_title`/`own_tags` until the
/// setting goes), so every list, query and command shows it without knowing about settings.
extension LibraryStore {
    /// Sets a feed's setting in the library. False when no feed has that URL.
    @discardableResult
    public func setFeedSetting(url: String, key: FeedSettingKey, value: String) throws -> Bool {
        guard let feed = try? feedRowID(url) else { return false }
        // The user's title and tags are captured for sync by hand: the triggers see the
        // values in force, which a config line may hide.
        try changingUserFeedValues(feed: feed) {
            try db.prepare(
                "INSERT OR REPLACE INTO feed_settings(feed_id, key, source, value) VALUES (?1, ?2, 'library', ?3)"
            ).bind(.integer(feed), .text(key.rawValue), .text(value)).run()
            try materialize(feed: feed)
        }
        return true
    }

    /// Removes a feed's library setting. Returns whether there was one; throws
    /// `RepositoryError.noSuchFeed` for an unknown URL.
    @discardableResult
    public func unsetFeedSetting(url: String, key: FeedSettingKey) throws -> Bool {
        let feed = try feedRowID(url)
        var had = false
        try changingUserFeedValues(feed: feed) {
            had =
                try db.prepare(
                    "DELETE FROM feed_settings WHERE feed_id = ?1 AND key = ?2 AND source = 'library' RETURNING 1"
                ).bind(.integer(feed), .text(key.rawValue)).firstRow { _ in true } ?? false
            try materialize(feed: feed)
        }
        return had
    }

    /// Every stored setting (of one feed, or of all), in feed-list order, keys in table order.
    public func storedFeedSettings(url: String? = nil) throws -> [StoredFeedSetting] {
        let statement = try db.prepare(
            """
            SELECT f.url, s.key, s.source, s.value FROM feed_settings s JOIN feeds f ON f.id = s.feed_id
            WHERE ?1 IS NULL OR f.url = ?1
            ORDER BY f.position, f.id,
                instr('\(FeedSettingKey.allCases.map(\.rawValue).joined(separator: " "))', s.key),
                s.source = 'library'
            """)
        try statement.bind(.optional(url))
        var found: [StoredFeedSetting] = []
        while try statement.step() {
            guard let key = FeedSettingKey(rawValue: statement.text(1) ?? ""),
                let source = FeedSettingSource(rawValue: statement.text(2) ?? "")
            else { continue }
            found.append(
                StoredFeedSetting(
                    url: statement.text(0) ?? "", key: key, value: statement.text(3) ?? "", source: source,
                    inForce: true))
        }
        for index in found.indices where found[index].source == .library {
            found[index].inForce = !found.contains {
                $0.url == found[index].url && $0.key == found[index].key && $0.source == .config
            }
        }
        return found
    }

    /// The settings in force, by feed URL (feeds without any left out).
    public func feedSettings() throws -> [String: FeedSettings] {
        var settings: [String: FeedSettings] = [:]
        for stored in try storedFeedSettings() where stored.inForce {
            settings[stored.url, default: FeedSettings()].values[stored.key] = stored.value
        }
        return settings
    }

    /// Makes the library's copy of the config file's `feed` lines equal to `lines`; returns
    /// the lines whose URL no feed has (they do nothing). Writes only when something changed.
    @discardableResult
    public func syncConfigFeedSettings(_ lines: [FeedSettingLine]) throws -> [FeedSettingLine] {
        var wanted: [Int64: [FeedSettingKey: String]] = [:]
        var unknown: [FeedSettingLine] = []
        for line in lines {
            guard let feed = try? feedRowID(line.url) else {
                unknown.append(line)
                continue
            }
            wanted[feed, default: [:]][line.key] = line.value  // a later line wins
        }
        var stored: [Int64: [FeedSettingKey: String]] = [:]
        let statement = try db.prepare(
            "SELECT feed_id, key, value FROM feed_settings WHERE source = 'config'")
        while try statement.step() {
            guard let key = FeedSettingKey(rawValue: statement.text(1) ?? "") else { continue }
            stored[statement.int64(0), default: [:]][key] = statement.text(2) ?? ""
        }
        // A library that cannot be written is read with the settings it holds.
        guard stored != wanted, !access.isReadOnly else { return unknown }
        // The config's lines are applied at every start: not something the user did in the
        // library, so not captured for sync (two machines with two configs would fight).
        try withoutCapture {
            try db.execute("DELETE FROM feed_settings WHERE source = 'config'")
            for (feed, values) in wanted {
                for (key, value) in values {
                    try db.prepare(
                        "INSERT INTO feed_settings(feed_id, key, source, value) VALUES (?1, ?2, 'config', ?3)"
                    ).bind(.integer(feed), .text(key.rawValue), .text(value)).run()
                }
            }
            for feed in Set(stored.keys).union(wanted.keys) { try materialize(feed: feed) }
        }
        return unknown
    }

    /// Writes the title and tags in force into the feed's row, or gives it its own back.
    func materialize(feed: Int64) throws {
        var values: [FeedSettingKey: String] = [:]
        let statement = try db.prepare(
            "SELECT key, value FROM feed_settings WHERE feed_id = ?1 ORDER BY source = 'config'")
        try statement.bind(.integer(feed))
        while try statement.step() {
            if let key = FeedSettingKey(rawValue: statement.text(0) ?? "") {
                values[key] = statement.text(1) ?? ""
            }
        }
        if let title = values[.title] {
            try db.prepare(
                "UPDATE feeds SET own_title = coalesce(own_title, title), title = ?2 WHERE id = ?1"
            )
            .bind(.integer(feed), .text(title)).run()
        } else {
            try db.prepare(
                "UPDATE feeds SET title = own_title, own_title = NULL WHERE id = ?1 AND own_title IS NOT NULL"
            ).bind(.integer(feed)).run()
        }
        if let tags = values[.tags] {
            let joined = Self.joinTags(Self.cleanTags(FeedSettingKey.splitTags(tags)))
            try db.prepare("UPDATE feeds SET own_tags = coalesce(own_tags, tags), tags = ?2 WHERE id = ?1")
                .bind(.integer(feed), .text(joined)).run()
        } else {
            try db.prepare(
                "UPDATE feeds SET tags = own_tags, own_tags = NULL WHERE id = ?1 AND own_tags IS NOT NULL"
            ).bind(.integer(feed)).run()
        }
    }

    /// Retention limits set per feed: row id → (days, articles), nil where the global holds.
    func retentionOverrides() throws -> [Int64: (days: Int?, articles: Int?)] {
        var found: [Int64: (days: Int?, articles: Int?)] = [:]
        let statement = try db.prepare(
            """
            SELECT feed_id, key, value FROM feed_settings WHERE key IN ('keep-days', 'keep-articles')
            ORDER BY source = 'config'
            """)
        while try statement.step() {
            let value = Int(statement.text(2) ?? "")
            var limits = found[statement.int64(0)] ?? (nil, nil)
            if statement.text(1) == "keep-days" { limits.days = value } else { limits.articles = value }
            found[statement.int64(0)] = limits
        }
        return found
    }
}
