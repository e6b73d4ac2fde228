public import Foundation
public import HeraldCore

/// A feed's address and the validators its last fetch left, for a conditional GET.
public struct FeedValidators: Sendable, Hashable {
    public var url: String
    public var title: String
    public var etag: String?
    public var lastModified: String?
    /// When the server asked not to be asked again before (Retry-After).
    public var retryAfter: Date?
    /// Reloads in a row that failed for this feed while other feeds worked.
    public var failures: Int = 0
    /// When the feed was last tried, whatever came of it.
    public var lastFetch: Date?
    /// Whether its last fetch failed.
    public var failed = false
    /// Its per-feed settings in force (disabled, reload interval, user agent…).
    public var settings = FeedSettings()

    public init(
        url: String, title: String, etag: String? = nil, lastModified: String? = nil, retryAfter: Date? = nil,
        failures: Int = 0, lastFetch: Date? = nil
    ) {
        (self.url, self.title, self.etag, self.lastModified) = (url, title, etag, lastModified)
        (self.retryAfter, self.failures, self.lastFetch) = (retryAfter, failures, lastFetch)
    }
}

/// What a reload learned of one feed: its items (prepared off the database's thread) and
/// the fetch's metadata.
public struct FetchedFeed: Sendable {
    public var url: String
    public var items: [PreparedItem]
    public var etag: String?
    public var lastModified: String?
    public var title: String?
    public var siteURL: String?

    public init(
        url: String, items: [PreparedItem], etag: String?, lastModified: String?, title: String?,
        siteURL: String?
    ) {
        self.url = url
        self.items = items
        self.etag = etag
        self.lastModified = lastModified
        self.title = title
        self.siteURL = siteURL
    }
}

extension LibraryStore {
    /// Stores several fetched feeds in one transaction, each in a savepoint of its own: a
    /// feed that cannot be stored is rolled back alone and comes back as its error. Returns,
    /// for each feed, how many articles were new.
    ///
    /// One transaction for several feeds is much cheaper than one each, and the search
    /// index's changes are written last, together (see `SearchIndex.Pending`): FTS5 then
    /// writes the batch's entries as one segment instead of one per article.
    public func storeFetched(_ feeds: [FetchedFeed], at time: Date) throws -> [Result<Int, any Error>] {
        try db.transaction {
            // The new articles wait for the indexer (`DeferredIndexing.swift`).
            try deferSearchIndexing()
            var index = SearchIndex.Pending()
            let results: [Result<Int, any Error>] = try feeds.map { feed in
                do {
                    return .success(
                        try db.transaction {
                            var feedIndex = SearchIndex.Pending()
                            let added = try upsertArticles(
                                feedURL: feed.url, prepared: feed.items, now: time, index: &feedIndex)
                            try recordFetch(
                                url: feed.url, etag: feed.etag, lastModified: feed.lastModified,
                                feedTitle: feed.title, siteURL: feed.siteURL, at: time)
                            index.append(feedIndex)
                            return added
                        })
                } catch {
                    // SQLite rolled the whole transaction back: the feeds before this one are
                    // gone too, and the next ones would each commit alone. The batch fails.
                    guard db.isInTransaction else { throw error }
                    return .failure(error)
                }
            }
            // A failure here rolls the whole batch back: every feed comes back as the error.
            try index.apply(in: db)
            return results
        }
    }

    /// The feeds to reload (all, or the one at `url`), with their validators. A server
    /// account's feeds are not among them: the account's sync brings their articles.
    public func reloadTargets(only url: String? = nil) throws -> [FeedValidators] {
        let statement = try db.prepare(
            """
            SELECT url, title, etag, last_modified, retry_after, failures, last_fetch, last_error IS NOT NULL
            FROM feeds
            WHERE (?1 IS NULL OR url = ?1) AND \(notAccountFeed("feeds")) AND \(Self.notArchived("feeds"))
            ORDER BY position, id
            """)
        try statement.bind(.optional(url))
        var targets: [FeedValidators] = []
        while try statement.step() {
            targets.append(
                FeedValidators(
                    url: statement.text(0) ?? "", title: statement.text(1) ?? "", etag: statement.text(2),
                    lastModified: statement.text(3),
                    retryAfter: statement.optionalInt64(4).map { Date(timeIntervalSince1970: Double($0)) },
                    failures: Int(statement.int64(5)),
                    lastFetch: statement.optionalInt64(6).map { Date(timeIntervalSince1970: Double($0)) }))
            targets[targets.count - 1].failed = statement.int64(7) != 0
        }
        let settings = try feedSettings()
        for index in targets.indices {
            targets[index].settings = settings[targets[index].url] ?? FeedSettings()
        }
        return targets
    }

    /// Records a successful fetch: new validators, the time, no error; a feed that still has
    /// its URL as title (imported without one) takes the title the feed gives itself.
    public func recordFetch(
        url: String, etag: String?, lastModified: String?, feedTitle: String?, siteURL: String?, at time: Date
    ) throws {
        try db.prepare(
            """
            UPDATE feeds SET etag = coalesce(?2, etag), last_modified = coalesce(?3, last_modified),
                last_fetch = ?4, last_error = NULL, retry_after = NULL, failures = 0,
                title = CASE WHEN title = url AND ?5 IS NOT NULL AND ?5 != '' THEN ?5 ELSE title END,
                own_title = CASE WHEN own_title = url AND ?5 IS NOT NULL AND ?5 != '' THEN ?5 ELSE own_title END,
                site_url = coalesce(site_url, ?6)
            WHERE url = ?1
            """
        ).bind(
            .text(url), .optional(etag), .optional(lastModified), .integer(Int64(time.timeIntervalSince1970)),
            .optional(feedTitle), .optional(siteURL)
        ).run()
    }

    /// A fetch that found the feed unchanged (304): it works again, whatever failed before.
    public func recordNotModified(url: String, at time: Date) throws {
        try db.prepare(
            "UPDATE feeds SET last_fetch = ?2, last_error = NULL, retry_after = NULL, failures = 0 WHERE url = ?1"
        ).bind(.text(url), .integer(Int64(time.timeIntervalSince1970))).run()
    }

    /// Records why a fetch failed (the articles already stored stay), and until when the
    /// server asked to be left alone, if it did.
    public func recordFailure(url: String, reason: String, at time: Date, retryAfter: Date? = nil) throws {
        try db.prepare("UPDATE feeds SET last_error = ?2, last_fetch = ?3, retry_after = ?4 WHERE url = ?1")
            .bind(
                .text(url), .text(reason), .integer(Int64(time.timeIntervalSince1970)),
                .optional(retryAfter.map { Int64($0.timeIntervalSince1970.rounded(.up)) })
            ).run()
    }

    /// One more failure in a row for each of these feeds (a reload where other feeds worked:
    /// when every feed fails, the network is down, not the feeds).
    /// Returns each feed's count after it.
    @discardableResult
    public func countFailures(urls: [String]) throws -> [String: Int] {
        try db.transaction {
            var counts: [String: Int] = [:]
            for url in urls {
                counts[url] = try db.prepare(
                    "UPDATE feeds SET failures = failures + 1 WHERE url = ?1 RETURNING failures"
                ).bind(.text(url)).firstRow { Int($0.int64(0)) }
            }
            return counts
        }
    }

    /// Adds a note to a feed's last error (that it is now tried less often).
    public func noteOnError(url: String, _ note: String) throws {
        try db.prepare(
            "UPDATE feeds SET last_error = last_error || ?2 WHERE url = ?1 AND last_error IS NOT NULL"
        )
        .bind(.text(url), .text(note)).run()
    }

    /// A permanent redirect: the feed lives at `newURL` from now on (unless another feed
    /// already does). Returns true when the URL changed.
    @discardableResult
    public func moveFeed(from oldURL: String, to newURL: String) throws -> Bool {
        // A command feed (newsboat's exec: and filter:) is never moved, and nothing is moved
        // to one: only the user's own hand makes one (see `FeedAddress`).
        guard oldURL != newURL, !CommandFeed.isCommand(oldURL), !CommandFeed.isCommand(newURL) else {
            return false
        }
        let taken =
            try db.prepare("SELECT 1 FROM feeds WHERE url = ?1").bind(.text(newURL)).firstRow { _ in true }
            ?? false
        guard !taken else { return false }
        try db.transaction {
            try db.prepare("UPDATE feeds SET url = ?2 WHERE url = ?1").bind(.text(oldURL), .text(newURL))
                .run()
            // The other machines follow it at their next sync.
            try captureMove(from: oldURL, to: newURL)
        }
        if let id = feedRowIDs.removeValue(forKey: oldURL) { feedRowIDs[newURL] = id }
        return true
    }
}
