import Foundation
import HeraldAccounts
import HeraldCore
import HeraldTestSupport
import Testing

/// The TT-RSS client against a real Tiny Tiny RSS (Debian's tt-rss 21, API level 15), each
/// test with a user and feeds of its own.
@Suite(
    .enabled(if: RealTTRSS.unavailable == nil, "a real TT-RSS needs root and shared/servers/start-ttrss.sh"))
struct TinyTinyRSSServiceTests {
    let newest = Date().addingTimeInterval(-86_400)

    @Test("logs in, and a wrong password is refused without the password in the words")
    func logIn() async throws {
        let account = try await TinyTinyRSSTestAccount()
        try await account.client().logIn()
        let wrong = "wrong-\(UUID().uuidString)"
        let error = await #expect(throws: AccountError.self) {
            try await account.client(password: wrong).logIn()
        }
        guard case .unauthorized(let why)? = error else {
            Issue.record("expected .unauthorized, got \(String(describing: error))")
            return
        }
        #expect(why.contains("LOGIN_ERROR"))
        #expect(!String(describing: error).contains(wrong))
        #expect(!String(describing: error).contains(account.user.password))
    }

    @Test("a user whose API access is off is refused with TT-RSS's reason")
    func apiDisabled() async throws {
        let account = try await TinyTinyRSSTestAccount()
        try await account.server.sql(
            "update ttrss_user_prefs set value = 'false' where owner_uid = \(account.user.id) and pref_name = 'ENABLE_API_ACCESS';"
        )
        await #expect(
            throws: AccountError.unauthorized(
                "the API is switched off for this user in TT-RSS's preferences (API_DISABLED)")
        ) {
            try await account.client().logIn()
        }
    }

    @Test("lists feeds with their titles, addresses and categories as tags")
    func feeds() async throws {
        let account = try await TinyTinyRSSTestAccount()
        try await account.server.addCategory("Science & Sea", for: account.user)
        let sea = try await account.addFeed(
            "sea.xml", title: "The Sea & Sky",
            items: TinyTinyRSSTestAccount.articles("sea", count: 2, newest: newest),
            category: "Science & Sea")
        let plain = try await account.addFeed(
            "plain.xml", title: "Plain",
            items: TinyTinyRSSTestAccount.articles("plain", count: 1, newest: newest))
        let feeds = try await account.client().feeds()
        #expect(feeds.count == 2)
        let seaFeed = feeds.first { $0.id == sea }
        #expect(seaFeed?.title == "The Sea & Sky")
        #expect(seaFeed?.url == account.feeds.feedURL("sea.xml"))
        #expect(seaFeed?.categories == ["Science & Sea"])
        #expect(feeds.first { $0.id == plain }?.categories == [])
    }

    @Test("a first sync pages through every article with small pages, and the next gets exactly the new ones")
    func cursors() async throws {
        let account = try await TinyTinyRSSTestAccount()
        let one = try await account.addFeed(
            "one.xml", title: "One", items: TinyTinyRSSTestAccount.articles("one", count: 7, newest: newest))
        try await account.addFeed(
            "two.xml", title: "Two", items: TinyTinyRSSTestAccount.articles("two", count: 6, newest: newest))
        let client = account.client()
        let first = try await account.sync(client, from: nil, limit: 3)
        let all = try await account.articleIDs()
        #expect(all.count == 13)
        #expect(Set(first.items.map(\.item.id)) == all)
        #expect(first.pages >= 5)
        #expect(first.items.allSatisfy { $0.item.html?.isEmpty == false })

        // Nothing new: one call, no items, the same cursor.
        let nothing = try await client.items(after: first.cursor, limit: 3)
        #expect(nothing.items.isEmpty && !nothing.more && nothing.cursor == first.cursor)

        try await account.refeed(
            one, "one.xml", title: "One",
            items: TinyTinyRSSTestAccount.articles(
                "one", count: 4, from: 7, newest: newest.addingTimeInterval(-30 * 3600))
                + TinyTinyRSSTestAccount.articles("one", count: 7, newest: newest))
        let added = try await account.articleIDs().subtracting(all)
        #expect(added.count == 4)
        let second = try await account.sync(client, from: first.cursor, limit: 3)
        #expect(Set(second.items.map(\.item.id)) == added)
        let third = try await account.sync(account.client(), from: second.cursor, limit: 3)
        #expect(third.items.isEmpty)
    }

    @Test("a walk whose list loses articles above it backs up and still delivers every article")
    func listMovingUp() async throws {
        let account = try await TinyTinyRSSTestAccount()
        try await account.addFeed(
            "moving.xml", title: "Moving",
            items: TinyTinyRSSTestAccount.articles("moving", count: 30, newest: newest))
        let client = account.client()
        var page = try await client.items(after: nil, limit: 10)
        var seen = Set(page.items.map(\.item.id))
        page = try await client.items(after: page.cursor, limit: 10)
        seen.formUnion(page.items.map(\.item.id))
        // Six of the articles already delivered go (purged, say): the rest move up six places,
        // past the overlap, and an offset alone would step over them.
        let gone = Array(seen.sorted { Int($0)! > Int($1)! }.prefix(6))
        try await account.server.sql(
            "delete from ttrss_user_entries where owner_uid = \(account.user.id) and ref_id in (\(gone.joined(separator: ",")));"
        )
        var cursor = page.cursor
        while page.more {
            page = try await client.items(after: cursor, limit: 10)
            seen.formUnion(page.items.map(\.item.id))
            cursor = page.cursor
        }
        #expect(try await account.articleIDs().isSubset(of: seen))
    }

    @Test("text, dates, authors, links and enclosures come through")
    func articleFields() async throws {
        let account = try await TinyTinyRSSTestAccount()
        let feed = try await account.addFeed(
            "fields.xml", title: "Fields",
            items: TinyTinyRSSTestAccount.articles("fields", count: 4, newest: newest))
        let items = try await account.sync(account.client(), from: nil, limit: 50).items
        let entry = try #require(items.first { $0.item.title == "fields entry 3 & more" })
        #expect(entry.feedID == feed)
        #expect(entry.item.link == "http://example.org/fields/3")
        #expect(entry.item.author?.contains("Keeper 3") == true)
        let date = try #require(entry.item.published)
        #expect(abs(date.timeIntervalSince(newest.addingTimeInterval(-3 * 3600))) < 1.5)
        #expect(entry.item.text.contains("The lighthouse keeper of fields wrote entry 3"))
        #expect(entry.item.text.count > 1500)
        #expect(entry.item.html?.contains("<h2>Entry 3</h2>") == true)
        #expect(
            entry.item.enclosures == [
                Enclosure(url: "http://example.org/fields/3.mp3", type: "audio/mpeg", length: 1003)
            ])
        #expect(!entry.read && !entry.starred)
        #expect(items.first { $0.item.title == "fields entry 1 & more" }?.item.enclosures == [])
    }

    @Test("states() gives the server's unread and starred ids")
    func states() async throws {
        let account = try await TinyTinyRSSTestAccount()
        try await account.addFeed(
            "states.xml", title: "States",
            items: TinyTinyRSSTestAccount.articles("states", count: 9, newest: newest))
        let ids = try await account.articleIDs().sorted()
        try await account.server.sql(
            """
            update ttrss_user_entries set unread = false where owner_uid = \(account.user.id) and ref_id in (\(ids[0]), \(ids[1]), \(ids[2]));
            update ttrss_user_entries set marked = true where owner_uid = \(account.user.id) and ref_id in (\(ids[2]), \(ids[5]));
            """)
        let states = try await account.client().states()
        #expect(states.unread == Set(ids[3...]))
        #expect(states.starred == [ids[2], ids[5]])
        #expect(states.changedAt.isEmpty)
        #expect(states.unread == (try await account.articleIDs(where: "unread")))
    }

    @Test("send marks read, unread, starred and unstarred, in order, and a second client sees it")
    func send() async throws {
        let account = try await TinyTinyRSSTestAccount()
        try await account.addFeed(
            "send.xml", title: "Send",
            items: TinyTinyRSSTestAccount.articles("send", count: 5, newest: newest))
        let ids = try await account.articleIDs().sorted()
        try await account.client().send([
            RemoteFlagChange(itemID: ids[0], flag: .read, value: true),
            RemoteFlagChange(itemID: ids[1], flag: .read, value: true),
            RemoteFlagChange(itemID: ids[1], flag: .starred, value: true),
            RemoteFlagChange(itemID: ids[2], flag: .starred, value: true),
            // Of one article's changes to one flag the last counts.
            RemoteFlagChange(itemID: ids[3], flag: .read, value: true),
            RemoteFlagChange(itemID: ids[3], flag: .read, value: false),
            RemoteFlagChange(itemID: ids[2], flag: .starred, value: false),
            RemoteFlagChange(itemID: ids[4], flag: .starred, value: false),
            RemoteFlagChange(itemID: "not-an-id", flag: .read, value: true),
        ])
        let states = try await account.client().states()
        #expect(states.unread == [ids[2], ids[3], ids[4]])
        #expect(states.starred == [ids[1]])
        try await account.client().send([RemoteFlagChange(itemID: ids[0], flag: .read, value: false)])
        #expect(try await account.client().states().unread == [ids[0], ids[2], ids[3], ids[4]])
    }

    @Test("subscribe and unsubscribe show in feeds(); a category TT-RSS lacks leaves the feed uncategorised")
    func subscriptions() async throws {
        let account = try await TinyTinyRSSTestAccount()
        try await account.server.addCategory("Kept", for: account.user)
        try account.feeds.write("a.xml", FolderFeed(title: "Feed A", items: []).rss)
        try account.feeds.write("b.xml", FolderFeed(title: "Feed B", items: []).rss)
        let client = account.client()
        let a = try await client.subscribe(url: account.feeds.feedURL("a.xml"), category: "kept")
        #expect(a.categories == ["Kept"])
        #expect(a.url == account.feeds.feedURL("a.xml"))
        let b = try await client.subscribe(url: account.feeds.feedURL("b.xml"), category: "Nowhere")
        #expect(b.categories == [])
        #expect(Set(try await client.feeds().map(\.id)) == [a.id, b.id])
        // Subscribing again gives the same feed.
        #expect(try await client.subscribe(url: account.feeds.feedURL("a.xml"), category: nil).id == a.id)
        try await client.unsubscribe(feedID: a.id)
        #expect(try await client.feeds().map(\.id) == [b.id])
        try await client.unsubscribe(feedID: a.id)
        await #expect(throws: AccountError.self) {
            try await client.subscribe(url: account.feeds.feedURL("missing.xml"), category: nil)
        }
    }

    @Test("a session the server forgot is replaced by a new login, unseen by the caller")
    func forgottenSession() async throws {
        let account = try await TinyTinyRSSTestAccount()
        let client = account.client()
        let sessions =
            "select count(*) from ttrss_sessions where convert_from(decode(data, 'base64'), 'UTF8') like 'uid|i:\(account.user.id);%';"
        #expect(try await client.feeds().isEmpty)
        #expect(try await account.server.sql(sessions).hasPrefix("1"))
        try await account.server.forgetSessions(of: account.user)
        #expect(try await account.server.sql(sessions).hasPrefix("0"))
        #expect(try await client.feeds().isEmpty)
        #expect(try await account.server.sql(sessions).hasPrefix("1"))
        #expect(try await client.states().unread.isEmpty)
        // Calls made at once after the server forgot the session: one new login, and no two
        // requests carrying the forgotten id at once (TT-RSS answers one of them HTTP 500).
        for _ in 0..<3 {
            try await account.server.forgetSessions(of: account.user)
            async let feeds = client.feeds()
            async let states = client.states()
            async let more = client.feeds()
            let answers = try await (feeds, states, more)
            #expect(answers.0.isEmpty && answers.1.unread.isEmpty && answers.2.isEmpty)
        }
    }
}
