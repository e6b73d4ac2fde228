import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

/// Whole articles go with their article (retention, removing the feed, hiding), and a
/// library from before them takes them (migration 16).
extension FullArticleStoreTests {
    // MARK: Gone with their article

    @Test("retention takes the whole article and its search entry with the article")
    func retention() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await library.open(withFeed: feed)
        try await store.upsertArticles(
            feedURL: feed,
            items: (0..<4).map {
                ParsedItem(
                    id: "g\($0)", title: "Title \($0)", link: "https://example.org/\($0)",
                    published: Date(timeIntervalSince1970: 1_790_000_000 + Double($0) * 86_400), text: "Teaser \($0).")
            })
        let oldest = try await id(store, "Title 0")
        let kept = try await id(store, "Title 3")
        try await store.saveFullArticle(articleID: oldest, whole("Lanterns along the quay, oldest."))
        try await store.saveFullArticle(articleID: kept, whole("Harbour lights, newest."))
        #expect(try await rows(store, oldest) == [1, 1])
        #expect(try await store.applyRetention(keepDays: nil, keepArticles: 2, now: now) == 2)
        #expect(try await rows(store, oldest) == [0, 0])
        #expect(try await rows(store, kept) == [1, 1])
        #expect(try await store.search("lanterns", limit: 10).isEmpty)
        #expect(try await store.completions(of: "lant").isEmpty)
        #expect(try await store.search("harbour", limit: 10).map(\.article.id) == [kept])
        try await store.execute("INSERT INTO full_fts(full_fts) VALUES ('integrity-check')")
        #expect(try await store.integrityCheck() == "ok")
    }

    @Test("removing the feed takes its whole articles and their search entries; another feed's stay")
    func unsubscribe() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await library.open(withFeed: feed)
        try await store.upsertFeed(url: other, title: "B", siteURL: nil)
        try await store.upsertArticles(feedURL: feed, items: [item("1", "Floods", "Teaser.", link: "https://example.org/1")])
        try await store.upsertArticles(feedURL: other, items: [item("1", "Kept", "Teaser.", link: "https://example.org/k")])
        let gone = try await id(store, "Floods")
        let kept = try await id(store, "Kept")
        try await store.saveFullArticle(articleID: gone, whole("Lanterns along the quay."))
        try await store.saveFullArticle(articleID: kept, whole("Lanterns in the harbour."))
        #expect(try await store.search("lanterns", limit: 10).count == 2)
        #expect(try await store.unsubscribe(url: feed))
        #expect(try await rows(store, gone) == [0, 0])
        #expect(try await rows(store, kept) == [1, 1])
        #expect(try await store.search("lanterns", limit: 10).map(\.article.id) == [kept])
        #expect(try await store.search("quay", limit: 10).isEmpty)
        try await store.execute("INSERT INTO full_fts(full_fts) VALUES ('integrity-check')")
        #expect(try await store.integrityCheck() == "ok")
    }

    @Test("a hidden article is not found by its whole article's words")
    func hidden() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await library.open(withFeed: feed)
        try await store.upsertArticles(
            feedURL: feed,
            items: [
                item("1", "Sponsored: lamps", "Teaser.", link: "https://example.org/1"),
                item("2", "News", "Teaser.", link: "https://example.org/2"),
            ])
        let sponsored = try await id(store, "Sponsored: lamps")
        try await store.saveFullArticle(articleID: sponsored, whole("Lanterns for sale, cheap."))
        try await store.saveFullArticle(articleID: try await id(store, "News"), whole("Lanterns lit on the quay."))
        try await store.setReloadFilters(
            [QueryFilter(query: try ArticleQuery.parse("title:sponsored"), action: try #require(FilterAction(rawValue: "hide")))],
            now: now)
        #expect(try await store.search("lanterns", limit: 10).map(\.article.title) == ["News"])
        #expect(try await store.search("cheap", limit: 10).isEmpty)
        // Its search entries go, as its feed text's do.
        #expect(try await store.integer("SELECT count(*) FROM full_fts WHERE rowid = \(sponsored)") == 0)
        #expect(try await store.completions(of: "chea").isEmpty)
        #expect(try await store.integrityCheck() == "ok")
    }

    // MARK: Migration

    @Test("a version 15 library with articles opens at 16 with nothing lost, and takes whole articles")
    func fromVersion15() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        func rows(_ store: LibraryStore) async throws -> [String] {
            try await store.articles(in: .all, page: .first(limit: 100)).map {
                "\($0.id) \($0.title) \($0.isRead) \($0.isStarred)"
            }
        }
        let before: (rows: [String], counts: [[Int]], found: [String], settings: [StoredFeedSetting])
        do {
            let old = try await LibraryStore.open(path: library.path, upTo: 15)
            #expect(await old.schemaVersion == 15)
            try await old.upsertFeed(url: feed, title: "A", siteURL: nil)
            try await old.upsertArticles(
                feedURL: feed,
                items: (0..<6).map {
                    ParsedItem(
                        id: "g\($0)", title: "Title \($0)", link: "https://example.org/\($0)",
                        published: Date(timeIntervalSince1970: 1_790_000_000 + Double($0) * 86_400),
                        text: "garden \($0)")
                }, now: now)
            try await old.setRead(true, articleID: "2")
            try await old.setStarred(true, articleID: "3")
            try await old.setFeedSetting(url: feed, key: .keepDays, value: "30")
            before = (
                try await rows(old), try await old.feedSummaries().map { [$0.total, $0.unread] },
                try await old.search("garden", limit: 10).map(\.article.id),
                try await old.storedFeedSettings()
            )
        }
        let store = try await LibraryStore.open(path: library.path)
        #expect(await store.schemaVersion == Migrations.latest)
        #expect(before.rows.count == 6 && before.found.count == 6)
        #expect(try await rows(store) == before.rows)
        #expect(try await store.feedSummaries().map { [$0.total, $0.unread] } == before.counts)
        #expect(try await store.search("garden", limit: 10).map(\.article.id) == before.found)
        #expect(try await store.storedFeedSettings() == before.settings)
        #expect(try await store.integer("SELECT count(*) FROM full_articles") == 0)
        #expect(try await store.pagesWanted(since: 0, fallback: .yes).count == 6)
        try await store.saveFullArticle(articleID: "4", whole("garden lanterns"))
        #expect(try await store.search("lanterns", limit: 10).map(\.article.id) == ["4"])
        #expect(try await store.article(id: "4").shownText == "garden lanterns")
        #expect(try await store.integrityCheck() == "ok")
    }
}
