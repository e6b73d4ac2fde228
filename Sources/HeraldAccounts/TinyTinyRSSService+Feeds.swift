import Foundation
import HeraldCore

/// Subscriptions: `getFeeds`, `getCategories`, `subscribeToFeed`, `unsubscribeFeed`.
extension TinyTinyRSSService {
    /// Every feed (`getFeeds` with `cat_id` -3: all real feeds, whatever their category),
    /// its category's title (`getCategories`) as its one tag. Feeds without a usable http(s)
    /// address are left out (TT-RSS fetches no others).
    public func feeds() async throws(AccountError) -> [RemoteFeed] {
        // One after the other, not at once: see `TinyTinyRSSService` on sessions.
        let titles = try await categoryTitles()
        let listed = try await call("getFeeds", ["cat_id": .number(-3)], as: [TinyTinyRSSReply.Feed].self)
        return listed.compactMap { feed in
            guard feed.id.value > 0, feed.isCategory?.value != true, let url = ServerItem.url(feed.url) else {
                return nil
            }
            let category = feed.categoryID.flatMap { titles[$0.value] }
            return RemoteFeed(
                id: String(feed.id.value), url: url, title: ServerItem.line(feed.title ?? ""),
                categories: category.map { [$0] } ?? [])
        }
    }

    /// Subscribes through `subscribeToFeed` (TT-RSS fetches the address first, and finds the
    /// feed of a web page that announces one). API level 15 cannot create a category: in a
    /// category TT-RSS does not have, the feed is subscribed uncategorised.
    public func subscribe(url: String, category: String?) async throws(AccountError) -> RemoteFeed {
        var categoryID = 0
        if let category, !category.isEmpty {
            let titles = try await categoryTitles()
            let exact = titles.first { $0.value == category }
            let folded = titles.first { $0.value.caseInsensitiveCompare(category) == .orderedSame }
            categoryID = (exact ?? folded)?.key ?? 0
        }
        var parameters: [String: TinyTinyRSSValue] = ["feed_url": .text(url)]
        if categoryID > 0 { parameters["category_id"] = .number(categoryID) }
        let status = try await call("subscribeToFeed", parameters, as: TinyTinyRSSReply.Subscribed.self)
            .status
        switch status.code.value {
        case 0, 1:
            // 1: subscribed; 0: it already was.
            guard let id = status.feedID?.value, id > 0 else {
                throw .badResponse("TT-RSS subscribed without saying to which feed")
            }
            guard let feed = try await feeds().first(where: { $0.id == String(id) }) else {
                throw .badResponse("TT-RSS subscribed to feed \(id) and does not list it")
            }
            return feed
        case 2: throw .configuration("TT-RSS did not take that address as a URL")
        case 3: throw .configuration("TT-RSS found no feed at that address (a web page announcing none)")
        case 4:
            throw .configuration("TT-RSS found several feeds at that address: give one of their addresses")
        case 5:
            let why = status.message.map { ServerItem.line(String($0.prefix(200))) } ?? ""
            throw .unreachable("TT-RSS could not download the feed" + (why.isEmpty ? "" : ": \(why)"))
        case let code: throw .badResponse("TT-RSS answered subscribeToFeed with the status \(code)")
        }
    }

    /// Unsubscribes (TT-RSS deletes the feed's articles but the starred ones, which it keeps
    /// in its "Archived articles"). A feed TT-RSS no longer has counts as unsubscribed.
    public func unsubscribe(feedID: String) async throws(AccountError) {
        guard let id = Self.serverNumber(feedID) else {
            throw .configuration("\"\(ServerItem.line(String(feedID.prefix(40))))\" is not a TT-RSS feed id")
        }
        do {
            _ = try await call("unsubscribeFeed", ["feed_id": .number(id)], as: TinyTinyRSSReply.Ignored.self)
        } catch .badResponse(let why) where why.contains("FEED_NOT_FOUND") {
            return
        }
    }

    /// Category ids and titles (`getCategories`, empty ones too; nested ones flat).
    func categoryTitles() async throws(AccountError) -> [Int: String] {
        let categories = try await call(
            "getCategories", ["include_empty": .flag(true)], as: [TinyTinyRSSReply.Category].self)
        var titles: [Int: String] = [:]
        for category in categories where category.id.value > 0 {
            let title = ServerItem.line(category.title ?? "")
            if !title.isEmpty { titles[category.id.value] = title }
        }
        return titles
    }

    /// A TT-RSS id given back by the engine: a positive integer, or nil.
    static func serverNumber(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count < 19, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            let number = Int(text), number > 0
        else { return nil }
        return number
    }
}
