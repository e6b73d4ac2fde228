import Foundation
import HeraldAccounts
import HeraldFetch
import HeraldTestSupport

/// One test's account on the process's real TT-RSS: a user of its own, feeds served from a
/// folder of its own, and the client under test.
final class TinyTinyRSSTestAccount {
    let server: RealTTRSS
    let user: TTRSSUser
    let feeds: FeedFolderServer
    let fetcher = FeedFetcher()

    init() async throws {
        server = try await RealTTRSS.shared()
        user = try await server.newUser()
        feeds = try FeedFolderServer()
    }

    deinit { feeds.stop() }

    /// A new client of the account (a fresh login).
    func client(password: String? = nil) -> TinyTinyRSSService {
        TinyTinyRSSService(
            base: server.base, login: user.login, password: password ?? user.password, fetcher: fetcher)
    }

    /// Writes the feed `name` with `items`, subscribes to it (in `category`) through the
    /// client and makes TT-RSS fetch it; the feed's id.
    @discardableResult
    func addFeed(
        _ name: String, title: String, items: [FolderFeed.Item], category: String? = nil
    ) async throws -> String {
        try feeds.write(name, FolderFeed(title: title, items: items).rss)
        let feed = try await client().subscribe(url: feeds.feedURL(name), category: category)
        try await update(feed.id, name)
        return feed.id
    }

    /// Rewrites the feed `name` with `items` and makes TT-RSS fetch it again.
    func refeed(_ feedID: String, _ name: String, title: String, items: [FolderFeed.Item]) async throws {
        try feeds.write(name, FolderFeed(title: title, items: items).rss)
        try await update(feedID, name)
    }

    func update(_ feedID: String, _ name: String) async throws {
        try await server.update(feedID: Int(feedID) ?? 0, url: feeds.feedURL(name), for: user)
    }

    /// The user's article ids as TT-RSS's database holds them (`where` on ttrss_user_entries).
    func articleIDs(where condition: String = "true") async throws -> Set<String> {
        let rows = try await server.sql(
            "select ref_id from ttrss_user_entries where owner_uid = \(user.id) and (\(condition));")
        return Set(rows.split(separator: "\n").map(String.init))
    }

    /// Every page of a sync from `cursor`, `limit` items a page: the items and the last cursor.
    func sync(
        _ client: TinyTinyRSSService, from cursor: String?, limit: Int
    ) async throws -> (items: [RemoteItem], cursor: String?, pages: Int) {
        var items: [RemoteItem] = []
        var cursor = cursor
        var pages = 0
        while true {
            let page = try await client.items(after: cursor, limit: limit)
            pages += 1
            items += page.items
            cursor = page.cursor
            if !page.more || pages > 10_000 { return (items, cursor, pages) }
        }
    }

    /// `count` articles with full HTML bodies (a few KB each), dated an hour apart back from
    /// `newest`, their guids `prefix-N`.
    static func articles(_ prefix: String, count: Int, from first: Int = 0, newest: Date) -> [FolderFeed.Item] {
        (first..<first + count).map { n in
            let paragraph =
                "<p>The lighthouse keeper of \(prefix) wrote entry \(n) at six, as her mother had: wind, "
                + "cloud, the colour of the sea, and the ships that passed. <a href=\"/notes/\(n)\">Notes</a>.</p>"
            return FolderFeed.Item(
                guid: "\(prefix)-\(n)", title: "\(prefix) entry \(n) & more",
                link: "http://example.org/\(prefix)/\(n)",
                author: "keeper\(n)@example.org (Keeper \(n))",
                date: newest.addingTimeInterval(-3600 * Double(n)),
                html: "<h2>Entry \(n)</h2>" + String(repeating: paragraph, count: 12),
                enclosure: n % 3 == 0
                    ? ("http://example.org/\(prefix)/\(n).mp3", "audio/mpeg", 1000 + n) : nil)
        }
    }
}
