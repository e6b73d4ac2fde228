import Foundation
import HeraldAccounts
import HeraldFetch
import HeraldTestSupport
import Testing

/// What the TT-RSS client makes of answers a real server cannot be made to give: a loopback
/// server of the tests' own answers each fault (`feed_folder_server.py`).
@Suite struct TinyTinyRSSFaultTests {
    func error(
        _ kind: String, fetcher: FeedFetcher = FeedFetcher(),
        _ body: (TinyTinyRSSService) async throws -> Void
    )
        async throws -> AccountError?
    {
        let server = try FeedFolderServer()
        defer { server.stop() }
        let client = TinyTinyRSSService(
            base: server.faultBase(kind), login: "someone", password: "s3cret-word", fetcher: fetcher)
        do {
            try await body(client)
            return nil
        } catch let error as AccountError {
            #expect(!error.description.contains("s3cret-word"))
            return error
        }
    }

    @Test("an answer that is not JSON is a bad response")
    func garbage() async throws {
        let error = try await error("garbage") { try await $0.logIn() }
        #expect(error == .badResponse("not JSON"))
    }

    @Test("an HTML page is a bad response that says so")
    func html() async throws {
        let error = try await error("html") { _ = try await $0.feeds() }
        #expect(error == .badResponse("an HTML page instead of TT-RSS's JSON (is the URL TT-RSS's?)"))
    }

    @Test("a 500 is a server error")
    func serverError() async throws {
        #expect(try await error("status-500") { try await $0.logIn() } == .serverError(status: 500))
    }

    @Test("a 429 with Retry-After is busy for that long")
    func busy() async throws {
        #expect(try await error("busy") { _ = try await $0.states() } == .busy(seconds: 120))
    }

    @Test("a body over the fetcher's cap is refused, not read")
    func huge() async throws {
        var limits = FetchLimits()
        limits.maxBytes = 4 * 1_048_576
        let error = try await error("huge", fetcher: FeedFetcher(limits: limits)) { try await $0.logIn() }
        #expect(error == .unreachable(FetchError.tooLarge(limit: limits.maxBytes).description))
    }

    @Test("content of the wrong type is a bad response naming the field")
    func wrongType() async throws {
        let error = try await error("wrong-type") { try await $0.logIn() }
        #expect(error == .badResponse("a field of the wrong type (content)"))
    }

    @Test("a feed whose id is not a number is a bad response, not a crash")
    func wrongField() async throws {
        let error = try await error("wrong-field") { _ = try await $0.feeds() }
        guard case .badResponse(let why)? = error else {
            Issue.record("expected .badResponse, got \(String(describing: error))")
            return
        }
        #expect(why.contains("[0].id"))
    }

    @Test("a server that forgets every session is refused after one new login, not asked forever")
    func neverLoggedIn() async throws {
        let server = try FeedFolderServer()
        defer { server.stop() }
        let client = TinyTinyRSSService(
            base: server.faultBase("not-logged-in"), login: "a", password: "b", fetcher: FeedFetcher())
        await #expect(throws: AccountError.self) { _ = try await client.feeds() }
        let counts = try await FaultCounts.read(server)
        #expect(counts["not-logged-in"] ?? 0 <= 3)
    }
}

/// The fault server's request counts.
enum FaultCounts {
    static func read(_ server: FeedFolderServer) async throws -> [String: Int] {
        let http = AccountHTTP(base: URL(string: "http://127.0.0.1:\(server.port)")!, fetcher: FeedFetcher())
        let data = try await http.postJSON(http.url("/count"), Data("{}".utf8))
        return (try JSONSerialization.jsonObject(with: data) as? [String: Int]) ?? [:]
    }
}
