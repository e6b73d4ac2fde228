import Foundation
import HeraldCore

/// The Google Reader API's answers, as FreshRSS, Miniflux, Inoreader and The Old Reader
/// write them, and what they become in Herald's terms.
enum GoogleReaderJSON {
    /// `subscription/list?output=json`.
    struct SubscriptionList: Decodable, Sendable {
        var subscriptions: [Subscription]
    }

    struct Subscription: Decodable, Sendable {
        var id: String
        var title: String?
        var url: String?
        var htmlUrl: String?
        var categories: [Category]?
    }

    struct Category: Decodable, Sendable {
        var id: String?
        var label: String?
    }

    /// `stream/contents/…`: a page of items.
    struct StreamContents: Decodable, Sendable {
        var items: [Item]
        var continuation: JSONScalar?
    }

    struct Item: Decodable, Sendable {
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

    struct Link: Decodable, Sendable {
        var href: String?
    }

    struct Origin: Decodable, Sendable {
        var streamId: String?
    }

    struct Content: Decodable, Sendable {
        var content: String?
    }

    struct Media: Decodable, Sendable {
        var href: String?
        var type: String?
        var length: JSONScalar?
    }

    /// `stream/items/ids`: a page of item ids (decimal).
    struct ItemIDs: Decodable, Sendable {
        var itemRefs: [ItemRef]?
        var continuation: JSONScalar?
    }

    struct ItemRef: Decodable, Sendable {
        var id: JSONScalar
    }

    /// `subscription/quickadd`.
    struct QuickAdd: Decodable, Sendable {
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

    /// Whether the item's id is the time the server took it in (FreshRSS's are: microseconds),
    /// so that ids can stand for times (see `GoogleReaderCursor.idsAreCrawlTimes`).
    var idIsCrawlTime: Bool {
        guard let crawled = crawledMicroseconds, let value = GoogleReaderID.value(id.text) else {
            return false
        }
        return value == UInt64(crawled)
    }

    /// The item in Herald's terms; nil when it names no feed (it could not be placed).
    var remoteItem: RemoteItem? {
        guard let feedID = origin?.streamId, !feedID.isEmpty else { return nil }
        let link = canonical?.lazy.compactMap(\.href).first ?? alternate?.lazy.compactMap(\.href).first
        let enclosures = (enclosure ?? []).compactMap { media -> Enclosure? in
            guard let href = media.href else { return nil }
            return Enclosure(
                url: href, type: media.type.flatMap { $0.isEmpty ? nil : $0 }, length: media.length?.int64)
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
        value(id).map(long) ?? id
    }

    /// The number an item id stands for (long form: hex; short form: decimal, signed on
    /// Google's own servers), if it is one.
    static func value(_ id: String) -> UInt64? {
        if id.hasPrefix(itemPrefix) { return UInt64(id.dropFirst(itemPrefix.count), radix: 16) }
        return UInt64(id) ?? Int64(id).map { UInt64(bitPattern: $0) }
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
