import Foundation
import HeraldCore
import HeraldStore
import HeraldTestSupport
import Testing

@testable import HeraldReload

/// A reload honours per-feed settings: disabled feeds and feeds whose reload interval has
/// not passed are skipped by a reload of every feed, but a feed reloaded on its own is
/// always fetched; a feed's user agent reaches the server.
@Suite("Reloading with per-feed settings", .serialized)
struct FeedSettingsReloadTests {
    func library() async throws -> (URL, LibraryStore) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-feedset-\(UUID().uuidString)")
        let store = try await LibraryStore.open(path: directory.appendingPathComponent("h.db").path)
        return (directory, store)
    }

    @Test(
        "a feed with a reload interval waits for it, unless it is reloaded on its own; disabled ones wait for good"
    )
    func intervalAndDisabled() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let (directory, store) = try await library()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (feed, agent) = (server.url("/feed").absoluteString, server.url("/agent").absoluteString)
        try await store.subscribe(Subscription(url: feed))
        try await store.subscribe(Subscription(url: agent))
        try await store.setFeedSetting(url: feed, key: .reloadInterval, value: "60")
        try await store.setFeedSetting(url: agent, key: .disabled, value: "yes")
        let reloader = Reloader(store: store, jobs: 4)

        let first = try await reloader.reload()
        #expect(first.newArticles == 1 && first.disabled == 1 && first.notDue == 0, "never fetched: due")
        #expect(first.feedsWithNewArticles == 1)
        let second = try await reloader.reload()
        #expect(second.notDue == 1 && second.disabled == 1 && second.notModified == 0)
        #expect(!second.allFailed)
        // On its own, each is fetched: the interval feed answers 304, the disabled one its items.
        let alone = try await reloader.reload(only: feed)
        #expect(alone.notModified == 1 && alone.notDue == 0)
        let disabled = try await reloader.reload(only: agent)
        #expect(disabled.newArticles == 1 && disabled.disabled == 0)
        // A 304 counts as a try: the interval runs from it.
        let targets = try await store.reloadTargets(only: feed)
        #expect(try #require(targets.first?.lastFetch).timeIntervalSinceNow > -60)
    }

    @Test("--due: feeds without an interval of their own wait for the global one")
    func dueWithDefaultInterval() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let (directory, store) = try await library()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await store.subscribe(Subscription(url: server.url("/feed").absoluteString))
        var reloader = Reloader(store: store, jobs: 4)
        reloader.defaultInterval = 30
        #expect(try await reloader.reload(onlyDue: true).newArticles == 1, "never fetched: due")
        #expect(try await reloader.reload(onlyDue: true).notDue == 1)
        #expect(try await reloader.reload(onlyDue: false).notModified == 1, "without --due it is fetched")
    }

    @Test("the fetcher sends a feed's own user agent, and the default to the others")
    func userAgent() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let (directory, store) = try await library()
        defer { try? FileManager.default.removeItem(at: directory) }
        let agent = server.url("/agent").absoluteString
        try await store.subscribe(Subscription(url: agent))
        let reloader = Reloader(store: store, jobs: 4)
        _ = try await reloader.reload()
        try await store.setFeedSetting(url: agent, key: .userAgent, value: "Feedset-test/2")
        _ = try await reloader.reload()
        let titles = try await store.articles(in: .feed(FeedID(agent)), page: .first(limit: 10)).map(\.title)
        #expect(
            Set(titles) == [
                "Feedset-test/2", "Herald/0.4 (terminal feed reader; +https://example.org/herald)",
            ])
    }
}
