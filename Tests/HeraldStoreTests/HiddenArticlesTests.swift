import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

/// The four filter actions on a real library: `hide` keeps matching articles (new and
/// stored) out of every list, count and search without losing them, `skip` keeps new ones
/// from being stored, `delete` removes for good, `mark-read` stores read.
@Suite("Hidden articles")
struct HiddenArticlesTests {
    let feed = "https://a.example/feed"
    // Items are dated 1_790_000_000 + day × 86,400.
    let now = Date(timeIntervalSince1970: 1_790_000_000 + 10 * 86_400)

    func filter(_ text: String, _ action: String) throws -> QueryFilter {
        QueryFilter(query: try ArticleQuery.parse(text), action: try #require(FilterAction(rawValue: action)))
    }

    /// Stores `items` as a reload does (filters applied); returns how many were new.
    @discardableResult
    func reload(_ store: LibraryStore, _ items: [ParsedItem]) async throws -> Int {
        let known = try await store.knownArticles(feedURL: feed, guids: items.map(\.id))
        let fetched = FetchedFeed(
            url: feed, items: LibraryStore.prepare(items, known: known), etag: nil, lastModified: nil,
            title: nil, siteURL: nil)
        return try await store.storeFetchedFiltered([fetched], at: now)[0].get()
    }

    /// The titles every list shows, newest first.
    func shown(_ store: LibraryStore) async throws -> [String] {
        try await store.articles(in: .all, page: .first(limit: 100)).map(\.title)
    }

    func hidden(_ store: LibraryStore) async throws -> Int64 {
        try await store.integer("SELECT count(*) FROM hidden_articles")
    }

    func id(_ store: LibraryStore, _ title: String) async throws -> String {
        try #require(
            try await store.articles(in: .all, page: .first(limit: 100)).first { $0.title == title }?.id)
    }

    @Test(
        "hide keeps new and stored matches in the library and shows them in no list, count, query or search")
    func hideShowsNowhere() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await library.open(withFeed: feed)
        try await store.upsertArticles(
            feedURL: feed,
            items: [
                item("1", "Sponsored: old laptop", "garden", day: 1),
                item("2", "Plain news", "river", day: 2),
                item("3", "Sponsored: kept", "garden", day: 3),
            ])
        try await store.setStarred(true, articleID: try await id(store, "Sponsored: kept"))
        try await store.setReloadFilters([try filter("title:sponsored", "hide")])
        #expect(
            try await shown(store) == ["Sponsored: kept", "Plain news"], "starred articles are never hidden")

        let added = try await reload(
            store,
            [item("4", "Sponsored: new phone", "garden", day: 4), item("5", "More news", "river", day: 5)])
        #expect(added == 1, "a hidden article is not counted as new")
        #expect(try await shown(store) == ["More news", "Sponsored: kept", "Plain news"])
        #expect(try await hidden(store) == 2)
        #expect(try await store.integer("SELECT count(*) FROM articles") == 3)
        let summary = try #require(try await store.feedSummaries().first)
        #expect(summary.total == 3 && summary.unread == 3)
        #expect(try await store.count(matching: .everything).total == 3)
        #expect(
            try await store.articles(matching: ArticleQuery.parse("garden"), limit: 10).map(\.title) == [
                "Sponsored: kept"
            ])
        #expect(try await store.search("garden", limit: 10).map(\.article.title) == ["Sponsored: kept"])
        var listed: [String] = []
        try await store.forEachArticle(matching: ArticleFilter()) { listed += $0.map(\.summary.title) }
        #expect(listed == ["More news", "Sponsored: kept", "Plain news"])
        #expect(try await store.integrityCheck() == "ok")
    }

    @Test(
        "a reload does not store a hidden article again, and the filter gone shows them with their state and search entries"
    )
    func showsAgain() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await library.open(withFeed: feed)
        let items = [
            item("1", "Ad: one", "orchard", day: 1), item("2", "Plain", "river", day: 2),
            item("3", "Ad: three", "orchard", day: 3),
        ]
        try await store.upsertArticles(feedURL: feed, items: Array(items.prefix(2)))
        try await store.setRead(true, articleID: try await id(store, "Ad: one"))
        try await store.setReloadFilters([try filter("title:/^ad:/", "hide")])
        #expect(try await reload(store, items) == 0)
        #expect(try await reload(store, items + [item("4", "Ad: four", "orchard", day: 4)]) == 0)
        #expect(try await shown(store) == ["Plain"])
        #expect(try await hidden(store) == 3)

        try await store.setReloadFilters([])
        #expect(try await shown(store) == ["Ad: four", "Ad: three", "Plain", "Ad: one"])
        #expect(try await hidden(store) == 0)
        #expect(
            try await store.articles(in: .all, page: .first(limit: 10)).first { $0.title == "Ad: one" }?
                .isRead == true)
        #expect(try await store.search("orchard", limit: 10).count == 3)
        let summary = try #require(try await store.feedSummaries().first)
        #expect(summary.total == 4 && summary.unread == 3)
        #expect(try await reload(store, items) == 0, "shown again, not added again")
        #expect(try await store.integer("SELECT count(*) FROM articles") == 4)
        #expect(try await store.integrityCheck() == "ok")
    }

    @Test("skip keeps new matches from being stored and touches nothing stored; without it they come")
    func skipTouchesNothingStored() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await library.open(withFeed: feed)
        try await store.upsertArticles(feedURL: feed, items: [item("1", "Podcast one", day: 1)])
        try await store.setReloadFilters([try filter("title:podcast", "skip")])
        #expect(try await shown(store) == ["Podcast one"])
        #expect(
            try await reload(store, [item("1", "Podcast one", day: 1), item("2", "Podcast two", day: 2)]) == 0
        )
        #expect(try await shown(store) == ["Podcast one"])
        #expect(try await hidden(store) == 0)
        #expect(try await store.integer("SELECT count(*) FROM removed") == 0, "nothing is remembered")
        try await store.setReloadFilters([])
        #expect(try await reload(store, [item("2", "Podcast two", day: 2)]) == 1)
        #expect(try await shown(store) == ["Podcast two", "Podcast one"])
    }

    @Test("when several match, delete wins over skip over hide over mark-read")
    func strength() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await library.open(withFeed: feed)
        try await store.setReloadFilters([
            try filter("alpha or beta", "mark-read"), try filter("beta or gamma", "hide"),
            try filter("gamma or delta", "skip"), try filter("delta", "delete"),
        ])
        let added = try await reload(
            store,
            [
                item("a", "A", "alpha", day: 1), item("b", "B", "beta", day: 2),
                item("c", "C", "gamma", day: 3),
                item("d", "D", "delta", day: 4),
            ])
        #expect(added == 1)
        let rows = try await store.articles(in: .all, page: .first(limit: 10))
        #expect(rows.map(\.title) == ["A"] && rows.first?.isRead == true)
        #expect(try await hidden(store) == 1)
        #expect(
            try await store.integer("SELECT count(*) FROM hidden_articles WHERE guid = 'b' AND read = 0") == 1
        )
        #expect(try await store.integer("SELECT count(*) FROM removed WHERE guid = 'd'") == 1)
        #expect(try await store.integer("SELECT count(*) FROM removed") == 1, "skip remembers nothing")
    }

    @Test("when the hide filters change, newly matching articles hide and the others show")
    func reevaluates() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await library.open(withFeed: feed)
        try await store.upsertArticles(
            feedURL: feed,
            items: [item("1", "Alpha", day: 1), item("2", "Beta", day: 2), item("3", "Gamma", day: 3)])
        try await store.setReloadFilters([
            try filter("title:alpha", "hide"), try filter("title:gamma", "mark-read"),
        ])
        #expect(try await shown(store) == ["Gamma", "Beta"])
        try await store.setReloadFilters([
            try filter("title:beta", "hide"), try filter("title:gamma", "skip"),
        ])
        #expect(try await shown(store) == ["Gamma", "Alpha"])
        // The same filters again (the next start): nothing moves.
        try await store.setReloadFilters([
            try filter("title:beta", "hide"), try filter("title:gamma", "skip"),
        ])
        #expect(try await shown(store) == ["Gamma", "Alpha"])
        #expect(try await hidden(store) == 1)
        // A filter that matches a hidden article keeps it hidden when another goes.
        try await store.setReloadFilters([try filter("title:beta or title:gamma", "hide")])
        #expect(try await shown(store) == ["Alpha"])
        try await store.setReloadFilters([try filter("title:gamma", "hide")])
        #expect(try await shown(store) == ["Beta", "Alpha"])
        let summary = try #require(try await store.feedSummaries().first)
        #expect(summary.total == 2 && summary.unread == 2)
        #expect(try await store.integrityCheck() == "ok")
    }

    @Test(
        "retention removes hidden articles past keep-days and keep-articles, counts them, and they stay away")
    func retention() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await library.open(withFeed: feed)
        let items = (0..<10).map { item("g\($0)", "\($0 % 2 == 0 ? "Even" : "Odd") \($0)", day: $0) }
        try await store.upsertArticles(feedURL: feed, items: items)
        try await store.setReloadFilters([try filter("title:even", "hide")])
        #expect(try await hidden(store) == 5)
        // Days 0–6 are older than 3 days before day 10: four hidden and three shown.
        #expect(try await store.applyRetention(keepDays: 3, keepArticles: nil, now: now) == 7)
        #expect(try await shown(store) == ["Odd 9", "Odd 7"])
        #expect(try await hidden(store) == 1)
        #expect(try await reload(store, items) == 0, "retention's removals stay removed")
        #expect(try await hidden(store) == 1)
        // By count: a shown article counts among the shown ones (7 is the second: it goes), a
        // hidden one among all of the feed's (8 is the second: it goes too).
        #expect(try await store.applyRetention(keepDays: nil, keepArticles: 2, now: now) == 0)
        #expect(try await store.applyRetention(keepDays: nil, keepArticles: 1, now: now) == 2)
        #expect(try await shown(store) == ["Odd 9"])
        #expect(try await hidden(store) == 0)
        try await store.setReloadFilters([])
        #expect(try await shown(store) == ["Odd 9"])
    }

    @Test(
        "another device's flag of a hidden article waits until it shows; hiding and showing capture nothing")
    func syncWaits() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await library.open(withFeed: feed)
        try await store.upsertArticles(
            feedURL: feed, items: [item("1", "Hidden", day: 1), item("2", "Shown", day: 2)])
        try await store.execute("INSERT INTO meta(key, value) VALUES ('sync.capture', '1')")
        try await store.setReloadFilters([try filter("title:hidden", "hide")])
        let read = SyncOperation(
            change: SyncChange(kind: .read, feedURL: feed, guid: "1", value: "1"), stamp: 1 << 16,
            device: "other")
        try await store.mergeOthers([read], cursor: nil)
        #expect(try await store.applySyncState().pending == 1)
        #expect(try await store.integer("SELECT read FROM hidden_articles") == 0)
        try await store.setReloadFilters([])
        #expect(try await store.applySyncState().pending == 0)
        let shown = try await store.articles(in: .all, page: .first(limit: 10))
        #expect(shown.first { $0.title == "Hidden" }?.isRead == true)
        #expect(try await store.integer("SELECT count(*) FROM sync_outbox") == 0)
    }

    @Test("a hidden article whose id a new article took meanwhile shows under a new one, found by search")
    func idTaken() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await library.open(withFeed: feed)
        try await store.upsertArticles(
            feedURL: feed, items: [item("1", "One", "alder", day: 1), item("2", "Two", "birch", day: 2)])
        try await store.setReloadFilters([try filter("title:two", "hide")])
        // The newest row went: SQLite gives its id to the next article.
        try await store.upsertArticles(feedURL: feed, items: [item("3", "Three", "cedar", day: 3)])
        #expect(try await id(store, "Three") == "2")
        try await store.setReloadFilters([])
        #expect(try await shown(store) == ["Three", "Two", "One"])
        #expect(try await id(store, "Two") == "3")
        for (word, title) in [("alder", "One"), ("birch", "Two"), ("cedar", "Three")] {
            #expect(try await store.search(word, limit: 5).map(\.article.title) == [title], "\(word)")
        }
        try await store.execute("INSERT INTO articles_fts(articles_fts) VALUES ('integrity-check')")
        #expect(try await store.integrityCheck() == "ok")
    }

    @Test("unsubscribing removes the feed's hidden articles too")
    func unsubscribe() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await library.open(withFeed: feed)
        try await store.upsertArticles(
            feedURL: feed, items: [item("1", "Hidden", day: 1), item("2", "Shown", day: 2)])
        try await store.setReloadFilters([try filter("title:hidden", "hide")])
        #expect(try await hidden(store) == 1)
        #expect(try await store.unsubscribe(url: feed))
        #expect(try await hidden(store) == 0)
        #expect(try await store.integrityCheck() == "ok")
    }
}
