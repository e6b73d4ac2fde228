import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

@Suite("Subscriptions in the library")
struct SubscriptionStoreTests {
    @Test("subscribing stores title, site and tags; subscribing again merges the tags, not duplicates")
    func subscribe() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        let first = Subscription(
            url: "https://a.example/feed", title: "A", siteURL: "https://a.example/",
            tags: ["tech", "open source"])
        #expect(try await store.subscribe(first) == .new)
        #expect(try await store.subscribe(Subscription(url: "https://b.example/feed")) == .new)
        #expect(
            try await store.subscriptions() == [
                first, Subscription(url: "https://b.example/feed", title: "https://b.example/feed"),
            ])
        var changed = first
        changed.tags = ["news", "tech"]
        #expect(try await store.subscribe(changed) == .updated(newTags: ["news"], title: nil))
        #expect(try await store.subscriptions().first?.tags == ["tech", "open source", "news"])
        #expect(try await store.subscribe(changed) == .unchanged)
        #expect(try await store.feedSummaries().count == 2)
    }

    @Test("a known feed keeps its title; a title replaces only the URL placeholder, unless the user typed it")
    func titles() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        let a = "https://a.example/feed"
        #expect(try await store.subscribe(Subscription(url: a, title: "Mine")) == .new)
        #expect(try await store.subscribe(Subscription(url: a, title: "From a file")) == .unchanged)
        #expect(try await store.subscriptions().first?.title == "Mine")
        #expect(
            try await store.subscribe(Subscription(url: a, title: "Typed"), replacingTitle: true)
                == .updated(newTags: [], title: "Typed"))
        #expect(
            try await store.subscribe(Subscription(url: a, title: "Typed"), replacingTitle: true)
                == .unchanged)
        #expect(try await store.subscriptions().first?.title == "Typed")

        let b = "https://b.example/feed"
        #expect(try await store.subscribe(Subscription(url: b)) == .new)
        #expect(
            try await store.subscribe(Subscription(url: b, title: "  ")) == .unchanged,
            "a blank title is no title")
        #expect(
            try await store.subscribe(Subscription(url: b, title: "Bee", tags: ["x"]))
                == .updated(newTags: ["x"], title: "Bee"))
        #expect(try await store.subscriptions().last == Subscription(url: b, title: "Bee", tags: ["x"]))

        // A title the feed gave itself on a reload cannot be told from one the user set
        // (the schema does not say who set it), so an import keeps it too.
        let c = "https://c.example/feed"
        try await store.subscribe(Subscription(url: c))
        try await store.recordFetch(
            url: c, etag: nil, lastModified: nil, feedTitle: "Own title", siteURL: nil, at: Date())
        #expect(try await store.subscribe(Subscription(url: c, title: "File title")) == .unchanged)
        #expect(try await store.subscriptions().last?.title == "Own title")
    }

    @Test("tags are stored once each, on one line, trimmed, never empty")
    func cleanTags() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        let url = "https://a.example/feed"
        try await store.subscribe(Subscription(url: url, tags: ["a", "a", " b ", "c\td", "", "\u{1b}"]))
        #expect(try await store.subscriptions().first?.tags == ["a", "b", "c d"])
        #expect(
            try await store.subscribe(Subscription(url: url, tags: ["b", "e", "e"]))
                == .updated(newTags: ["e"], title: nil))
        #expect(try await store.subscriptions().first?.tags == ["a", "b", "c d", "e"])
    }

    @Test("a demo feed named in a subscription becomes the user's; removing the demo feeds leaves it")
    func demoFeeds() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        try await store.importFeeds(
            [demoFeed("one", "Heron one"), demoFeed("two", "Heron two"), demoFeed("three", "Heron three")],
            demo: true)
        try await store.subscribe(Subscription(url: "https://mine.example/feed", title: "Mine"))
        #expect(try await store.demoFeedURLs() == ["demo:one", "demo:two", "demo:three"])
        #expect(
            try await store.subscribe(Subscription(url: "demo:one", tags: ["kept"]))
                == .updated(newTags: ["kept"], title: nil))
        #expect(
            try await store.subscribe(Subscription(url: "demo:two", title: "Renamed"))
                == .updated(newTags: [], title: "Renamed"),
            "a demo feed's title is the feed's own: a given title replaces it")
        #expect(try await store.demoFeedURLs() == ["demo:three"])
        #expect(try await store.search("heron", limit: 10).count == 3)

        #expect(try await store.removeDemoFeeds() == 1)
        #expect(try await store.removeDemoFeeds() == 0)
        #expect(
            try await store.subscriptions().map(\.url) == [
                "demo:one", "demo:two", "https://mine.example/feed",
            ])
        #expect(
            try await store.search("heron", limit: 10).map(\.article.title).sorted() == [
                "Heron one", "Heron two",
            ])
        #expect(try await store.integer("SELECT count(*) FROM articles") == 2)
        #expect(await store.isNew == false)
        try await store.execute("INSERT INTO articles_fts(articles_fts) VALUES ('integrity-check')")
        #expect(try await store.integrityCheck() == "ok")
    }

    @Test("removing the demo feeds of a brand-new library marks it set up, so the demo never arrives")
    func removeDemoFromNewLibrary() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        #expect(await store.isNew)
        #expect(try await store.removeDemoFeeds() == 0)
        #expect(await store.isNew == false)
    }

    @Test("a plain import of feed files does not mark them as demo feeds")
    func importIsNotDemo() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        try await store.importFeeds([demoFeed("one", "Heron one")])
        #expect(try await store.demoFeedURLs().isEmpty)
        #expect(try await store.removeDemoFeeds() == 0)
        #expect(try await store.feedSummaries().count == 1)
    }

    @Test("unsubscribing removes the feed, its articles and their search entries")
    func unsubscribe() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        for url in ["a", "b"] {
            try await store.subscribe(Subscription(url: url, title: url.uppercased()))
            try await store.upsertArticles(feedURL: url, items: [item("\(url)1", "Heron \(url)", "서울역 東京駅")])
        }
        #expect(try await store.search("heron", limit: 10).count == 2)
        #expect(try await store.unsubscribe(url: "a"))
        #expect(try await store.unsubscribe(url: "a") == false)
        #expect(try await store.subscriptions().map(\.url) == ["b"])
        #expect(try await store.search("heron", limit: 10).map(\.article.feedID) == [try await store.feedID(url: "b")])
        #expect(try await store.search("東京", limit: 10).count == 1)
        #expect(try await store.integer("SELECT count(*) FROM articles") == 1)
        #expect(try await store.integrityCheck() == "ok")
        try await store.execute("INSERT INTO articles_fts(articles_fts) VALUES ('integrity-check')")
        _ = try await store.unsubscribe(url: "b")
        #expect(await store.isEmpty)
        #expect(await store.isNew == false, "an emptied library is not a new one: no demo feeds again")
    }

    /// A feed as the demo directory gives it: URL `demo:NAME`, one article.
    func demoFeed(_ name: String, _ title: String) -> (Feed, [Article]) {
        let url = "demo:\(name)"
        let summary = ArticleSummary(
            id: url + "#1", feedID: FeedID(url), title: title, published: Date(timeIntervalSince1970: 1_790_000_000))
        return (
            Feed(url: url, title: name.capitalized),
            [Article(summary: summary, feedTitle: name, link: nil, text: "")]
        )
    }
}

/// Subscribing to many feeds (an OPML import of 220,000 outlines, a sync bringing 40,000
/// subscriptions) once read every feed for each new one: N²/2 rows.
@Suite("Subscribing to many feeds")
@DatabaseActor
struct ManySubscriptionsTests {
    @Test("a new feed's place comes from an index, not a scan of every feed")
    func placeFromIndex() throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try LibraryStore.open(path: library.path)
        let plan = try store.db.prepare("EXPLAIN QUERY PLAN SELECT \(LibraryStore.nextPosition)")
        var steps: [String] = []
        while try plan.step() { steps.append(plan.text(3) ?? "") }
        #expect(steps.contains { $0.contains("feeds_position") }, "\(steps)")
        #expect(!steps.contains { $0.hasPrefix("SCAN feeds") }, "\(steps)")
    }

    @Test("subscribing to 5,000 feeds at once keeps their order and counts each once")
    func manyAtOnce() throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try LibraryStore.open(path: library.path)
        let subscriptions = (0..<5_000).map { Subscription(url: "https://h\($0 % 97).example/f\($0).xml") }
        let results = try store.subscribe(all: subscriptions + subscriptions.prefix(10))
        #expect(results.prefix(5_000).allSatisfy { $0 == .new })
        #expect(results.suffix(10).allSatisfy { $0 == .unchanged })
        #expect(try store.subscriptions().map(\.url) == subscriptions.map(\.url))
    }
}
