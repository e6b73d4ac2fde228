import Foundation
import HeraldFetch
import HeraldTestSupport
import Testing

@testable import HeraldAccounts

/// What a real server cannot be made to do: answer garbage, fail, ask to wait, refuse a
/// session or a token. A loopback server does it on purpose (`Server/account_server.py`).
@Suite("Google Reader API faults")
struct GoogleReaderFaultTests {
    static let secret = "s3cret-Passw0rd"

    func client(_ base: URL, maxBytes: Int = 16 * 1_048_576) -> GoogleReaderService {
        var limits = FetchLimits()
        limits.maxBytes = maxBytes
        return GoogleReaderService(
            apiBase: base, login: "reader", password: Self.secret, fetcher: FeedFetcher(limits: limits))
    }

    /// Each call of the protocol, named.
    static func calls(_ service: GoogleReaderService) -> [(String, () async throws -> Void)] {
        [
            ("feeds", { _ = try await service.feeds() }),
            ("items", { _ = try await service.items(after: nil, limit: 10) }),
            ("states", { _ = try await service.states() }),
            ("send", { try await service.send([RemoteFlagChange(itemID: "1", flag: .read, value: true)]) }),
            (
                "subscribe",
                { _ = try await service.subscribe(url: "https://example.org/feed", category: nil) }
            ),
        ]
    }

    @Test(
        "each fault gives its error from every call, never a crash, and never the password",
        arguments: [
            ("garbage", "badResponse"), ("status500", "serverError"), ("busy", "busy"),
            ("huge", "unreachable"),
            ("wrongtype", "badResponse"), ("refused", "unauthorized"), ("login-error", "unauthorized"),
        ])
    func faultsGiveTheirErrors(fault: String, expected: String) async throws {
        let server = try AccountTestServer()
        defer { server.stop() }
        let service = client(server.faultBase(fault), maxBytes: 1_048_576)
        for (name, call) in Self.calls(service) {
            let error = await accountError(call)
            #expect(error?.kind == expected, "\(name)")
            #expect(error.map { !"\($0)".contains(Self.secret) } == true, "\(name)")
            switch error {
            case .busy(let seconds): #expect(seconds == 120)
            case .serverError(let status): #expect(status == 500)
            case .unreachable(let why): #expect(why.contains("larger than 1 MB"))
            default: break
            }
        }
    }

    @Test("a field of the wrong type is named in the error")
    func wrongTypesAreNamed() async throws {
        let server = try AccountTestServer()
        defer { server.stop() }
        let service = client(server.faultBase("wrongtype"))
        #expect(
            "\(await accountError { try await service.feeds() } as Any)".contains("subscriptions[0].title"))
        #expect(
            "\(await accountError { try await service.items(after: nil, limit: 5) } as Any)".contains(
                "items[0].title"))
        #expect("\(await accountError { try await service.states() } as Any)".contains("itemRefs[0].id"))
    }

    @Test("a page over the size cap is asked for again at half the size, down to what fits")
    func pagesOverTheCapShrink() async throws {
        let server = try AccountTestServer()
        defer { server.stop() }
        let base = server.faultBase("fat-items")
        let page = try await client(base, maxBytes: 1_048_576).items(after: nil, limit: 10)
        #expect(page.items.map(\.item.title) == ["Fat 0", "Fat 1"])
        #expect(
            try server.counts(base)["/reader/api/0/stream/contents/user/-/state/com.google/reading-list"] == 3
        )
    }

    @Test("the next page, asked for ahead, is the one the next call takes; another is asked anew")
    func nextPageAskedAhead() async throws {
        let server = try AccountTestServer()
        defer { server.stop() }
        let base = server.faultBase("paged")
        let walk = try await SyncWalk.run(client(base), from: nil, limit: 3)
        #expect(walk.items.map(\.item.title) == (1...7).map { "Item \($0)" })
        #expect(walk.pages == [3, 3, 1])
        let path = "/reader/api/0/stream/contents/user/-/state/com.google/reading-list"
        #expect(try server.counts(base)[path] == 3)

        let service = client(base)
        let first = try await service.items(after: nil, limit: 3)
        let second = try await service.items(after: first.cursor, limit: 2)
        #expect(second.items.map(\.item.title) == ["Item 4", "Item 5"])
        #expect(second.more)
    }

    @Test("a refused session is logged into again, once")
    func expiredSessionLogsInAgain() async throws {
        let server = try AccountTestServer()
        defer { server.stop() }
        let base = server.faultBase("expired")
        let feeds = try await client(base).feeds()
        #expect(feeds.isEmpty)
        let counts = try server.counts(base)
        #expect(counts["/accounts/ClientLogin"] == 2)
        #expect(counts["/reader/api/0/subscription/list"] == 2)
    }

    @Test("a session refused again after logging in again is unauthorized, with no third try")
    func refusedTwiceIsUnauthorized() async throws {
        let server = try AccountTestServer()
        defer { server.stop() }
        let base = server.faultBase("always401")
        #expect(await accountError { try await client(base).feeds() }?.kind == "unauthorized")
        let counts = try server.counts(base)
        #expect(counts["/accounts/ClientLogin"] == 2)
        #expect(counts["/reader/api/0/subscription/list"] == 2)
    }

    @Test("a refused edit token is fetched again once, without logging in again")
    func staleTokenIsFetchedAgain() async throws {
        let server = try AccountTestServer()
        defer { server.stop() }
        let base = server.faultBase("stale-token")
        try await client(base).send([
            RemoteFlagChange(itemID: "1796315965267659", flag: .starred, value: true)
        ])
        let counts = try server.counts(base)
        #expect(counts["/reader/api/0/token"] == 2)
        #expect(counts["/reader/api/0/edit-tag"] == 2)
        #expect(counts["/accounts/ClientLogin"] == 1)
    }

    @Test("calls made at once share one login")
    func concurrentCallsShareOneLogin() async throws {
        let server = try AccountTestServer()
        defer { server.stop() }
        let base = server.faultBase("stale-token")
        let service = client(base)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { _ = try await service.feeds() } }
            try await group.waitForAll()
        }
        #expect(try server.counts(base)["/accounts/ClientLogin"] == 1)
    }

    @Test("an unreachable server is unreachable")
    func unreachableServer() async throws {
        let server = try AccountTestServer()
        let base = server.faultBase("garbage")
        server.stop()
        try await Task.sleep(for: .milliseconds(100))
        #expect(await accountError { try await client(base).logIn() }?.kind == "unreachable")
    }
}
