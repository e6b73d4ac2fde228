public import Foundation
public import HeraldCore

/// A feed the account is subscribed to on its server.
public struct RemoteFeed: Sendable, Hashable {
    /// The server's id of the feed (`feed/12` in the Google Reader API, `12` in TT-RSS and
    /// Fever): what its items name, and what unsubscribing takes.
    public var id: String
    /// The feed's own address, as the server fetches it.
    public var url: String
    public var title: String
    public var siteURL: String?
    /// The server's categories or labels of the feed (folders): Herald's tags.
    public var categories: [String]

    public init(id: String, url: String, title: String, siteURL: String? = nil, categories: [String] = []) {
        (self.id, self.url, self.title, self.siteURL, self.categories) = (id, url, title, siteURL, categories)
    }
}

/// An article as the server gives it, with its flags there.
public struct RemoteItem: Sendable, Hashable {
    /// The article: its `id` is the server's id of the item (what marking it takes), its
    /// text made from the server's HTML as a feed's would be.
    public var item: ParsedItem
    /// The `RemoteFeed.id` of its feed.
    public var feedID: String
    public var read: Bool
    public var starred: Bool

    public init(item: ParsedItem, feedID: String, read: Bool, starred: Bool) {
        (self.item, self.feedID, self.read, self.starred) = (item, feedID, read, starred)
    }
}

/// A page of new items, and where the next page starts.
public struct RemoteItemPage: Sendable {
    public var items: [RemoteItem]
    /// Where to go on from: the cursor to pass for the next page, and to store when the
    /// sync ends, so the next sync asks for newer items only. Opaque to everything but its
    /// service.
    public var cursor: String?
    /// More pages follow this one in this sync.
    public var more: Bool

    public init(items: [RemoteItem], cursor: String?, more: Bool) {
        (self.items, self.cursor, self.more) = (items, cursor, more)
    }
}

/// The flags an article can carry both here and on a server.
public enum RemoteFlag: String, Sendable, Hashable {
    case read, starred
}

/// A change of one flag of one article, made in Herald, to send up.
public struct RemoteFlagChange: Sendable, Hashable {
    /// The server's id of the item.
    public var itemID: String
    public var flag: RemoteFlag
    public var value: Bool

    public init(itemID: String, flag: RemoteFlag, value: Bool) {
        (self.itemID, self.flag, self.value) = (itemID, flag, value)
    }
}

/// The ids of the server's unread and starred items, all of them: what the flags of the
/// articles Herald holds become (an id in neither set is read and not starred). A protocol
/// that dates a change of state sets `changedAt` for the ids it can date (see
/// `AccountSync`: of a change waiting here and one made on the server, the later wins).
public struct RemoteStates: Sendable, Hashable {
    public var unread: Set<String>
    public var starred: Set<String>
    /// When the server says an item's read or starred state last changed, by item id.
    public var changedAt: [String: Date]

    public init(unread: Set<String>, starred: Set<String>, changedAt: [String: Date] = [:]) {
        (self.unread, self.starred, self.changedAt) = (unread, starred, changedAt)
    }
}

/// What a protocol can do beyond reading and marking.
public struct AccountAbilities: Sendable, Hashable {
    public var subscribe: Bool
    public var unsubscribe: Bool

    public init(subscribe: Bool, unsubscribe: Bool) {
        (self.subscribe, self.unsubscribe) = (subscribe, unsubscribe)
    }
}

/// One protocol's client of one account: the Google Reader API, TT-RSS's JSON API, Fever.
/// A fourth joins as one type conforming to this (and a case of `AccountProtocol`).
///
/// Implementations are actors (they hold a session: a token, a session id) and log in on
/// their first call, and again once when the server says the session has ended. Every
/// answer is hostile input: sizes are bounded by the fetcher, values are checked, and a
/// field of the wrong type is an `AccountError.badResponse`, never a crash. A secret never
/// appears in an error's words.
public protocol AccountService: Sendable {
    var abilities: AccountAbilities { get }

    /// Logs in (or checks the credentials): `.unauthorized` when they are refused.
    func logIn() async throws(AccountError)

    /// Every subscription of the account.
    func feeds() async throws(AccountError) -> [RemoteFeed]

    /// Items newer than `cursor` (nil: every item the server holds), a page at a time, oldest
    /// or newest first as the protocol pages best; a page of at most `limit` items.
    func items(after cursor: String?, limit: Int) async throws(AccountError) -> RemoteItemPage

    /// Every unread and every starred item id.
    func states() async throws(AccountError) -> RemoteStates

    /// A cheap fingerprint of the server's unread and starred state (per-feed counts), for a
    /// protocol whose `states()` is dear (TT-RSS lists 10,000 unread ids in about 10 s): the
    /// same as at the end of the last sync, `states()` is skipped. nil (the default): no cheap
    /// way, `states()` at every sync.
    func statesFingerprint() async throws(AccountError) -> String?

    /// Sends changes up, in order (a later change of one item's flag after an earlier one).
    func send(_ changes: [RemoteFlagChange]) async throws(AccountError)

    /// Subscribes to `url` (in the category `category`, when given); the feed as the server
    /// now lists it. `.unsupported` when the protocol cannot.
    func subscribe(url: String, category: String?) async throws(AccountError) -> RemoteFeed

    /// Unsubscribes from the feed with the server's id `feedID`.
    func unsubscribe(feedID: String) async throws(AccountError)

    /// Drops what was asked for ahead (the next page of items, fetched while the caller
    /// stores this one): a sync that ends, or stops at an error, leaves no request running.
    func dropAhead() async
}

extension AccountService {
    public func statesFingerprint() async throws(AccountError) -> String? { nil }

    /// Nothing asked for ahead (the default).
    public func dropAhead() async {}
}

/// Why an account's server could not be read or written, in words for its status line. None
/// of them holds a secret.
public enum AccountError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server refused the login or the session (HTTP 401/403, a login error).
    case unauthorized(String)
    /// The server could not be reached, or the exchange failed on the way (the fetcher's
    /// words: DNS, refused, timed out, too large).
    case unreachable(String)
    /// The server asks not to be asked again for `seconds` (429/503 with Retry-After).
    case busy(seconds: Int)
    /// The server answered with an error status.
    case serverError(status: Int)
    /// The server answered something that is not the protocol: what was wrong.
    case badResponse(String)
    /// The protocol cannot do this (Fever cannot subscribe).
    case unsupported(String)
    /// The account's settings are incomplete or wrong (no URL, an unreadable password file).
    case configuration(String)
    /// The server refused this one request for good (a subscription to an address it cannot
    /// read): asking again would get the same answer.
    case refused(String)

    public var description: String {
        switch self {
        case .unauthorized(let why): "login refused: \(why)"
        case .unreachable(let why): why
        case .busy(let seconds): "the server asks not to be asked again for \(Self.duration(seconds))"
        case .serverError(let status): "the server answered HTTP \(status)"
        case .badResponse(let why): "the server's answer is not understood: \(why)"
        case .unsupported(let what): what
        case .configuration(let why): why
        case .refused(let why): why
        }
    }

    /// Whether trying again later may succeed without the user changing anything.
    public var isTransient: Bool {
        switch self {
        case .unreachable, .busy, .serverError, .badResponse: true
        case .unauthorized, .unsupported, .configuration, .refused: false
        }
    }

    static func duration(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        let minutes = (seconds + 30) / 60
        if minutes < 60 { return "\(minutes) min" }
        return "\(minutes / 60) h" + (minutes % 60 > 0 ? " \(minutes % 60) min" : "")
    }
}
