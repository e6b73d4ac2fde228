import Foundation
import HeraldTestSupport
import Testing

@testable import HeraldFetch

/// The fetcher against a real HTTP server on loopback.
@Suite("Fetching over HTTP", .serialized)
struct FeedFetcherTests {
    func withServer(_ body: (FixtureServer, FeedFetcher) async throws -> Void) async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        var limits = FetchLimits()
        limits.idleTimeout = 1
        limits.totalTimeout = 2
        limits.maxBytes = 1_048_576
        try await body(server, FeedFetcher(limits: limits))
    }

    func document(_ result: FetchResult) -> FetchedDocument? {
        if case .fetched(let document) = result { document } else { nil }
    }

    @Test("a feed comes with its ETag and Last-Modified; sending them back gives 304")
    func conditionalGet() async throws {
        try await withServer { server, fetcher in
            let first = try #require(
                document(try await fetcher.fetch(FetchRequest(url: server.url("/feed")))))
            #expect(String(decoding: first.data, as: UTF8.self).contains("<title>Fixture</title>"))
            #expect(first.etag == "\"v1\"")
            #expect(first.lastModified == "Mon, 30 Nov 2026 00:00:00 GMT")
            let again = try await fetcher.fetch(FetchRequest(url: server.url("/feed"), etag: first.etag))
            #expect(again == .notModified)
            let byDate = try await fetcher.fetch(
                FetchRequest(url: server.url("/feed"), lastModified: first.lastModified))
            #expect(byDate == .notModified)
        }
    }

    @Test("HTTP errors name their status")
    func statuses() async throws {
        try await withServer { server, fetcher in
            for code in [404, 500, 410] {
                await #expect(throws: FetchError.httpStatus(code)) {
                    try await fetcher.fetch(FetchRequest(url: server.url("/status/\(code)")))
                }
            }
        }
    }

    @Test("redirect chains are followed; a loop is an error; a permanent redirect is reported")
    func redirects() async throws {
        try await withServer { server, fetcher in
            let chain = try #require(
                document(try await fetcher.fetch(FetchRequest(url: server.url("/redirect/3")))))
            #expect(chain.finalURL.path == "/feed")
            #expect(chain.movedPermanentlyTo == nil)
            let moved = try #require(
                document(try await fetcher.fetch(FetchRequest(url: server.url("/moved")))))
            #expect(moved.movedPermanentlyTo?.path == "/feed")
            // Unchanged at the new address: the move is reported all the same.
            let unchanged = try await fetcher.fetch(FetchRequest(url: server.url("/moved"), etag: "\"v1\""))
            #expect(unchanged == .notModifiedAt(server.url("/feed")))
            let stayed = try await fetcher.fetch(FetchRequest(url: server.url("/redirect/1"), etag: "\"v1\""))
            #expect(stayed == .notModified)
            await #expect(throws: FetchError.tooManyRedirects) {
                try await fetcher.fetch(FetchRequest(url: server.url("/loop")))
            }
            await #expect(throws: FetchError.tooManyRedirects) {
                try await fetcher.fetch(FetchRequest(url: server.url("/redirect/9")))
            }
        }
    }

    @Test("a slow server times out with an error that says so")
    func timeout() async throws {
        try await withServer { server, fetcher in
            let started = Date()
            // /silent never answers: only the fetcher's limit (2 s) ends the wait. The bound
            // is loose, for a busy machine; the server would hold the request for an hour.
            do {
                _ = try await fetcher.fetch(FetchRequest(url: server.url("/silent")))
                Issue.record("a server that never answers was answered")
            } catch FetchError.timedOut {
            } catch {
                Issue.record("not a timeout: \(error)")
            }
            #expect(Date().timeIntervalSince(started) < 30)
        }
    }

    @Test("gzip bodies are decoded; the charset of Content-Type is passed on")
    func gzipAndCharset() async throws {
        try await withServer { server, fetcher in
            let zipped = try #require(
                document(try await fetcher.fetch(FetchRequest(url: server.url("/gzip")))))
            #expect(String(decoding: zipped.data, as: UTF8.self).hasPrefix("<?xml"))
            let korean = try #require(
                document(try await fetcher.fetch(FetchRequest(url: server.url("/charset")))))
            #expect(korean.charset == "EUC-KR")
        }
    }

    @Test("a body over the cap is refused without keeping it")
    func tooLarge() async throws {
        try await withServer { server, fetcher in
            await #expect(throws: FetchError.tooLarge(limit: 1_048_576)) {
                try await fetcher.fetch(FetchRequest(url: server.url("/big")))
            }
        }
    }

    @Test("a truncated body is an error, not a short feed")
    func truncated() async throws {
        try await withServer { server, fetcher in
            await #expect(throws: FetchError.self) {
                try await fetcher.fetch(FetchRequest(url: server.url("/truncated")))
            }
        }
    }

    @Test("refused connections, unknown schemes and missing files are errors that name the cause")
    func otherFailures() async throws {
        let fetcher = FeedFetcher()
        await #expect(throws: FetchError.self) {
            try await fetcher.fetch(FetchRequest(url: URL(string: "http://127.0.0.1:9/feed")!))
        }
        await #expect(throws: FetchError.unsupportedScheme("ftp")) {
            try await fetcher.fetch(FetchRequest(url: URL(string: "ftp://example.org/feed")!))
        }
        await #expect(throws: FetchError.fileNotFound("/nonexistent/feed.xml")) {
            try await fetcher.fetch(FetchRequest(url: URL(fileURLWithPath: "/nonexistent/feed.xml")))
        }
    }

    @Test("file URLs are read directly")
    func fileURL() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-fetch-\(UUID().uuidString).xml")
        try Data("<rss/>".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await FeedFetcher().fetch(FetchRequest(url: file))
        #expect(document(result)?.data == Data("<rss/>".utf8))
    }
}

/// What a hostile server can do to a fetch: the limits hold while bytes arrive.
@Suite("Fetching from hostile servers", .serialized)
struct HostileServerFetchTests {
    @Test("a gzip bomb is stopped at the cap of decompressed bytes")
    func gzipBomb() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        var limits = FetchLimits()
        limits.maxBytes = 1_048_576
        await #expect(throws: FetchError.tooLarge(limit: 1_048_576)) {
            try await FeedFetcher(limits: limits).fetch(FetchRequest(url: server.url("/bomb")))
        }
    }

    @Test(
        "four gzip bombs at once: one body at a time may grow past the budget, so the bytes held stay bounded"
    )
    func fourBombs() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        var limits = FetchLimits()
        limits.maxBytes = 4 * 1_048_576
        // The bodies take turns, so under ThreadSanitizer on a loaded machine the last one
        // waited past the minute a fetch may take: this test is about bytes, not time.
        limits.totalTimeout = 600
        let budget = 1_048_576
        let fetcher = FeedFetcher(limits: limits, bodyBudget: budget)
        let urls = try (1...4).map { try #require(URL(string: "http://127.0.0.\($0):\(server.port)/bomb")) }
        let cap = limits.maxBytes
        await withTaskGroup(of: Void.self) { group in
            for url in urls {
                group.addTask {
                    await #expect(throws: FetchError.tooLarge(limit: cap)) {
                        try await fetcher.fetch(FetchRequest(url: url))
                    }
                }
            }
        }
        // The budget, one body grown to the cap, and one decoded piece (64 KB) past it: not
        // four bodies of 4 MB each.
        let peak = try #require(fetcher.peakBudgetBytes)
        #expect(peak <= budget + limits.maxBytes + 65_536, "peak \(peak)")
        #expect(fetcher.peakBudgetBytes.map { $0 > 0 } == true)
    }

    @Test("deflate bodies are decoded, zlib-wrapped or raw; a damaged gzip body is an error that says so")
    func deflateAndDamaged() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let fetcher = FeedFetcher()
        for path in ["/deflate", "/raw-deflate"] {
            guard case .fetched(let fetched) = try await fetcher.fetch(FetchRequest(url: server.url(path)))
            else {
                Issue.record("\(path): nothing fetched")
                continue
            }
            let data = Optional(fetched.data)
            #expect(
                data.map { String(decoding: $0, as: UTF8.self).contains("<title>Fixture</title>") } == true,
                "\(path)")
        }
        do {
            _ = try await fetcher.fetch(FetchRequest(url: server.url("/bad-gzip")))
            Issue.record("a damaged gzip body was read")
        } catch {
            #expect("\(error)".contains("the gzip body is damaged"), "\(error)")
        }
    }

    @Test("a server that trickles its headers a byte a second is given up on, with a reason")
    func trickle() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        var limits = FetchLimits()
        limits.idleTimeout = 2
        limits.totalTimeout = 30
        let started = Date()
        do {
            _ = try await FeedFetcher(limits: limits).fetch(FetchRequest(url: server.url("/trickle")))
            Issue.record("a trickling server was read to its end")
        } catch {
            guard case .timedOut(let why) = error else {
                Issue.record("not a timeout: \(error)")
                return
            }
            #expect(why.contains("bytes/s"))
        }
        // Loose, for a busy machine: read to its end, the trickle would take 150 s.
        #expect(Date().timeIntervalSince(started) < 60)
    }

    @Test("a redirect to file:, javascript:, data: or ftp: is refused as an error for the feed")
    func redirectToOtherSchemes() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let fetcher = FeedFetcher()
        for scheme in ["file", "javascript", "data", "ftp"] {
            await #expect(throws: FetchError.redirectRefused(scheme: scheme)) {
                try await fetcher.fetch(FetchRequest(url: server.url("/to/\(scheme)")))
            }
        }
    }

    @Test("feeds on many hosts are fetched at once, not a few at a time")
    func manyHostsInParallel() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let fetcher = FeedFetcher()
        // /together/40 answers once all 40 wait at once: a global limit of 16 would hold 24
        // back until the server gave up on them. Counted, not timed.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 1...40 {
                let url = URL(string: "http://127.0.0.\(n + 1):\(server.port)/together/40")!
                group.addTask { _ = try await fetcher.fetch(FetchRequest(url: url)) }
            }
            try await group.waitForAll()
        }
        #expect(try await server.togetherPeak() == 40)
    }
}
