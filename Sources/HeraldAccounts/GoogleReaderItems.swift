import Foundation
import HeraldCore

/// The Google Reader API's answers, as FreshRSS, Miniflux, Inoreader and The Old Reader
/// write them, and what they become in Herald's terms.
enum GoogleReaderJSON {
    /// `subscription/list?output=json`.
    struct SubscriptionList: Decodable {
        var subscriptions: [Subscription]
    }

    struct Subscription: Decodable {
        var id: String
        var title: String?
        var url: String?
        var htmlUrl: String?
        var categories: [Category]?
    }

    struct Category: Decodable {
        var id: String?
        var label: String?
    }

    /// `stream/contents/…`: a page of items.
    struct StreamContents: Decodable {
        var items: [Item]
        var continuation: JSONScalar?
    }

    struct Item: Decodable {
        var id: JSONScalar
        var crawlTimeMsec: JSONScalar?
        var timestampUsec: JSONScalar?
        var published: JSONScalar?
        var updated: JSONScalar?
        var title: String?
        var author: String?
        var canonical: [Link]?
        var alternate: [Link]?
        var categories: [String]?
        var origin: Origin?
        var summary: Content?
        var content: Content?
        var enclosure: [Media]?
    }

    struct Link: Decodable {
        var href: String?
    }

    struct Origin: Decodable {
        var streamId: String?
    }

    struct Content: Decodable {
        var content: String?
    }

    struct Media: Decodable {
        var href: String?
        var type: String?
        var length: JSONScalar?
    }

    /// `stream/items/ids`: a page of item ids (decimal).
    struct ItemIDs: Decodable {
        var itemRefs: [ItemRef]?
        var continuation: JSONScalar?
    }

    struct ItemRef: Decodable {
        var id: JSONScalar
    }

    /// `subscription/quickadd`.
    struct QuickAdd: Decodable {
        var numResults: JSONScalar?
        var streamId: String?
        var query: String?
        var streamName: String?
        var error: String?
    }
}

extension GoogleReaderJSON.Subscription {
    /// The feed in Herald's terms: categories from the labels (`user/-/label/NAME` → `NAME`).
    var remoteFeed: RemoteFeed {
        let address = ServerItem.url(url) ?? ServerItem.line(url ?? "")
        let name = ServerItem.line(title ?? "")
        var names: [String] = []
        for category in categories ?? [] {
            let label = category.id.flatMap(GoogleReaderID.label) ?? category.label ?? ""
            let name = ServerItem.line(label)
            if !name.isEmpty && !names.contains(name) { names.append(name) }
        }
        return RemoteFeed(
            id: id, url: address, title: name.isEmpty ? address : name, siteURL: ServerItem.url(htmlUrl),
            categories: names)
    }
}

extension GoogleReaderJSON.Item {
    /// When the server took the item in, in microseconds (what `ot` compares with), if it says.
    var crawledMicroseconds: Int64? {
        if let usec = timestampUsec?.int64, usec > 0 { return usec }
        if let msec = crawlTimeMsec?.int64, msec > 0, msec < Int64.max / 1000 { return msec * 1000 }
        return nil
    }

    /// The item in Herald's terms; nil when it names no feed (it could not be placed).
    var remoteItem: RemoteItem? {
        guard let feedID = origin?.streamId, !feedID.isEmpty else { return nil }
        let link = canonical?.lazy.compactMap(\.href).first ?? alternate?.lazy.compactMap(\.href).first
        let enclosures = (enclosure ?? []).compactMap { media -> Enclosure? in
            guard let href = media.href else { return nil }
            return Enclosure(url: href, type: media.type.flatMap { $0.isEmpty ? nil : $0 }, length: media.length?.int64)
        }
        var read = false
        var starred = false
        for category in categories ?? [] where category.hasPrefix("user/") {
            if category.hasSuffix("/state/com.google/read") { read = true }
            if category.hasSuffix("/state/com.google/starred") { starred = true }
        }
        let item = ServerItem.make(
            id: GoogleReaderID.long(id.text), title: title, link: link, author: author,
            published: AccountValue.date(seconds: published?.int64),
            updated: AccountValue.date(seconds: updated?.int64),
            html: content?.content ?? summary?.content, enclosures: enclosures)
        return RemoteItem(item: item, feedID: feedID, read: read, starred: starred)
    }
}

/// Item ids and stream names of the Google Reader API.
enum GoogleReaderID {
    static let itemPrefix = "tag:google.com,2005:reader/item/"
    static let readingList = "user/-/state/com.google/reading-list"
    static let read = "user/-/state/com.google/read"
    static let starred = "user/-/state/com.google/starred"
    static let labelPrefix = "user/-/label/"

    /// The long form of an item id (`tag:google.com,2005:reader/item/` and 16 lowercase hex
    /// digits), what `edit-tag` takes, from the long form or the decimal one of
    /// `stream/items/ids` (a signed 64-bit number on Google's own servers). An id in neither
    /// form is kept as it is.
    static func long(_ id: String) -> String {
        if id.hasPrefix(itemPrefix) {
            guard let value = UInt64(id.dropFirst(itemPrefix.count), radix: 16) else { return id }
            return long(value)
        }
        if let value = UInt64(id) { return long(value) }
        if let value = Int64(id) { return long(UInt64(bitPattern: value)) }
        return id
    }

    static func long(_ value: UInt64) -> String {
        let hex = String(value, radix: 16)
        return itemPrefix + String(repeating: "0", count: max(0, 16 - hex.count)) + hex
    }

    /// `NAME` of a label's stream id (`user/-/label/NAME`, `user/1005921515/label/NAME`).
    static func label(_ streamID: String) -> String? {
        guard streamID.hasPrefix("user/") else { return nil }
        let parts = streamID.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[2] == "label", !parts[3].isEmpty else { return nil }
        return String(parts[3])
    }
}

/// Where a sync of `stream/contents` stands, written into `RemoteItemPage.cursor`.
///
/// A sync asks for items the server took in at or after `since` (`ot`, seconds: FreshRSS
/// compares `id >= ot·10⁶`, its ids being the microseconds at which it took the items in),
/// oldest first (`r=o`), following `continuation` from page to page. `newest` is the latest
/// crawl time seen, in microseconds: the next sync starts a second before its second, so an
/// item taken in during the same second, or by a server that compares `ot` strictly, is
/// fetched again rather than missed (the store keeps one copy per id).
struct GoogleReaderCursor: Equatable {
    /// `ot` of this sync's requests; nil: from the very first item.
    var since: Int64?
    /// The latest crawl time seen, in microseconds (0: none yet).
    var newest: Int64
    /// The next page of this sync; nil: the sync is done, the next one starts at `newest`.
    var continuation: String?

    static let tag = "gr1"

    init(since: Int64?, newest: Int64, continuation: String?) {
        (self.since, self.newest, self.continuation) = (since, newest, continuation)
    }

    /// A stored cursor; nil or unreadable: from the start (every item again, harmless).
    init(_ text: String?) {
        self.init(since: nil, newest: 0, continuation: nil)
        guard let text else { return }
        let parts = text.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == Self.tag, let newest = Int64(parts[2]), newest >= 0 else { return }
        self.newest = newest
        if !parts[3].isEmpty {
            self.continuation = String(parts[3])
            self.since = Int64(parts[1])
        }
    }

    var text: String {
        "\(Self.tag):\(since.map(String.init) ?? "-"):\(newest):\(continuation ?? "")"
    }

    /// `ot` for the request this cursor leads to.
    var requestSince: Int64? {
        if continuation != nil { return since }
        return newest > 0 ? max(newest / 1_000_000 - 1, 0) : nil
    }
}
