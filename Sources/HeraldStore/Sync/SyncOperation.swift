public import HeraldCore

/// What a user did that sync carries between devices, by keys every device agrees on: a
/// feed's URL, and an article's feed URL and guid (so it applies before the article is
/// fetched).
public struct SyncChange: Sendable, Hashable {
    /// The kinds of state, each its own last-writer-wins register per key.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// An article's read flag: value "1" or "0".
        case read
        /// An article's starred flag: value "1" or "0".
        case star
        /// A subscription: value "1" (subscribed) or "0" (unsubscribed).
        case sub
        /// A feed's tags, tab-separated ("" for none): the user's, not a config line's.
        case tags
        /// A feed's title set by the user in the library ("" for none: the feed's own).
        case title
        /// A feed moved by a permanent redirect: the key is its old URL, the value the new.
        case moved
        /// Mark-all-read of a feed: the value is a cutoff, unix seconds; every article of
        /// the feed dated (published, else updated, else first seen) at or before it is read,
        /// unless its own read flag was stamped later.
        case readall

        /// Whether the key includes an article guid.
        public var isArticleFlag: Bool { self == .read || self == .star }

        /// Whether `value` (a record's bytes, as written) is a state of this kind: a flag and
        /// a subscription are "1" or "0", nothing else ("maybe" is no state, and must not
        /// become a 0 through SQLite's CAST); the other kinds' values are checked where used.
        public func accepts(_ value: UnsafeRawBufferPointer) -> Bool {
            guard isArticleFlag || self == .sub else { return true }
            return value.count == 1 && (value[0] == UInt8(ascii: "0") || value[0] == UInt8(ascii: "1"))
        }
    }

    public var kind: Kind
    public var feedURL: String
    /// The article's guid; "" for a feed's states.
    public var guid: String
    public var value: String

    public init(kind: Kind, feedURL: String, guid: String = "", value: String) {
        self.kind = kind
        self.feedURL = feedURL
        self.guid = guid
        self.value = value
    }

    /// The register this change writes.
    public var key: Key { Key(kind: kind, feedURL: feedURL, guid: guid) }

    /// A register: one state per key, the last writer's.
    public struct Key: Sendable, Hashable {
        public var kind: Kind
        public var feedURL: String
        public var guid: String

        public init(kind: Kind, feedURL: String, guid: String) {
            self.kind = kind
            self.feedURL = feedURL
            self.guid = guid
        }
    }
}

/// A change with its hybrid-logical-clock stamp and the device that made it. Of two
/// operations on one key, the one with the greater (stamp, device) wins.
public struct SyncOperation: Sendable, Hashable {
    public var change: SyncChange
    /// Physical milliseconds << 16 | logical counter (see `HybridClock` in HeraldSync).
    public var stamp: Int64
    public var device: String

    public init(change: SyncChange, stamp: Int64, device: String) {
        self.change = change
        self.stamp = stamp
        self.device = device
    }

    /// Whether this operation wins over `other` on the same key.
    public func wins(over other: SyncOperation) -> Bool {
        (stamp, device) > (other.stamp, other.device)
    }
}

/// A change captured in the library, not yet stamped.
public struct CapturedChange: Sendable, Hashable {
    /// Its place in capture order.
    public var sequence: Int64
    public var change: SyncChange
    /// When it happened, unix milliseconds.
    public var time: Int64

    public init(sequence: Int64, change: SyncChange, time: Int64) {
        self.sequence = sequence
        self.change = change
        self.time = time
    }
}

/// How far another device's files were read, and what was seen from it.
public struct SyncCursor: Sendable, Hashable {
    public var device: String
    /// The segment read last (0: none yet) and the byte offset of the next record in it.
    public var segment: Int
    public var offset: Int
    /// The greatest stamp read from it.
    public var lastStamp: Int64
    /// Operations read from it, all told.
    public var operations: Int

    public init(device: String, segment: Int, offset: Int, lastStamp: Int64, operations: Int) {
        self.device = device
        self.segment = segment
        self.offset = offset
        self.lastStamp = lastStamp
        self.operations = operations
    }
}

/// What applying merged states did to the library.
public struct SyncApplyResult: Sendable, Hashable {
    public var subscribed = 0
    public var unsubscribed = 0
    public var retagged = 0
    public var retitled = 0
    /// Feeds moved to the address another device followed a permanent redirect to.
    public var moved = 0
    public var flagsChanged = 0
    /// The articles whose flags changed, by flag and new value (at most
    /// `LibrarySyncResult.idLimit` ids: `flagsChanged` counts them all).
    public var changedFlags: [LibrarySyncResult.FlagChange] = []
    /// States still waiting for their feed or article.
    public var pending = 0
    /// Articles removed with the feeds another device unsubscribed from (starred ones never
    /// are: see `kept`).
    public var articlesRemoved = 0
    /// Subscriptions from another device that were not taken, each with why (an address no
    /// feed may have: `file:`, a device), said once.
    public var refused: [String] = []
    /// Feeds another device unsubscribed from whose starred articles stay here (nothing but
    /// the user's own key deletes one), each in words, said once.
    public var kept: [String] = []

    public init() {}
}
