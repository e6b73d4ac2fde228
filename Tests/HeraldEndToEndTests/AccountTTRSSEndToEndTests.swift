import Foundation
import HeraldTestSupport
import Testing

/// herald through a real Tiny Tiny RSS, and beside newsboat 2.21 on the same account: each
/// sees the other's read marks through the server.
@Suite(
    "Accounts end to end: Tiny Tiny RSS", .serialized,
    .enabled(if: RealTTRSS.unavailable == nil, "a real TT-RSS needs root"))
struct AccountTTRSSEndToEndTests {
    typealias Library = CommandLineTests.Library

    /// One test's TT-RSS user with one feed of `count` articles, fetched by the server.
    struct Account {
        let server: RealTTRSS
        let user: TTRSSUser
        let feeds: FeedFolderServer

        init(feed name: String, count: Int) async throws {
            server = try await RealTTRSS.shared()
            user = try await server.newUser()
            feeds = try FeedFolderServer()
            try feeds.write("\(name).xml", Self.rss(name, count: count))
            try await server.subscribe(user, to: feeds.feedURL("\(name).xml"))
        }

        static func rss(_ name: String, count: Int) -> String {
            let items = (0..<count).map { n in
                """
                <item><title>\(name) story \(n)</title><link>https://example.org/\(name)/\(n)</link>
                <guid>\(name)-\(n)</guid><pubDate>\(Self.date(n))</pubDate>
                <description>&lt;p&gt;The tide of \(name), day \(n), came in over the wall.&lt;/p&gt;</description></item>
                """
            }
            return """
                <?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>\(name)</title>
                <link>https://example.org/\(name)</link>\(items.joined())</channel></rss>
                """
        }

        static func date(_ n: Int) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            return formatter.string(from: Date(timeIntervalSince1970: 1_790_000_000 + Double(n) * 3600))
        }

        /// A Herald library on this account (the password in a file only its owner reads), at
        /// the server's address or at `url` (a proxy before it).
        func library(url: URL? = nil) throws -> (Library, URL) {
            let library = Library()
            try FileManager.default.createDirectory(at: library.directory, withIntermediateDirectories: true)
            let secret = library.directory.appendingPathComponent("password")
            try Data(user.password.utf8).write(to: secret)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret.path)
            let config = library.directory.appendingPathComponent("config")
            try Data(
                """
                set urls-source ttrss
                set ttrss-url \((url ?? server.base).absoluteString)
                set ttrss-login \(user.login)
                set ttrss-passwordfile \(secret.path)

                """.utf8
            ).write(to: config)
            return (library, config)
        }
    }

    /// Every article of a library, by title: (id, read, starred).
    static func articles(_ library: Library, _ config: URL) throws -> [String: (id: String, read: Bool, starred: Bool)] {
        var found: [String: (id: String, read: Bool, starred: Bool)] = [:]
        for row in try library.jsonLines(["--config", config.path, "list", "--limit", "10000"]) {
            guard let title = row["title"] as? String, let id = row["id"] as? String else { continue }
            found[title] = (id, row["read"] as? Bool ?? false, row["starred"] as? Bool ?? false)
        }
        return found
    }

    static func reload(_ library: Library, _ config: URL) throws -> String {
        let result = try library.run(["--config", config.path, "reload"], timeout: 120)
        #expect(result.exitStatus == 0, "\(result.output) \(result.errors)")
        return result.output
    }

    @Test("two libraries on one TT-RSS account converge: read and starred, both ways")
    func twoLibrariesConverge() async throws {
        let account = try await Account(feed: "tide", count: 6)
        defer { account.feeds.stop() }
        let (a, configA) = try account.library(), (b, configB) = try account.library()
        defer { a.cleanUp(); b.cleanUp() }
        #expect(try Self.reload(a, configA).contains("6 new articles"))
        _ = try Self.reload(b, configB)
        let inA = try Self.articles(a, configA)
        #expect(inA.count == 6 && inA.values.allSatisfy { !$0.read })
        let read = try #require(inA["tide story 1"]?.id), star = try #require(inA["tide story 4"]?.id)
        #expect(try a.run(["--config", configA.path, "mark", "read", read]).exitStatus == 0)
        #expect(try a.run(["--config", configA.path, "mark", "star", star]).exitStatus == 0)
        _ = try Self.reload(a, configA)
        _ = try Self.reload(b, configB)
        var inB = try Self.articles(b, configB)
        #expect(inB["tide story 1"]?.read == true && inB["tide story 4"]?.starred == true)
        #expect(inB.values.filter(\.read).count == 1 && inB.values.filter(\.starred).count == 1)
        // And back: B marks unread and unstars.
        #expect(try b.run(["--config", configB.path, "mark", "unread", try #require(inB["tide story 1"]?.id)]).exitStatus == 0)
        #expect(try b.run(["--config", configB.path, "mark", "unstar", try #require(inB["tide story 4"]?.id)]).exitStatus == 0)
        _ = try Self.reload(b, configB)
        _ = try Self.reload(a, configA)
        let after = try Self.articles(a, configA)
        #expect(after.values.allSatisfy { !$0.read && !$0.starred })
        inB = try Self.articles(b, configB)
        #expect(inB.values.allSatisfy { !$0.read && !$0.starred })
    }

    @Test("herald and newsboat 2.21 on one TT-RSS account see each other's read marks")
    func newsboatSeesHerald() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/newsboat") else {
            Issue.record("newsboat is not installed (make deps-test installs it)")
            return
        }
        let account = try await Account(feed: "quay", count: 5)
        defer { account.feeds.stop() }
        let (herald, config) = try account.library()
        defer { herald.cleanUp() }
        _ = try Self.reload(herald, config)
        // newsboat's own files, on the same account.
        let home = herald.directory.appendingPathComponent("newsboat")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let newsboatConfig = home.appendingPathComponent("config")
        try Data(
            """
            urls-source "ttrss"
            ttrss-url "\(account.server.base.absoluteString)"
            ttrss-login "\(account.user.login)"
            ttrss-password "\(account.user.password)"

            """.utf8
        ).write(to: newsboatConfig)
        let urls = home.appendingPathComponent("urls"), cache = home.appendingPathComponent("cache.db")
        try Data().write(to: urls)
        let newsboat = ["newsboat", "-C", newsboatConfig.path, "-u", urls.path, "-c", cache.path]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = home.path
        _ = try TmuxSession.runTool("newsboat", Array(newsboat.dropFirst()) + ["-x", "reload"], environment: environment, timeout: 60)
        func newsboatRead() throws -> Set<String> {
            let rows = try TmuxSession.runTool("sqlite3", [cache.path, "SELECT title FROM rss_item WHERE unread = 0"])
            return Set(rows.split(separator: "\n").map(String.init))
        }
        #expect(try newsboatRead().isEmpty)

        // Herald marks one read; newsboat's next reload sees it.
        let rows = try Self.articles(herald, config)
        #expect(try herald.run(["--config", config.path, "mark", "read", try #require(rows["quay story 2"]?.id)]).exitStatus == 0)
        _ = try Self.reload(herald, config)
        _ = try TmuxSession.runTool("newsboat", Array(newsboat.dropFirst()) + ["-x", "reload"], environment: environment, timeout: 60)
        #expect(try newsboatRead() == ["quay story 2"])

        // newsboat opens an article (which marks it read there and on the server): Herald's
        // next reload sees it.
        let session = try TmuxSession()
        defer { session.kill() }
        try await session.waitUntil(contains: "e2e$")
        try session.runCommand(
            "HOME=\(HeraldUnderTest.shellQuoted(home.path)) "
                + newsboat.map(HeraldUnderTest.shellQuoted).joined(separator: " ") + "; echo \"EXIT=$?\"")
        try await session.waitUntil(contains: "quay", timeout: .seconds(30))
        try session.sendKeys("Enter")
        try await session.waitUntil(contains: "quay story", timeout: .seconds(15))
        try session.sendKeys("Enter")
        try await session.waitUntil(contains: "The tide of quay", timeout: .seconds(15))
        try session.sendKeys("q")
        try await Task.sleep(for: .milliseconds(500))
        try session.sendKeys("q")
        try await Task.sleep(for: .milliseconds(500))
        try session.sendKeys("q")
        _ = try await session.waitForExitStatus(timeout: .seconds(30))
        let readInNewsboat = try newsboatRead()
        #expect(readInNewsboat.count == 2)
        _ = try Self.reload(herald, config)
        let inHerald = Set(try Self.articles(herald, config).filter { $0.value.read }.map(\.key))
        #expect(inHerald == readInNewsboat)
    }

    @Test("a change waiting here wins over a later one made on the server: TT-RSS's API dates no mark")
    func undatedServerChangeLoses() async throws {
        let account = try await Account(feed: "later", count: 3)
        defer { account.feeds.stop() }
        let (a, configA) = try account.library(), (b, configB) = try account.library()
        defer { a.cleanUp(); b.cleanUp() }
        _ = try Self.reload(a, configA)
        _ = try Self.reload(b, configB)
        let idA = try #require(try Self.articles(a, configA)["later story 1"]?.id)
        let idB = try #require(try Self.articles(b, configB)["later story 1"]?.id)
        #expect(try a.run(["--config", configA.path, "mark", "read", idA]).exitStatus == 0)
        _ = try Self.reload(a, configA)
        _ = try Self.reload(b, configB)
        // A marks it unread and waits; B marks it unread, then read again, later than A.
        #expect(try a.run(["--config", configA.path, "mark", "unread", idA]).exitStatus == 0)
        try await Task.sleep(for: .milliseconds(50))
        #expect(try b.run(["--config", configB.path, "mark", "unread", idB]).exitStatus == 0)
        _ = try Self.reload(b, configB)
        #expect(try b.run(["--config", configB.path, "mark", "read", idB]).exitStatus == 0)
        _ = try Self.reload(b, configB)
        // TT-RSS keeps last_read but its API does not give it: A's change goes up.
        #expect(try Self.reload(a, configA).contains("1 change sent"))
        _ = try Self.reload(b, configB)
        #expect(try Self.articles(a, configA)["later story 1"]?.read == false)
        #expect(try Self.articles(b, configB)["later story 1"]?.read == false)
    }
}
