import Foundation
import HeraldTestSupport
import Testing

/// herald through a real FreshRSS account, as users run it: `herald reload`, `herald mark`,
/// `herald add --account`, `herald list --json`, on real library files.
@Suite("Accounts end to end: FreshRSS", .serialized)
struct AccountEndToEndTests {
    typealias Library = CommandLineTests.Library

    /// A library with a config naming `account` (`freshrss`, or `fever` through FreshRSS's
    /// Fever API), the password in a file only its owner reads.
    struct AccountLibrary {
        let library = Library()
        let config: URL

        init(_ account: RealFreshRSS.Account, kind: String = "freshrss", url: URL? = nil) throws {
            let directory = library.directory
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let secret = directory.appendingPathComponent("password")
            try Data((account.password + "\n").utf8).write(to: secret)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret.path)
            config = directory.appendingPathComponent("config")
            let address = url ?? (kind == "fever" ? account.feverEndpoint : account.apiBase)
            try Data(
                """
                set urls-source \(kind)
                set \(kind)-url \(address.absoluteString)
                set \(kind)-login \(account.user)
                set \(kind)-passwordfile \(secret.path)

                """.utf8
            ).write(to: config)
        }

        func run(_ arguments: [String], timeout: TimeInterval = 60) throws -> Spawn.Result {
            try library.run(["--config", config.path] + arguments, timeout: timeout)
        }

        /// `herald reload`, which must succeed.
        func reload() throws -> String {
            let result = try run(["reload"])
            #expect(result.exitStatus == 0, "\(result.output) \(result.errors)")
            return result.output
        }

        /// Every article, by title: (id, read, starred, feed URL).
        func articles() throws -> [String: (id: String, read: Bool, starred: Bool, feed: String)] {
            var found: [String: (id: String, read: Bool, starred: Bool, feed: String)] = [:]
            for row in try library.jsonLines(["--config", config.path, "list", "--limit", "10000"]) {
                guard let title = row["title"] as? String, let id = row["id"] as? String else { continue }
                found[title] = (id, row["read"] as? Bool ?? false, row["starred"] as? Bool ?? false,
                    row["feed_url"] as? String ?? "")
            }
            return found
        }

        func cleanUp() { library.cleanUp() }
    }

    static func feeds(_ prefix: String) -> [TestFeed] {
        [
            TestFeed(
                name: "\(prefix)-a", title: "Harbour notes", category: "News",
                articles: TestArticle.numbered(4, feed: "\(prefix)-a")),
            TestFeed(name: "\(prefix)-b", title: "Quay log", articles: TestArticle.numbered(3, feed: "\(prefix)-b")),
        ]
    }

    @Test("two libraries on one account converge through the server: subscriptions, read and starred")
    func twoLibrariesConverge() async throws {
        let feeds = Self.feeds("conv")
        let account = try await RealFreshRSS.shared.account(feeds: feeds)
        let a = try AccountLibrary(account), b = try AccountLibrary(account)
        defer { a.cleanUp(); b.cleanUp() }
        // notify-command counts the account's new articles and feeds.
        let notified = a.library.directory.appendingPathComponent("notified")
        let handle = try FileHandle(forWritingTo: a.config)
        handle.seekToEndOfFile()
        handle.write(Data("set notify-command \"echo %n %f >> '\(notified.path)'\"\n".utf8))
        try handle.close()
        let first = try a.reload()
        #expect(first.contains("7 new articles") && !first.contains("0 feeds:"), "\(first)")
        #expect(try String(contentsOf: notified, encoding: .utf8) == "7 2\n")
        _ = try b.reload()
        let inA = try a.articles()
        #expect(inA.count == 7)
        #expect(inA.values.allSatisfy { !$0.read && !$0.starred })
        let one = try #require(inA["conv-a article 0"]), second = try #require(inA["conv-b article 2"])
        #expect(try a.run(["mark", "read", one.id]).exitStatus == 0)
        #expect(try a.run(["mark", "star", second.id]).exitStatus == 0)
        // A third feed, subscribed from B through the account.
        let extra = TestFeed(name: "conv-c", title: "Lighthouse", articles: TestArticle.numbered(2, feed: "conv-c"))
        try RealFreshRSS.shared.publish([extra], for: account)
        let added = try b.run(["add", "--account", account.feedURL(extra)])
        #expect(added.exitStatus == 0, "\(added.errors)")
        _ = try a.reload()
        _ = try b.reload()
        try await RealFreshRSS.shared.refresh(account)
        _ = try b.reload()
        _ = try a.reload()
        let (finalA, finalB) = (try a.articles(), try b.articles())
        #expect(finalA.count == 9 && finalB.count == 9)
        for (title, article) in finalA {
            let other = try #require(finalB[title], "\(title)")
            #expect((article.read, article.starred) == (other.read, other.starred), "\(title)")
        }
        #expect(finalB["conv-a article 0"]?.read == true)
        #expect(finalB["conv-b article 2"]?.starred == true)
        #expect(finalA["conv-c article 1"] != nil)
        // B unstars, A sees it.
        #expect(try b.run(["mark", "unstar", try #require(finalB["conv-b article 2"]?.id)]).exitStatus == 0)
        _ = try b.reload()
        _ = try a.reload()
        #expect(try a.articles()["conv-b article 2"]?.starred == false)
    }

    @Test("changes made while the server is down wait, say so, and go up when it is back")
    func serverDownThenBack() async throws {
        let account = try await RealFreshRSS.shared.account(feeds: Self.feeds("down"))
        let proxy = try LoopbackProxy(target: account.apiBase.port ?? 80)
        let via = proxy.url(account.apiBase.path)
        let a = try AccountLibrary(account, url: via), b = try AccountLibrary(account)
        defer { a.cleanUp(); b.cleanUp(); proxy.stop() }
        _ = try a.reload()
        let rows = try a.articles()
        proxy.stop()
        let ids = try ["down-a article 1", "down-b article 0"].map { try #require(rows[$0]?.id) }
        #expect(try a.run(["mark", "read"] + ids).output.contains("2 changes wait"))
        let failed = try a.run(["reload"])
        #expect(failed.exitStatus == 1)
        #expect(failed.output.contains("connection refused") && failed.output.contains("2 changes wait"))
        let status = try a.run(["account"]).output
        #expect(status.contains("waiting:  2 changes"), "\(status)")
        // The reader opened later (no reload on start) lists the failure under ! at once.
        let session = try await a.library.openReader(["--config", a.config.path])
        defer { session.kill() }
        try await session.waitUntil(contains: "Harbour notes")
        try session.sendKeys("!")
        let errors = try await session.waitUntil("the account in !") { screen in
            screen.contains { $0.contains("FreshRSS") && $0.contains("connection refused") }
        }
        #expect(errors.contains { $0.contains("2 changes wait") }, "\(TmuxSession.framed(errors))")
        try session.sendKeys("q")
        try session.sendKeys("q")
        _ = try await session.waitForExitStatus(timeout: .seconds(30))
        try proxy.start()
        #expect(try a.reload().contains("2 changes sent"))
        _ = try b.reload()
        let inB = try b.articles()
        #expect(inB["down-a article 1"]?.read == true && inB["down-b article 0"]?.read == true)
        #expect(inB.values.filter(\.read).count == 2)
    }

    @Test("kill -9 in the middle of a sync leaves the library sound and the queue whole")
    func killedMidSync() async throws {
        let many = [
            TestFeed(name: "kill-a", title: "Long river", articles: TestArticle.numbered(120, feed: "kill-a"))
        ]
        let account = try await RealFreshRSS.shared.account(feeds: many)
        let proxy = try LoopbackProxy(target: account.apiBase.port ?? 80)
        let a = try AccountLibrary(account, url: proxy.url(account.apiBase.path))
        let fast = try AccountLibrary(account)
        defer { a.cleanUp(); fast.cleanUp(); proxy.stop() }
        _ = try a.reload()
        // A slow server from now on (every piece of an answer held 30 ms): a sync runs for
        // seconds, and a new one fetches everything again (a library of its own, same account).
        proxy.stop()
        try proxy.start(delay: 30)
        let rows = try a.articles()
        let marked = try (0..<5).map { try #require(rows["kill-a article \($0)"]?.id) }
        #expect(try a.run(["mark", "star"] + marked).exitStatus == 0)
        var midway = 0
        for extra in [0, 300, 1000] {
            // Every article again, slowly: the kill lands while they come.
            _ = try TmuxSession.runTool("sqlite3", [a.library.path, "DELETE FROM meta WHERE key = 'account.cursor'"])
            try AccountKill.reload(config: a.config.path, library: a.library.path, extra: extra)
            let check = try TmuxSession.runTool("sqlite3", [a.library.path, "PRAGMA integrity_check"])
            #expect(check.trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
            let queue = try TmuxSession.runTool(
                "sqlite3", [a.library.path, "SELECT count(*) FROM account_outbox"])
            let left = Int(queue.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
            // Sent whole, or not yet: never a part lost.
            #expect(left == 5 || left == 0, "\(left)")
            let cursor = try TmuxSession.runTool(
                "sqlite3", [a.library.path, "SELECT count(*) FROM meta WHERE key = 'account.cursor'"])
            if cursor.hasPrefix("0") { midway += 1 }
        }
        // At least one kill fell before the sync's end (its cursor not stored yet).
        #expect(midway > 0)
        let done = try a.run(["reload"], timeout: 120)
        #expect(done.exitStatus == 0, "\(done.output)")
        _ = try fast.reload()
        let seen = try fast.articles()
        #expect((0..<5).allSatisfy { seen["kill-a article \($0)"]?.starred == true })
        #expect(seen.count == 120)
    }

    @Test("the password is in no output, error, status, library file or argument list")
    func secretsStaySecret() async throws {
        let account = try await RealFreshRSS.shared.account(feeds: Self.feeds("secret"))
        let good = try AccountLibrary(account)
        defer { good.cleanUp() }
        _ = try good.reload()
        // A wrong password, in the config itself (a config only its owner reads).
        let wrong = "Wrong-\(UUID().uuidString)"
        let bad = try AccountLibrary(account)
        defer { bad.cleanUp() }
        try Data(
            """
            set urls-source freshrss
            set freshrss-url \(account.apiBase.absoluteString)
            set freshrss-login \(account.user)
            set freshrss-password \(wrong)

            """.utf8
        ).write(to: bad.config)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: bad.config.path)
        let refused = try bad.run(["reload"])
        #expect(refused.exitStatus == 1)
        #expect(refused.output.contains("login refused"), "\(refused.output)")
        var outputs = [refused.output, refused.errors]
        for command in [["account"], ["config", "check"], ["list"], ["account", "sync"]] {
            let result = try bad.run(command)
            outputs += [result.output, result.errors]
        }
        for text in outputs {
            #expect(!text.contains(wrong) && !text.contains(account.password))
        }
        for library in [good, bad] {
            for suffix in ["", "-wal"] {
                let bytes = (try? Data(contentsOf: URL(fileURLWithPath: library.library.path + suffix))) ?? Data()
                #expect(bytes.range(of: Data(account.password.utf8)) == nil)
                #expect(bytes.range(of: Data(wrong.utf8)) == nil)
            }
        }
        // A config others can read is refused as the password's place, with the fix.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: bad.config.path)
        let exposed = try bad.run(["reload"])
        #expect(exposed.output.contains("readable by every user") && exposed.output.contains("chmod 600"))
        #expect(!exposed.output.contains(wrong))
        let check = try bad.run(["config", "check"])
        #expect(check.exitStatus == 1 && check.output.contains("chmod 600"))
    }

    @Test("a library reads through FreshRSS's Fever API too, and marks go both ways")
    func fever() async throws {
        let account = try await RealFreshRSS.shared.account(feeds: Self.feeds("fever"))
        let viaFever = try AccountLibrary(account, kind: "fever"), viaReader = try AccountLibrary(account)
        defer { viaFever.cleanUp(); viaReader.cleanUp() }
        #expect(try viaFever.reload().contains("7 new articles"))
        _ = try viaReader.reload()
        let rows = try viaFever.articles()
        #expect(try viaFever.run(["mark", "read", try #require(rows["fever-a article 2"]?.id)]).exitStatus == 0)
        _ = try viaFever.reload()
        _ = try viaReader.reload()
        #expect(try viaReader.articles()["fever-a article 2"]?.read == true)
        let subscribe = try viaFever.run(["add", "--account", "https://example.org/feed"])
        #expect(subscribe.exitStatus != 0 && subscribe.errors.contains("Fever API cannot subscribe"))
    }

    @Test("a change waiting here wins over a later one made on the server: the Google Reader API dates no mark")
    func undatedServerChangeLoses() async throws {
        let account = try await RealFreshRSS.shared.account(feeds: Self.feeds("later"))
        let a = try AccountLibrary(account), b = try AccountLibrary(account)
        defer { a.cleanUp(); b.cleanUp() }
        _ = try a.reload()
        _ = try b.reload()
        let id = { (library: AccountLibrary) in try #require(try library.articles()["later-a article 1"]?.id) }
        // Starred everywhere first.
        #expect(try a.run(["mark", "star", try id(a)]).exitStatus == 0)
        _ = try a.reload()
        _ = try b.reload()
        #expect(try b.articles()["later-a article 1"]?.starred == true)
        // A unstars, and waits; B then unstars and stars again on the server, later than A.
        #expect(try a.run(["mark", "unstar", try id(a)]).exitStatus == 0)
        try await Task.sleep(for: .milliseconds(50))
        #expect(try b.run(["mark", "unstar", try id(b)]).exitStatus == 0)
        _ = try b.reload()
        #expect(try b.run(["mark", "star", try id(b)]).exitStatus == 0)
        _ = try b.reload()
        // A's contact: the server's star is undated, so A's change (made since A's last
        // contact) is taken as the later, and goes up.
        #expect(try a.reload().contains("1 change sent"))
        _ = try b.reload()
        #expect(try a.articles()["later-a article 1"]?.starred == false)
        #expect(try b.articles()["later-a article 1"]?.starred == false)
    }

    @Test("an account the config cannot set up is named, and the local feeds reload all the same")
    func misconfiguredAccount() throws {
        let library = Library()
        defer { library.cleanUp() }
        let feed = try library.write(
            """
            <?xml version="1.0"?><rss version="2.0"><channel><title>Local</title>
            <item><guid>a</guid><title>Local heron</title></item></channel></rss>
            """, to: "feed.xml")
        let config = try library.write("set urls-source freshrss\nset freshrss-login alice\n", to: "config")
        #expect(try library.run(["--config", config.path, "add", feed.absoluteString]).exitStatus == 0)
        let reload = try library.run(["--config", config.path, "reload"])
        #expect(reload.exitStatus == 1)
        #expect(reload.errors.contains("set freshrss-url"), "\(reload.errors)")
        #expect(reload.output.contains("1 new articles"), "\(reload.output)")
    }
}
