import Foundation
import HeraldCore

/// The Fever API's answers (FreshRSS quotes item ids, Miniflux does not; both write flags
/// as 0 and 1), and what they become in Herald's terms.
enum FeverJSON {
    /// Every answer: `auth` 1 when the key was accepted, and the members asked for.
    struct Answer: Decodable, Sendable {
        var auth: JSONScalar?
        var groups: [Group]?
        var feeds: [Feed]?
        var feedsGroups: [FeedsGroup]?
        var items: [Item]?
        var unreadItemIDs: JSONScalar?
        var savedItemIDs: JSONScalar?

        enum CodingKeys: String, CodingKey {
            case auth, groups, feeds, items
            case feedsGroups = "feeds_groups"
            case unreadItemIDs = "unread_item_ids"
            case savedItemIDs = "saved_item_ids"
        }
    }

    struct Group: Decodable, Sendable {
        var id: JSONScalar
        var title: String?
    }

    struct Feed: Decodable, Sendable {
        var id: JSONScalar
        var title: String?
        var url: String?
        var siteURL: String?

        enum CodingKeys: String, CodingKey {
            case id, title, url
            case siteURL = "site_url"
        }
    }

    struct FeedsGroup: Decodable, Sendable {
        var groupID: JSONScalar
        /// Comma-separated feed ids.
        var feedIDs: JSONScalar?

        enum CodingKeys: String, CodingKey {
            case groupID = "group_id"
            case feedIDs = "feed_ids"
        }
    }

    struct Item: Decodable, Sendable {
        var id: JSONScalar
        var feedID: JSONScalar?
        var title: String?
        var author: String?
        var html: String?
        var url: String?
        var isSaved: JSONScalar?
        var isRead: JSONScalar?
        var createdOnTime: JSONScalar?

        enum CodingKeys: String, CodingKey {
            case id, title, author, html, url
            case feedID = "feed_id"
            case isSaved = "is_saved"
            case isRead = "is_read"
            case createdOnTime = "created_on_time"
        }
    }

    /// The ids of a comma-separated list (`unread_item_ids`, `feed_ids`): whole numbers only.
    static func ids(_ list: JSONScalar?) -> [String] {
        guard let list else { return [] }
        return list.text.split(separator: ",").compactMap { part in
            let id = part.trimmingCharacters(in: .whitespaces)
            return Int64(id) == nil ? nil : id
        }
    }

    /// The feeds with the titles of the groups that hold them as categories.
    static func feeds(_ feeds: [Feed], groups: [Group], feedsGroups: [FeedsGroup]) -> [RemoteFeed] {
        var titles: [String: String] = [:]
        for group in groups { titles[group.id.text] = ServerItem.line(group.title ?? "") }
        var categories: [String: [String]] = [:]
        for relation in feedsGroups {
            guard let title = titles[relation.groupID.text], !title.isEmpty else { continue }
            for feedID in ids(relation.feedIDs) where categories[feedID]?.contains(title) != true {
                categories[feedID, default: []].append(title)
            }
        }
        return feeds.map { feed in
            let address = ServerItem.url(feed.url) ?? ServerItem.line(feed.url ?? "")
            let title = ServerItem.line(feed.title ?? "")
            return RemoteFeed(
                id: feed.id.text, url: address, title: title.isEmpty ? address : title,
                siteURL: ServerItem.url(feed.siteURL), categories: categories[feed.id.text] ?? [])
        }
    }
}

extension FeverJSON.Item {
    /// The item in Herald's terms; nil when it names no feed.
    var remoteItem: RemoteItem? {
        guard let feedID = feedID?.text, !feedID.isEmpty else { return nil }
        let item = ServerItem.make(
            id: id.text, title: title, link: url, author: author,
            published: AccountValue.date(seconds: createdOnTime?.int64), updated: nil, html: html)
        return RemoteItem(item: item, feedID: feedID, read: Self.flag(isRead), starred: Self.flag(isSaved))
    }

    private static func flag(_ value: JSONScalar?) -> Bool {
        guard let text = value?.text else { return false }
        return text == "1" || text == "true"
    }
}
