import Foundation
import HeraldCore
import HeraldStore
import HeraldTestSupport
import Testing

@testable import HeraldFetch
@testable import HeraldReload

/// A whole reload: subscriptions in a real library, feeds from a real HTTP server.
@Suite("Reloading feeds", .serialized)
struct ReloaderTests {
    @Test("a reload stores new articles, reports failing feeds by name, and a second reload costs a 304")
    func reload() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-reload-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await LibraryStore.open(path: directory.appendingPathComponent("h.db").path)
        try await store.subscribe(Subscription(url: server.url("/feed").absoluteString))
        try await store.subscribe(Subscription(url: server.url("/status/404").absoluteString, title: "Gone"))
        try await store.subscribe(Subscription(url: "http://127.0.0.1:9/refused", title: "Refused"))
        let reloader = Reloader(store: store, jobs: 4)

        let first = try await reloader.reload()
        #expect(first.feeds == 3)
        #expect(first.newArticles == 1)
        #expect(first.failures.map(\.title).sorted() == ["Gone", "Refused"])
        #expect(first.failures.first { $0.title == "Gone" }?.reason == "HTTP 404")
        #expect(!first.allFailed)

        let feeds = try await store.feedSummaries()
        let fixture = try #require(feeds.first { $0.feed.url == server.url("/feed").absoluteString })
        #expect(fixture.feed.title == "Fixture")  // the feed's own title replaces the URL
        #expect(fixture.total == 1 && fixture.feed.lastError == nil)
        #expect(feeds.first { $0.feed.title == "Gone" }?.feed.lastError == "HTTP 404")

        let second = try await reloader.reload(only: server.url("/feed").absoluteString)
        #expect(second.feeds == 1 && second.notModified == 1 && second.newArticles == 0)
    }

    @Test("a broken feed is stored all the same, and the summary names it as read with errors")
    func readWithErrors() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("broken.xml")
        try Data(
            """
            <rss version="2.0"><channel><title>Fish & Chips</title>
            <item><guid>1</guid><title>One</title><description>a<br>b</description></item>
            <item><guid>2</guid><title>Two</title></item></channel></rss>
            """.utf8
        ).write(to: file)
        let store = try await LibraryStore.open(path: directory.appendingPathComponent("h.db").path)
        try await store.subscribe(Subscription(url: file.absoluteString, title: "Broken"))
        let summary = try await Reloader(store: store).reload()
        #expect(summary.failures.isEmpty)
        #expect(summary.newArticles == 2)
        #expect(summary.readWithErrors.map(\.title) == ["Broken"])
        #expect(
            summary.readWithErrors.first?.reason
                == "read with errors: parse error at line 1: xmlParseEntityRef: no name")
        #expect(try await store.feedSummaries().first?.feed.lastError == nil)
    }

    @Test("a permanent redirect moves the feed to its new address")
    func permanentRedirect() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-reload-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await LibraryStore.open(path: directory.appendingPathComponent("h.db").path)
        try await store.subscribe(Subscription(url: server.url("/moved").absoluteString))
        let summary = try await Reloader(store: store).reload()
        #expect(summary.failures.isEmpty)
        #expect(try await store.subscriptions().map(\.url) == [server.url("/feed").absoluteString])
        // Moved back to the old address, whose redirect now ends in a 304 for the validators
        // the feed has: it moves all the same.
        try await store.moveFeed(
            from: server.url("/feed").absoluteString, to: server.url("/moved").absoluteString)
        let again = try await Reloader(store: store).reload()
        #expect(again.notModified == 1)
        #expect(try await store.subscriptions().map(\.url) == [server.url("/feed").absoluteString])
    }

    @Test("when every feed fails the summary says so")
    func allFailed() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-reload-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await LibraryStore.open(path: directory.appendingPathComponent("h.db").path)
        try await store.subscribe(Subscription(url: "http://127.0.0.1:9/a"))
        try await store.subscribe(Subscription(url: "ftp://example.org/b"))
        let summary = try await Reloader(store: store).reload()
        #expect(summary.allFailed)
        #expect(summary.failures.contains { $0.reason.contains("unsupported URL scheme 'ftp'") })
    }
}
