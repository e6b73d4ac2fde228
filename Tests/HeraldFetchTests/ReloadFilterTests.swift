import Foundation
import HeraldCore
import HeraldStore
import HeraldTestSupport
import Testing

@testable import HeraldReload

/// The config's filters at a reload: a real library, the feed from a real HTTP server.
@Suite("Filters at reload", .serialized)
struct ReloadFilterTests {
    func filter(_ text: String, _ action: String) throws -> QueryFilter {
        QueryFilter(query: try ArticleQuery.parse(text), action: try #require(FilterAction(rawValue: action)))
    }

    /// Titles of the stored articles, with (read, starred).
    func stored(_ store: LibraryStore) async throws -> [String: (read: Bool, starred: Bool)] {
        var found: [String: (read: Bool, starred: Bool)] = [:]
        for article in try await store.articles(matching: .everything, limit: 100) {
            found[article.title] = (article.isRead, article.isStarred)
        }
        return found
    }

    @Test(
        "mark-read stores read, skip stores nothing until the filter goes, delete stays gone and removes stored matches but not starred ones"
    )
    func filters() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-filters-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await LibraryStore.open(path: directory.appendingPathComponent("h.db").path)
        try await store.subscribe(Subscription(url: server.url("/mixed").absoluteString, tags: ["misc"]))
        let reloader = Reloader(store: store, jobs: 2)

        // 1. Every action at once.
        try await store.setReloadFilters([
            try filter("title:sponsored", "mark-read"), try filter("podcast", "skip"),
            try filter("title:/^spam/ tag:misc", "delete"),
        ])
        let first = try await reloader.reload()
        #expect(first.failures.isEmpty)
        #expect(first.removedByFilters == 0, "new articles kept out are not deletes of stored ones")
        #expect(first.newArticles == 2)
        var articles = try await stored(store)
        #expect(Set(articles.keys) == ["Sponsored: a new laptop", "Swift 6 released"])
        #expect(articles["Sponsored: a new laptop"]?.read == true)
        #expect(articles["Swift 6 released"]?.read == false)
        let feed = try #require(try await store.feedSummaries().first)
        #expect(feed.total == 2 && feed.unread == 1)

        // 2. Without the skip filter the skipped episode comes back; the deleted spam does not.
        try await store.setReloadFilters([try filter("title:/^spam/", "delete")])
        _ = try await reloader.reload()
        articles = try await stored(store)
        #expect(Set(articles.keys) == ["Sponsored: a new laptop", "Swift 6 released", "Episode 7"])

        // 3. A delete filter removes the stored matches, except a starred one.
        let swift = try #require(
            try await store.articles(matching: ArticleQuery.parse("title:swift"), limit: 5).first)
        try await store.setStarred(true, articleID: swift.id)
        try await store.setReloadFilters([try filter("swift or podcast", "delete")])
        let third = try await reloader.reload()
        #expect(third.removedByFilters == 1, "the reload counts the stored article its filter deleted")
        articles = try await stored(store)
        #expect(Set(articles.keys) == ["Sponsored: a new laptop", "Swift 6 released"])
        #expect(articles["Swift 6 released"]?.starred == true)
        // Removed for good: without filters, the next reload does not bring them back.
        try await store.setReloadFilters([])
        _ = try await reloader.reload()
        #expect(Set(try await stored(store).keys) == ["Sponsored: a new laptop", "Swift 6 released"])
        #expect(try await store.search("gardens", limit: 5).isEmpty, "the removed episode left the index")
    }

    @Test(
        "a filter whose pattern backtracks without end is left out of the reload and named; the others act"
    )
    func slowFilters() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-filters-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await LibraryStore.open(path: directory.appendingPathComponent("h.db").path)
        try await store.subscribe(Subscription(url: server.url("/files/backtracking.xml").absoluteString))
        let reloader = Reloader(store: store, jobs: 2)
        try await store.setReloadFilters([
            try filter("title:/(a+)+$/", "mark-read"),
            // Taken as "no match", the pattern would make this delete every article.
            try filter("-title:/(a+)+$/", "delete"),
            try filter(#"title:/(\w+\s?)+$/ or podcast"#, "hide"),
            try filter("title:/a{25}/", "mark-read"),
        ])
        let started = ContinuousClock.now
        let summary = try await reloader.reload()
        // Each pattern stopped once (a wall time for a loaded machine), where the old reload
        // took 11.5 s for the first alone.
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(summary.failures.isEmpty)
        #expect(Set(summary.slowFilters) == ["(a+)+$", #"(\w+\s?)+$"#])
        #expect(summary.newArticles == 14 && summary.removedByFilters == 0)
        let articles = try await stored(store)
        #expect(articles.count == 14, "nothing deleted or hidden")
        #expect(articles.values.filter(\.read).count == 8, "a{25} marks 25 to 32 a's read")
        // The next reload is a run of its own: the patterns are tried again then.
        #expect(await store.takeSlowFilters().isEmpty)

        // A hide filter too slow for the stored articles hides nothing, and does not fail.
        try await store.setReloadFilters([try filter("title:/((a+)+)+$/", "hide")])
        #expect(try await stored(store).count == 14)
        #expect(await store.takeSlowFilters() == ["((a+)+)+$"])
    }
}
