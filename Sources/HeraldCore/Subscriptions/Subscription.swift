/// A feed the user follows: where it is, what to call it, how it is tagged.
public struct Subscription: Sendable, Hashable {
    public var url: String
    /// A title chosen by the user (or the OPML file); nil to use the feed's own.
    public var title: String?
    public var siteURL: String?
    public var tags: [String]

    public init(url: String, title: String? = nil, siteURL: String? = nil, tags: [String] = []) {
        self.url = url
        self.title = title
        self.siteURL = siteURL
        self.tags = tags
    }
}

/// A subscription as a file lists it, with the line it is on.
public struct ListedSubscription: Sendable, Hashable {
    public var subscription: Subscription
    public var line: Int

    public init(subscription: Subscription, line: Int) {
        self.subscription = subscription
        self.line = line
    }
}

/// Why a subscription list could not be read.
public struct SubscriptionImportError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// What editing the subscriptions as a urls file came to (newsboat's `E`, edit-urls): feeds
/// to add, to remove, and feeds whose title or tags the user changed; lines refused, with why.
public struct SubscriptionEdits: Sendable, Equatable {
    public var added: [Subscription] = []
    public var removed: [String] = []
    /// A title set (nil: the title setting removed, the feed's own shown again).
    public var retitled: [(url: String, title: String?)] = []
    public var retagged: [(url: String, tags: [String])] = []
    public var refused: [String] = []

    public init() {}

    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && retitled.isEmpty && retagged.isEmpty }

    public static func == (a: SubscriptionEdits, b: SubscriptionEdits) -> Bool {
        a.added == b.added && a.removed == b.removed && a.refused == b.refused
            && a.retitled.map { "\($0.url) \($0.title ?? "-")" } == b.retitled.map { "\($0.url) \($0.title ?? "-")" }
            && a.retagged.map { "\($0.url) \($0.tags)" } == b.retagged.map { "\($0.url) \($0.tags)" }
    }
}

/// The subscriptions as a text to edit (newsboat's urls file), and the edits applied: what the
/// reader's `E` works through. Implemented where the library is (`LibraryURLsEditor`).
public protocol SubscriptionEditing: Sendable {
    /// The feeds in list order, a line each: `URL "tag" "~Title"`.
    func urlsText() async throws -> String
    /// What turning `urlsText()` into `edited` changes (nothing is written).
    func edits(from original: String, to edited: String) async -> SubscriptionEdits
    /// Writes the edits.
    func apply(_ edits: SubscriptionEdits) async throws
}
