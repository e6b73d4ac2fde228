public import Foundation
public import HeraldCore

/// A feed as a server account lists it, in the library's terms.
public struct AccountFeed: Sendable, Hashable {
    /// The server's id of the feed.
    public var remoteID: String
    public var url: String
    public var title: String
    public var siteURL: String?
    /// The server's categories: the tags the account manages.
    public var tags: [String]

    public init(remoteID: String, url: String, title: String, siteURL: String?, tags: [String]) {
        (self.remoteID, self.url, self.title, self.siteURL, self.tags) = (remoteID, url, title, siteURL, tags)
    }
}

/// What bringing the server's subscriptions in did.
public struct AccountFeedsResult: Sendable, Hashable {
    /// Feeds new here, and local feeds the account now brings (same address).
    public var added = 0
    public var adopted = 0
    /// Feeds gone from the server: removed here, or kept for their starred articles.
    public var removed = 0
    public var keptForStarred = 0
    /// Server feeds left out, with why (an address no feed may have).
    public var refused: [String] = []
    /// The bundled demo feeds, gone now that the account's are here.
    public var demoFeedsRemoved = 0

    public init() {}
}

/// A change waiting to go up to the account, as captured.
public struct AccountOutboxEntry: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case read, starred, subscribe, unsubscribe
    }
    public var seq: Int64
    public var kind: Kind
    /// The server's item id (flags), the feed's address (subscribe), the server's feed id
    /// (unsubscribe).
    public var item: String
    public var value: Bool
    /// When the change was made.
    public var at: Date
}

/// The library's side of a server account (see `AccountMigration`): the account it is tied
/// to, the changes waiting to go up, and the server's feeds, articles and flags coming down.
extension LibraryStore {
    /// An `account.` value of `meta` (the identity, the cursor, the status).
    public func accountValue(_ key: String) throws -> String? {
        try db.prepare("SELECT value FROM meta WHERE key = ?1").bind(.text("account." + key)).firstRow { $0.text(0) }
            ?? nil
    }

    /// Sets (nil: removes) an `account.` value of `meta`.
    public func setAccountValue(_ key: String, _ value: String?) throws {
        if let value {
            try db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)").bind(
                .text("account." + key), .text(value)
            ).run()
        } else {
            try db.prepare("DELETE FROM meta WHERE key = ?1").bind(.text("account." + key)).run()
        }
    }

    /// Ties the library to the account `identity` (its kind, address and login; never a
    /// secret). Tied to another before, that account's feeds become local feeds, read by
    /// Herald itself, with every article kept; its waiting changes cannot go anywhere and are
    /// dropped: their count is returned (nil: the library was tied to this account already).
    public func bindAccount(_ identity: String) throws -> (releasedFeeds: Int, droppedChanges: Int)? {
        try db.transaction {
            let bound = try accountValue("identity")
            guard bound != identity else { return nil }
            var released = 0
            if bound != nil {
                released = try db.prepare(
                    "UPDATE feeds SET remote_id = NULL, remote_tags = NULL WHERE remote_id IS NOT NULL RETURNING id"
                ).allRows { _ in 1 }.count
            }
            let dropped = try db.prepare("DELETE FROM account_outbox RETURNING seq").allRows { _ in 1 }.count
            for key in ["cursor", "status", "last-sync", "last-try", "retry-after", "failures", "states-fingerprint", "states-at"] { try setAccountValue(key, nil) }
            try setAccountValue("identity", identity)
            return (released, dropped)
        }
    }

    /// Unties the library from any account: its feeds become local ones (nothing removed).
    public func unbindAccount() throws -> Int {
        try db.transaction {
            let released = try db.prepare(
                "UPDATE feeds SET remote_id = NULL, remote_tags = NULL WHERE remote_id IS NOT NULL RETURNING id"
            ).allRows { _ in 1 }.count
            try db.prepare("DELETE FROM meta WHERE key LIKE 'account.%' AND key != 'account.capture'").run()
            return released
        }
    }

    /// SQL true for a feed row (`alias`) that is not an account's (always, before schema 17).
    func notAccountFeed(_ alias: String) -> String {
        schemaVersion >= 17 ? "\(alias).remote_id IS NULL" : "1"
    }

    // MARK: The outbox

    /// The changes waiting to go up, oldest first.
    public func accountOutbox(limit: Int = 1_000_000) throws -> [AccountOutboxEntry] {
        try db.prepare("SELECT seq, kind, item, value, at FROM account_outbox ORDER BY seq LIMIT ?1")
            .bind(.integer(Int64(limit)))
            .allRows { row in
                AccountOutboxEntry(
                    seq: row.int64(0), kind: AccountOutboxEntry.Kind(rawValue: row.text(1) ?? "") ?? .read,
                    item: row.text(2) ?? "", value: row.int64(3) != 0,
                    at: Date(timeIntervalSince1970: Double(row.int64(4)) / 1000))
            }
    }

    /// How many changes wait.
    public func accountOutboxCount() throws -> Int {
        Int(try db.prepare("SELECT count(*) FROM account_outbox").firstRow { $0.int64(0) } ?? 0)
    }

    /// The server took these changes: they leave the outbox.
    public func dropAccountOutbox(_ seqs: [Int64]) throws {
        guard !seqs.isEmpty else { return }
        let json = "[" + seqs.map(String.init).joined(separator: ",") + "]"
        try db.prepare("DELETE FROM account_outbox WHERE seq IN (SELECT value FROM json_each(?1))")
            .bind(.text(json)).run()
    }

    /// Queues a subscription (`item`: the address) or an unsubscription (`item`: the
    /// server's feed id) to carry out at the next contact.
    public func queueAccountChange(_ kind: AccountOutboxEntry.Kind, item: String) throws {
        try db.prepare(
            "INSERT INTO account_outbox(kind, item, value, at) VALUES (?1, ?2, 1, \(SyncMigration.nowMilliseconds))"
        ).bind(.text(kind.rawValue), .text(item)).run()
    }

    /// The server's id of the account feed at `url` (nil: a local feed, or none).
    public func remoteFeedID(url: String) throws -> String? {
        try db.prepare("SELECT remote_id FROM feeds WHERE url = ?1").bind(.text(url)).firstRow { $0.text(0) } ?? nil
    }

    /// How many articles the account's feeds hold.
    public func accountArticleCount() throws -> Int {
        Int(
            try db.prepare(
                "SELECT coalesce(sum(total_count), 0) FROM feeds WHERE remote_id IS NOT NULL"
            ).firstRow { $0.int64(0) } ?? 0)
    }

    /// How many feeds the account brings.
    public func accountFeedCount() throws -> Int {
        Int(try db.prepare("SELECT count(*) FROM feeds WHERE remote_id IS NOT NULL").firstRow { $0.int64(0) } ?? 0)
    }

    /// Runs `body` with neither the account's capture nor sync's on: what the server says is
    /// not a change of the user's to send anywhere.
    func withoutAccountCapture<T>(_ body: () throws -> T) throws -> T {
        try withoutCapture {
            let before = try accountValue("capture")
            try setAccountValue("capture", "0")
            let result = try body()
            try setAccountValue("capture", before)
            return result
        }
    }
}

extension LibraryStore {
    /// The `remote_id` of a feed subscribed here through the account that the server has not
    /// listed yet: not reloaded by Herald (its articles will come from the server), and taken
    /// over by the server's feed at the same address.
    static let pendingPrefix = "pending:"

    /// Subscribes through the account: the feed is in the library at once (under the
    /// server's name for it once the sync brings it), and the subscription waits in the queue.
    public func subscribeThroughAccount(_ subscription: Subscription) throws -> SubscribeResult {
        try db.transaction {
            let result = try withoutCapture { try subscribe(subscription) }
            try db.prepare("UPDATE feeds SET remote_id = ?2 WHERE url = ?1 AND remote_id IS NULL")
                .bind(.text(subscription.url), .text(Self.pendingPrefix + subscription.url)).run()
            try queueAccountChange(.subscribe, item: subscription.url)
            return result
        }
    }

    /// A subscription the server refused for good: the feed stays, as a local feed Herald
    /// reads itself (nothing the user added is dropped).
    public func keepRefusedSubscription(url: String) throws {
        try db.prepare("UPDATE feeds SET remote_id = NULL WHERE url = ?1 AND remote_id = ?2")
            .bind(.text(url), .text(Self.pendingPrefix + url)).run()
    }

    /// Unsubscribes from an account feed here and queues it for the server; false when the
    /// feed at `url` is not the account's (nothing done).
    public func unsubscribeThroughAccount(url: String) throws -> Bool {
        try db.transaction {
            guard let remote = try remoteFeedID(url: url) else { return false }
            _ = try withoutCapture { try unsubscribe(url: url) }
            if remote.hasPrefix(Self.pendingPrefix) {
                // Never sent: the subscription leaves the queue instead.
                try db.prepare("DELETE FROM account_outbox WHERE kind = 'subscribe' AND item = ?1").bind(.text(url))
                    .run()
            } else {
                try queueAccountChange(.unsubscribe, item: remote)
            }
            return true
        }
    }
}
