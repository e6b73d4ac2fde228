import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

/// A feed is known by its id; its address is an attribute a permanent redirect changes.
@Suite("Feeds known by id")
struct FeedIdentityTests {
    static let old = "https://old.example.org/feed"
    static let new = "https://new.example.org/feed.xml"

    @Test("after a permanent redirect the same id reads the same articles, counts and flags")
    func idOutlivesRedirect() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await library.open(withFeed: Self.old)
        try await store.upsertArticles(feedURL: Self.old, items: [item("1", "One"), item("2", "Two", day: 1)])
        let id = try #require(try await store.feedSummaries().first?.id)
        #expect(id.row != nil, "the library names a feed by its row number")
        #expect(try await store.feedID(url: Self.old) == id)
        let before = try await store.articles(in: .feed(id), page: .first(limit: 10)).map(\.title)
        #expect(before == ["Two", "One"])
        await store.setLastOpenedList(.unreadOf(.feed(id)))

        #expect(try await store.moveFeed(from: Self.old, to: Self.new))

        let summary = try #require(try await store.feedSummaries().first)
        #expect(summary.id == id && summary.feed.url == Self.new)
        #expect(try await store.articles(in: .feed(id), page: .first(limit: 10)).map(\.title) == before)
        #expect(try await store.counts(in: .feed(id)).total == 2)
        #expect(try await store.articles(in: .feed(id), page: .first(limit: 10)).allSatisfy { $0.feedID == id })
        try await store.markRead(in: .feed(id))
        #expect(try await store.feedSummaries().first?.unread == 0)
        // The list open before the redirect is the list restored after it.
        #expect(await store.lastOpenedList() == .unreadOf(.feed(id)))
    }

    @Test("a list saved by address (before feed ids) is restored as the feed's id; a gone feed restores nothing")
    func savedByAddress() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await library.open(withFeed: Self.old)
        try await store.upsertFeed(url: Self.new, title: "B", siteURL: nil)
        let id = try await store.feedID(url: Self.new)
        await store.setLastOpenedList(.oldestFirst(.feed(id)))
        #expect(try await store.rawLastList() == "oldest-first:feed:\(id.rawValue)")
        #expect(await store.lastOpenedList() == .oldestFirst(.feed(id)))

        try await store.setRawLastList("oldest-first:feed:" + Self.new)
        #expect(await store.lastOpenedList() == .oldestFirst(.feed(id)))
        try await store.setRawLastList("feed:https://gone.example.org/")
        #expect(await store.lastOpenedList() == nil)
        try await store.setRawLastList("tag:news")
        #expect(await store.lastOpenedList() == .tag("news"))
    }

    @Test("an id the library does not have is no such feed, not another feed's articles")
    func unknownID() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await library.open(withFeed: Self.old)
        await #expect(throws: RepositoryError.self) {
            try await store.articles(in: .feed(FeedID(row: 999)), page: .first(limit: 1))
        }
        await #expect(throws: RepositoryError.self) {
            try await store.articles(in: .feed("https://nowhere.example.org/"), page: .first(limit: 1))
        }
    }
}

extension LibraryStore {
    /// The saved text of the last open list, as the meta table holds it.
    func rawLastList() throws -> String? {
        try db.prepare("SELECT value FROM meta WHERE key = 'last_list'").firstRow { $0.text(0) } ?? nil
    }

    func setRawLastList(_ value: String) throws {
        try db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('last_list', ?1)").bind(.text(value)).run()
    }
}
