import Foundation
import HeraldCore
import HeraldStore
import HeraldTestSupport
import Testing

@testable import HeraldFetch
@testable import HeraldReload

/// newsboat's command feeds in a reload: `exec:` (a command's output is the feed) and
/// `filter:` (a download piped through a command), held to a download's limits.
@Suite("Command feeds: exec: and filter: in a reload", .serialized)
struct CommandFeedReloadTests {
    static let feed = """
        <rss version="2.0"><channel><title>From a command</title>
        <item><guid>c-1</guid><title>One</title><link>/one</link></item>
        <item><guid>c-2</guid><title>Two</title></item></channel></rss>
        """

    /// A scratch directory with a library in it.
    struct Scratch {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-command-\(UUID().uuidString)")
        func file(_ name: String, _ text: String) throws -> String {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let url = directory.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return url.path
        }
        func store() async throws -> LibraryStore {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return try await LibraryStore.open(path: directory.appendingPathComponent("h.db").path)
        }
        func cleanUp() { try? FileManager.default.removeItem(at: directory) }
    }

    @Test("an exec: feed's output is the feed, kept under its address as written")
    func exec() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let path = try scratch.file("feed xml.rss", Self.feed)
        let store = try await scratch.store()
        let address = "exec:cat '\(path)'"
        try await store.subscribe(Subscription(url: address))
        let summary = try await Reloader(store: store).reload()
        #expect(summary.failures.isEmpty, "\(summary.failures)")
        #expect(summary.newArticles == 2)
        let feeds = try await store.feedSummaries()
        #expect(feeds.map(\.feed.url) == [address])
        #expect(feeds.first?.feed.title == "From a command")
        #expect(try await store.subscriptions().map(\.url) == [address], "the address stays as written")
    }

    @Test("a filter: feed downloads its address and pipes the body through the command")
    func filter() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let store = try await scratch.store()
        // The fixture feed's title, changed by the filter: proof the output is what was stored.
        let address = "filter:sed 's/<title>Fixture</<title>Filtered</':\(server.url("/feed").absoluteString)"
        try await store.subscribe(Subscription(url: address))
        let summary = try await Reloader(store: store).reload()
        #expect(summary.failures.isEmpty, "\(summary.failures)")
        #expect(summary.newArticles == 1)
        #expect(try await store.feedSummaries().first?.feed.title == "Filtered")
    }

    @Test("a command that fails is an error for its feed alone, with its status and first line of errors")
    func failing() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let store = try await scratch.store()
        try await store.subscribe(
            Subscription(url: "exec:echo 'no such thing' >&2; echo second >&2; exit 2", title: "Bad"))
        try await store.subscribe(
            Subscription(url: "filter:exit 3:\(server.url("/feed").absoluteString)", title: "Bad filter"))
        try await store.subscribe(Subscription(url: server.url("/feed").absoluteString))
        let summary = try await Reloader(store: store).reload()
        #expect(summary.newArticles == 1)
        let reasons = Dictionary(uniqueKeysWithValues: summary.failures.map { ($0.title, $0.reason) })
        #expect(reasons["Bad"] == "exec: command exited with status 2: no such thing")
        #expect(reasons["Bad filter"] == "filter: command exited with status 3")
    }

    @Test("output past the size limit stops the command, an error for the feed")
    func tooLarge() async throws {
        var limits = FetchLimits()
        limits.maxBytes = 100_000
        await #expect(
            throws: FetchError.other("exec: command printed more than 100000 bytes and was stopped")
        ) {
            try await CommandOutput.run("yes feed", kind: "exec", input: nil, limits: limits)
        }
    }

    @Test("past the time limit the command's whole process group is killed")
    func timeLimit() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let marker = scratch.directory.appendingPathComponent("still-running").path
        var limits = FetchLimits()
        limits.totalTimeout = 1
        let started = Date()
        // The grandchild holds the output open: only killing the group ends the wait.
        await #expect(throws: FetchError.timedOut("exec: command ran over 1 s and was stopped")) {
            try await CommandOutput.run(
                "(sleep 3; mkdir -p '\(scratch.directory.path)'; touch '\(marker)') & sleep 30", kind: "exec",
                input: nil, limits: limits)
        }
        // Loose bounds, for a busy machine: the commands would run 30 s.
        #expect(Date().timeIntervalSince(started) < 20)
        // A command that closes its output and goes on is stopped at the limit too.
        let closing = Date()
        await #expect(throws: FetchError.timedOut("exec: command ran over 1 s and was stopped")) {
            try await CommandOutput.run("exec >&- 2>&-; sleep 30", kind: "exec", input: nil, limits: limits)
        }
        #expect(Date().timeIntervalSince(closing) < 20)
        try await Task.sleep(for: .seconds(3))
        #expect(!FileManager.default.fileExists(atPath: marker), "the command's children were killed too")
    }

    @Test("a filter that reads none of a large input still answers; its input is never its command line")
    func filterInput() async throws {
        let input =
            Data(repeating: UInt8(ascii: "x"), count: 1 << 20) + Data("$(touch /tmp/herald-owned)".utf8)
        let head = try await CommandOutput.run(
            "head -c 3", kind: "filter", input: input, limits: FetchLimits())
        #expect(head == Data("xxx".utf8))
        let all = try await CommandOutput.run("wc -c", kind: "filter", input: input, limits: FetchLimits())
        #expect(
            String(decoding: all, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                == "\(input.count)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/herald-owned"))
    }

    @Test("a redirect to exec: is refused, and no feed is ever moved to a command address")
    func neverByRedirect() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        await #expect(throws: FetchError.redirectRefused(scheme: "exec")) {
            try await FeedFetcher().fetch(FetchRequest(url: server.url("/to/exec")))
        }
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let store = try await scratch.store()
        try await store.subscribe(Subscription(url: "https://e.example/feed"))
        #expect(try await !store.moveFeed(from: "https://e.example/feed", to: "exec:touch /tmp/x"))
        try await store.subscribe(Subscription(url: "exec:cat /dev/null"))
        #expect(try await !store.moveFeed(from: "exec:cat /dev/null", to: "https://e.example/other"))
        #expect(
            try await store.subscriptions().map(\.url).sorted() == [
                "exec:cat /dev/null", "https://e.example/feed",
            ])
    }
}
