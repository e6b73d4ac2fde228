public import Foundation

/// A real FreshRSS (PHP's built-in server on SQLite, started by
/// `shared/servers/start-freshrss.sh`) on a free loopback port: one per test process,
/// started by the first test that asks, shared by every suite. Each test takes an account
/// of its own (`account(feeds:)`), so tests run in parallel without seeing each other's
/// items; its feeds are files served on loopback that it can rewrite and have FreshRSS
/// fetch again (`refresh`).
///
/// The scripts folder is `$HERALD_SERVERS`, else `shared/servers` beside the repository.
/// The server, its feed server and its folder go when the test process exits (and, should
/// it die without exiting, a watchdog ends them within a second).
public actor RealFreshRSS {
    public static let shared = RealFreshRSS()

    /// A FreshRSS user of one test.
    public struct Account: Sendable {
        public let user: String
        /// The API password: ClientLogin's `Passwd`, and Fever's key with `user`.
        public let password: String
        /// Where `/accounts/ClientLogin` and `/reader/api/0/…` are (`…/api/greader.php`).
        public let apiBase: URL
        /// The Fever API (`…/api/fever.php`).
        public let feverEndpoint: URL
        /// The folder this account's feed files are served from, and its address.
        public let feedFolder: URL
        public let feedBase: String

        /// The address FreshRSS fetches `feed` at.
        public func feedURL(_ feed: TestFeed) -> String { "\(feedBase)/\(feed.name).xml" }
    }

    private struct Server: Sendable {
        let folder: URL
        let port: Int
        let feeds: AccountTestServer
        var php: String { folder.appendingPathComponent("freshrss").path }
    }

    private var server: Task<Server, any Error>?
    private var users = 0

    /// A new user of its own, subscribed to `feeds` (in their categories) and having fetched
    /// them once.
    public func account(feeds: [TestFeed]) async throws -> Account {
        let server = try await running()
        users += 1
        let user = "u\(users)x\(UUID().uuidString.prefix(6).lowercased())"
        let password = "api-\(UUID().uuidString.prefix(12))"
        let log = server.folder.appendingPathComponent("users.log")
        try await Self.php(
            server,
            [
                "cli/create-user.php", "--user", user, "--password", "web-\(UUID().uuidString)",
                "--api-password", password,
            ], log: log)
        // Fetch on every refresh: no minimum time between two fetches of a feed.
        let config = URL(fileURLWithPath: "\(server.php)/data/users/\(user)/config.php")
        let settings = try String(contentsOf: config, encoding: .utf8)
        try settings.replacingOccurrences(
            of: #"'ttl_default' => \d+"#, with: "'ttl_default' => -1", options: .regularExpression
        ).write(to: config, atomically: true, encoding: .utf8)

        let base = "http://127.0.0.1:\(server.port)"
        let account = Account(
            user: user, password: password, apiBase: URL(string: "\(base)/api/greader.php")!,
            feverEndpoint: URL(string: "\(base)/api/fever.php")!,
            feedFolder: server.feeds.folder.appendingPathComponent(user), feedBase: server.feeds.feedURL(user)
        )
        try publish(feeds, for: account)
        if !feeds.isEmpty {
            let opml = server.folder.appendingPathComponent("\(user).opml")
            try TestFeed.opml(feeds, address: account.feedURL(_:)).write(
                to: opml, atomically: true, encoding: .utf8)
            try await Self.php(
                server, ["cli/import-for-user.php", "--user", user, "--filename", opml.path], log: log)
            try await refresh(account)
        }
        return account
    }

    /// Writes the feeds' files as they are now (served at once; FreshRSS sees them on `refresh`).
    public nonisolated func publish(_ feeds: [TestFeed], for account: Account) throws {
        try FileManager.default.createDirectory(at: account.feedFolder, withIntermediateDirectories: true)
        for feed in feeds {
            try feed.rss.write(
                to: account.feedFolder.appendingPathComponent("\(feed.name).xml"), atomically: true,
                encoding: .utf8)
        }
    }

    /// Has FreshRSS fetch the account's feeds now (`cli/actualize-user.php`).
    public func refresh(_ account: Account) async throws {
        let server = try await running()
        // FreshRSS keeps a fetched feed for 800 s (SimplePie's cache): drop it.
        let cache = URL(fileURLWithPath: "\(server.php)/data/cache")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []
        where name.hasSuffix(".spc") {
            try? FileManager.default.removeItem(at: cache.appendingPathComponent(name))
        }
        let log = server.folder.appendingPathComponent("actualize.log")
        try await Self.php(
            server, ["cli/actualize-user.php", "--user", account.user], log: log, check: false)
    }

    // MARK: Starting

    private func running() async throws -> Server {
        if let server { return try await server.value }
        // Its script may install PHP: one installer at a time (see `PackageInstalls`).
        let task = Task { try await PackageInstalls.shared.oneAtATime { try await Self.start() } }
        server = task
        return try await task.value
    }

    private static func start() async throws -> Server {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("herald-freshrss-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        ExitCleanup.removeAtExit(folder: folder)
        let feeds = try AccountTestServer(folder: folder.appendingPathComponent("feeds"))
        let script = scripts.appendingPathComponent("start-freshrss.sh").path
        let log = folder.appendingPathComponent("start.log")
        var attempt = 0
        while true {
            attempt += 1
            let port = try ScriptServer.freePort()
            // Foundation's Process learns of a child's end when every holder of a socket it
            // gave the child has closed it: the server the script leaves running would hold it
            // for ever, so the script runs without it (Process then waits for the script itself).
            let withoutInheritedFiles =
                #"for fd in /proc/$$/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done; exec "$@""#
            let status = try await ScriptRun.run(
                [
                    "bash", "-c", withoutInheritedFiles, "bash", "bash", script, folder.path, String(port),
                    "herald",
                    "web-\(UUID().uuidString)", "api-unused",
                ],
                environment: PackageInstalls.environment.merging(["PHP_CLI_SERVER_WORKERS": "3"]) { $1 }, log: log)
            if let pid = Int32(
                (try? String(contentsOfFile: folder.appendingPathComponent("php.pid").path, encoding: .utf8))?
                    .trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
            {
                endAtExit(php: pid, feeds: feeds, folder: folder)
            }
            if status == 0 { return Server(folder: folder, port: port, feeds: feeds) }
            // Another process may have taken the port between its choice and its use.
            if attempt == 2 {
                throw TestServerError("FreshRSS did not start (\(script)):\n\(ScriptRun.tail(log))")
            }
        }
    }

    /// `$HERALD_SERVERS`, else `shared/servers` beside the repository (as CI lays them out).
    static var scripts: URL {
        if let folder = ProcessInfo.processInfo.environment["HERALD_SERVERS"], !folder.isEmpty {
            return URL(fileURLWithPath: folder)
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/servers")
    }

    /// Ends PHP's server (its whole process group: the built-in server's workers) and the
    /// feed server at exit, and, should the test process die without exiting, from a watchdog.
    private static func endAtExit(php pid: Int32, feeds: AccountTestServer, folder: URL) {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // Field 5 of /proc/PID/stat is the process group; the command (field 2) has no spaces here.
        let fields = stat.split(separator: " ")
        let group = fields.count > 4 ? Int32(fields[4]) ?? pid : pid
        if group != getpgrp() {
            ExitCleanup.killAtExit(group: group)
        } else {
            ExitCleanup.killAtExit(pid: pid)
        }
        let target = group != getpgrp() ? "-\(group)" : "\(pid)"
        let watchdog = Process()
        watchdog.executableURL = URL(fileURLWithPath: "/bin/sh")
        watchdog.arguments = [
            "-c",
            "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; "
                + "kill -9 -- \(target) \(feeds.pid) 2>/dev/null; rm -rf '\(folder.path)'",
        ]
        watchdog.standardInput = FileHandle.nullDevice
        watchdog.standardOutput = FileHandle.nullDevice
        watchdog.standardError = FileHandle.nullDevice
        try? watchdog.run()
    }

    /// Runs one of FreshRSS's command-line scripts; throws with its log when it fails.
    private static func php(_ server: Server, _ arguments: [String], log: URL, check: Bool = true)
        async throws
    {
        let status = try await ScriptRun.run(
            ["php", "\(server.php)/\(arguments[0])"] + arguments.dropFirst(), log: log)
        if check && status != 0 {
            throw TestServerError("FreshRSS's \(arguments[0]) failed (\(status)):\n\(ScriptRun.tail(log))")
        }
    }
}
