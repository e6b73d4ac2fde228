import Foundation
import HeraldCore
import HeraldUI
import Testing

@testable import HeraldStore

/// Per-feed settings in a real library file: the library's and the config file's, which
/// wins, what the lists show, retention per feed, and migration 9.
@Suite("Per-feed settings in the library")
struct FeedSettingsStoreTests {
    let feed = "https://a.example/feed"
    let other = "https://b.example/feed"
    let now = Date(timeIntervalSince1970: 1_790_000_000 + 10 * 86_400)

    func library() async throws -> (TemporaryLibrary, LibraryStore) {
        let library = try TemporaryLibrary()
        let store = try await LibraryStore.open(path: library.path)
        try await store.subscribe(Subscription(url: feed, title: "Own title", tags: ["news"]))
        try await store.subscribe(Subscription(url: other, title: "Other"))
        for url in [feed, other] {
            let items = (0..<10).map { item("\(url)-\($0)", "Title \($0)", "word\($0)", day: $0) }
            try await store.upsertArticles(feedURL: url, items: items)
        }
        return (library, store)
    }

    func line(_ url: String, _ key: FeedSettingKey, _ value: String, at line: Int = 1) -> FeedSettingLine {
        FeedSettingLine(url: url, key: key, value: value, file: "config", line: line, column: 6)
    }

    @Test("a title and tags set in the library show in the feed list, tags and search; unset gives them back")
    func titleAndTags() async throws {
        let (library, store) = try await library()
        defer { library.cleanUp() }
        #expect(try await store.setFeedSetting(url: feed, key: .title, value: "Mine"))
        #expect(try await store.setFeedSetting(url: feed, key: .tags, value: "rust, linux"))
        let summary = try #require(try await store.feedSummaries().first { $0.feed.url == feed })
        #expect(summary.feed.title == "Mine")
        #expect(summary.feed.tags == ["rust", "linux"])
        #expect(try await store.tagSummaries().map(\.name) == ["linux", "rust"])
        #expect(try await store.search("word3", limit: 5).map(\.feedTitle).contains("Mine"))
        // A second set replaces the first, and the feed's own values are still remembered.
        try await store.setFeedSetting(url: feed, key: .title, value: "Mine again")
        #expect(try await store.feedSummaries().first { $0.feed.url == feed }?.feed.title == "Mine again")
        #expect(try await store.unsetFeedSetting(url: feed, key: .title))
        #expect(try await store.unsetFeedSetting(url: feed, key: .tags))
        #expect(try await !store.unsetFeedSetting(url: feed, key: .tags), "nothing left to unset")
        let back = try #require(try await store.feedSummaries().first { $0.feed.url == feed })
        #expect(back.feed.title == "Own title" && back.feed.tags == ["news"])
        #expect(try await !store.setFeedSetting(url: "https://nowhere.example/", key: .title, value: "x"))
    }

    @Test("add --tag and --title under a tags or title setting change the feed's own, shown when it goes")
    func subscribeUnderSettings() async throws {
        let (library, store) = try await library()
        defer { library.cleanUp() }
        try await store.setFeedSetting(url: feed, key: .tags, value: "set")
        try await store.setFeedSetting(url: feed, key: .title, value: "Set title")
        let result = try await store.subscribe(
            Subscription(url: feed, title: "Renamed", tags: ["extra"]), replacingTitle: true)
        #expect(result == .updated(newTags: ["extra"], title: "Renamed"))
        let shown = try #require(try await store.feedSummaries().first { $0.feed.url == feed })
        #expect(shown.feed.title == "Set title" && shown.feed.tags == ["set"])
        try await store.unsetFeedSetting(url: feed, key: .tags)
        try await store.unsetFeedSetting(url: feed, key: .title)
        let own = try #require(try await store.feedSummaries().first { $0.feed.url == feed })
        #expect(own.feed.title == "Renamed" && own.feed.tags == ["news", "extra"])
    }

    @Test("the config file's value wins key by key, and leaving the config gives the library's back")
    func configWins() async throws {
        let (library, store) = try await library()
        defer { library.cleanUp() }
        try await store.setFeedSetting(url: feed, key: .title, value: "Library title")
        try await store.setFeedSetting(url: feed, key: .keepDays, value: "7")
        let unknown = try await store.syncConfigFeedSettings([
            line(feed, .title, "Config title"), line("https://nowhere.example/", .disabled, "yes", at: 2),
        ])
        #expect(unknown.map(\.line) == [2], "a line for a feed not in the library comes back")
        #expect(try await store.feedSummaries().first { $0.feed.url == feed }?.feed.title == "Config title")
        let stored = try await store.storedFeedSettings(url: feed)
        #expect(
            stored.map { "\($0.key.rawValue)=\($0.value) \($0.source.rawValue) \($0.inForce)" } == [
                "title=Config title config true", "title=Library title library false",
                "keep-days=7 library true",
            ])
        #expect(try await store.feedSettings()[feed]?.values == [.title: "Config title", .keepDays: "7"])
        try await store.syncConfigFeedSettings([])
        #expect(try await store.feedSummaries().first { $0.feed.url == feed }?.feed.title == "Library title")
        try await store.unsetFeedSetting(url: feed, key: .title)
        #expect(try await store.feedSummaries().first { $0.feed.url == feed }?.feed.title == "Own title")
    }

    @Test("a disabled feed is marked in the feed list and its reload target carries the settings")
    func disabledAndTargets() async throws {
        let (library, store) = try await library()
        defer { library.cleanUp() }
        try await store.setFeedSetting(url: feed, key: .disabled, value: "yes")
        try await store.setFeedSetting(url: other, key: .userAgent, value: "Agent/1")
        try await store.syncConfigFeedSettings([line(other, .reloadInterval, "30")])
        let feeds = try await store.feedSummaries()
        #expect(feeds.map(\.feed.disabled) == [true, false])
        let targets = try await store.reloadTargets()
        #expect(targets.map(\.settings.disabled) == [true, false])
        #expect(targets.last?.settings.userAgent == "Agent/1")
        #expect(targets.last?.settings.reloadInterval == 30)
        // The config's `disabled no` wins over the library's yes.
        try await store.syncConfigFeedSettings([line(feed, .disabled, "no")])
        #expect(try await store.feedSummaries().first?.feed.disabled == false)
    }

    @Test("keep-articles and keep-days per feed replace the global limits for that feed; starred stay")
    func retentionPerFeed() async throws {
        let (library, store) = try await library()
        defer { library.cleanUp() }
        let starred = try #require(
            try await store.articles(in: .feed(FeedID(feed)), page: .first(limit: 100)).last)  // the oldest
        try await store.setStarred(true, articleID: starred.id)
        try await store.setFeedSetting(url: feed, key: .keepArticles, value: "3")
        // No global limit: only the feed with its own goes down to its newest 3 (and the starred).
        #expect(try await store.applyRetention(keepDays: nil, keepArticles: nil, now: now) == 6)
        #expect(try await store.feedSummaries().map(\.total) == [4, 10])
        // keep-days 0 on the other feed keeps it whole under a global limit of 3 days.
        try await store.setFeedSetting(url: other, key: .keepDays, value: "0")
        #expect(try await store.applyRetention(keepDays: 3, keepArticles: nil, now: now) == 0)
        #expect(try await store.feedSummaries().map(\.total) == [4, 10])
        try await store.unsetFeedSetting(url: other, key: .keepDays)
        #expect(try await store.applyRetention(keepDays: 3, keepArticles: nil, now: now) == 7)
        #expect(try await store.feedSummaries().map(\.total) == [4, 3])
        #expect(try await store.integrityCheck() == "ok")
    }

    @Test("a version 8 library gains settings at version 9 and keeps its feeds, titles and tags")
    func migrationFrom8() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        do {
            let old = try await LibraryStore.open(path: library.path, upTo: 8)
            #expect(await old.schemaVersion == 8)
            try await old.execute(
                "INSERT INTO feeds(url, title, tags) VALUES ('https://old.example/feed', 'Old feed', 'a' || char(9) || 'b')"
            )
        }
        let store = try await LibraryStore.open(path: library.path)
        #expect(await store.schemaVersion == Migrations.latest)  // 9, and later ones (sync: 10, queries: 11)
        // Written at the latest schema: a version 8 store has no trigram index to keep.
        try await store.upsertArticles(feedURL: "https://old.example/feed", items: [item("g1", "One")])
        let before = try #require(try await store.feedSummaries().first)
        #expect(before.feed.title == "Old feed" && before.feed.tags == ["a", "b"] && !before.feed.disabled)
        #expect(before.total == 1)
        try await store.setFeedSetting(url: "https://old.example/feed", key: .title, value: "Renamed")
        #expect(try await store.feedSummaries().first?.feed.title == "Renamed")
        try await store.unsetFeedSetting(url: "https://old.example/feed", key: .title)
        #expect(try await store.feedSummaries().first?.feed.title == "Old feed")
        // Unsubscribing drops the feed's settings with it.
        try await store.setFeedSetting(url: "https://old.example/feed", key: .disabled, value: "yes")
        try await store.unsubscribe(url: "https://old.example/feed")
        #expect(try await store.integer("SELECT count(*) FROM feed_settings") == 0)
        #expect(try await store.integrityCheck() == "ok")
    }

    @Test("the reader shows a title set for a feed, in the feed list and over its articles")
    @MainActor
    func titleInTheReader() async throws {
        let (library, store) = try await library()
        defer { library.cleanUp() }
        try await store.syncConfigFeedSettings([line(feed, .title, "Shown title")])
        try await store.setFeedSetting(url: other, key: .disabled, value: "yes")
        let app = ReaderApp(repository: store, size: Size(width: 60, height: 12))
        app.start()
        await app.settle()
        let screen = app.render().text()
        #expect(screen.contains("Shown title"), "\(screen)")
        #expect(!screen.contains("Own title"))
        #expect(screen.contains("-(10/10)  Other (disabled)"), "\(screen)")
        // All articles names each article's feed: by its title in force.
        app.handle(.enter)
        await app.settle()
        #expect(app.render().text().contains("Shown title"), "\(app.render().text())")
    }
}
