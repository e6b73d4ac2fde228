public import Foundation

/// A real Tiny Tiny RSS (Debian's tt-rss, PHP on PostgreSQL) for the tests of one process:
/// started once, on first use, by `shared/servers/start-ttrss.sh` on a free loopback port,
/// and stopped, with the users the tests made, when the process ends (a watchdog shell waits
/// for it). Each test makes a user of its own (`newUser()`), so tests run in parallel.
///
/// The scripts' folder is `$HERALD_SERVERS`, else `shared/servers` beside the repository. It
/// needs root (it installs packages and runs PostgreSQL): elsewhere `unavailable` says why
/// and the tests are skipped.
public actor RealTTRSS {
    /// The server's address (`http://127.0.0.1:PORT/`; the API is at `api/`).
    public nonisolated let base: URL
    let work: URL
    let databasePassword: String
    private var users = 0

    /// Why the tests cannot run here, or nil when they can.
    public static let unavailable: String? = {
        if getuid() != 0 {
            return "a real TT-RSS needs root (start-ttrss.sh installs packages and runs PostgreSQL)"
        }
        if !FileManager.default.isExecutableFile(atPath: script.path) { return "no \(script.path)" }
        return nil
    }()

    static let script: URL = {
        if let folder = ProcessInfo.processInfo.environment["HERALD_SERVERS"], !folder.isEmpty {
            return URL(fileURLWithPath: folder).appendingPathComponent("start-ttrss.sh")
        }
        // Tests/HeraldTestSupport/RealTTRSS.swift → the repository → its sibling `shared`.
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "shared/servers/start-ttrss.sh")
    }()

    // Its script may install tt-rss and PostgreSQL: one installer at a time (`PackageInstalls`).
    private static let starting = Task { () throws -> RealTTRSS in
        try await PackageInstalls.shared.oneAtATime { try await RealTTRSS.start() }
    }

    /// The process's server, started by the first caller.
    public static func shared() async throws -> RealTTRSS {
        if let unavailable { throw TestServerError(unavailable) }
        return try await starting.value
    }

    private init(base: URL, work: URL, databasePassword: String) {
        self.base = base
        self.work = work
        self.databasePassword = databasePassword
    }

    private static func start() async throws -> RealTTRSS {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("herald-ttrss-\(getpid())")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        var port = try ScriptServer.freePort()
        var output = try run("/bin/bash", [script.path, work.path, String(port)], environment: workers)
        // Debian's tt-rss takes php-mysql for its "php-mysql | php-pgsql" dependency: without
        // PDO's PostgreSQL driver every call answers "could not find driver". Install it and
        // start again (once per machine).
        if !(try run("/usr/bin/php", ["-m"]).output.contains("pdo_pgsql")) {
            try run(
                "/usr/bin/apt-get", ["install", "-y", "-qq", "--no-install-recommends", "php-pgsql"],
                environment: PackageInstalls.environment
            ).check("apt-get install php-pgsql")
            try stopServer(work)
            port = try ScriptServer.freePort()
            output = try run("/bin/bash", [script.path, work.path, String(port)], environment: workers)
        }
        try output.check("start-ttrss.sh")
        let database = (try? String(contentsOfFile: "/etc/tt-rss/database.php", encoding: .utf8)) ?? ""
        let password =
            database.split(separator: "\n").first { $0.hasPrefix("$dbpass='") }
            .map { String($0.dropFirst("$dbpass='".count).prefix { $0 != "'" }) } ?? "ttrsspw"
        let server = RealTTRSS(
            base: URL(string: "http://127.0.0.1:\(port)/")!, work: work,
            databasePassword: password.isEmpty ? "ttrsspw" : password)
        try server.watch()
        return server
    }

    /// Several PHP workers (tests in parallel are answered in parallel); apt-get waiting for
    /// dpkg's lock.
    static let workers = PackageInstalls.environment.merging(["PHP_CLI_SERVER_WORKERS": "4"]) { $1 }

    /// A user of its own for one test, the API switched on: its login, password and id.
    public func newUser() throws -> TTRSSUser {
        users += 1
        let login = "herald-t\(getpid())-\(users)"
        let password = "pw-\(UUID().uuidString)"
        let salt = UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let id = try sql(
            """
            insert into ttrss_users (login, pwd_hash, salt, access_level, created)
              values ('\(login)', 'MODE2:' || encode(sha256(convert_to('\(salt)\(password)', 'UTF8')), 'hex'), '\(salt)', 0, now())
              returning id;
            """
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let uid = Int(id) else { throw TestServerError("no user made: \(id)") }
        try sql(
            "insert into ttrss_user_prefs (owner_uid, pref_name, profile, value) values (\(uid), 'ENABLE_API_ACCESS', NULL, 'true');"
        )
        return TTRSSUser(login: login, password: password, id: uid)
    }

    /// Makes a category for `user`: API level 15 cannot.
    @discardableResult
    public func addCategory(_ title: String, for user: TTRSSUser) throws -> Int {
        let quoted = title.replacingOccurrences(of: "'", with: "''")
        let id = try sql(
            "insert into ttrss_feed_categories (owner_uid, title) values (\(user.id), '\(quoted)') returning id;"
        )
        guard let number = Int(id.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestServerError("no category made: \(id)")
        }
        return number
    }

    /// Forgets every session of `user`, as an expired one is forgotten.
    public func forgetSessions(of user: TTRSSUser) throws {
        try sql(
            "delete from ttrss_sessions where convert_from(decode(data, 'base64'), 'UTF8') like 'uid|i:\(user.id);%';"
        )
    }

    /// Makes TT-RSS fetch the feed `feedID` of `user` now (the API's `updateFeed`), after
    /// deleting its copy of the feed's document (TT-RSS reuses one younger than 30 s).
    public func update(feedID: Int, url: String, for user: TTRSSUser) throws {
        let hash = try Self.run(
            "/usr/bin/env",
            [
                "python3", "-c", "import hashlib,sys; print(hashlib.sha1(sys.argv[1].encode()).hexdigest())",
                url,
            ])
        try? FileManager.default.removeItem(
            atPath:
                "/var/cache/tt-rss/feeds/\(hash.output.trimmingCharacters(in: .whitespacesAndNewlines)).xml")
        let login = try api(["op": "login", "user": user.login, "password": user.password])
        guard let sid = ((login["content"] as? [String: Any])?["session_id"]) as? String else {
            throw TestServerError("no session for \(user.login)")
        }
        let answer = try api(["op": "updateFeed", "sid": sid, "feed_id": feedID])
        guard answer["status"] as? Int == 0 else { throw TestServerError("updateFeed \(feedID): \(answer)") }
    }

    /// Subscribes `user` to the feed at `url` and has TT-RSS fetch it now; the feed's id.
    @discardableResult
    public func subscribe(_ user: TTRSSUser, to url: String) throws -> Int {
        let login = try api(["op": "login", "user": user.login, "password": user.password])
        guard let sid = ((login["content"] as? [String: Any])?["session_id"]) as? String else {
            throw TestServerError("no session for \(user.login)")
        }
        _ = try api(["op": "subscribeToFeed", "sid": sid, "feed_url": url])
        let listed = try api(["op": "getFeeds", "sid": sid, "cat_id": -3])
        guard let feed = (listed["content"] as? [[String: Any]])?.first(where: { $0["feed_url"] as? String == url }),
            let id = (feed["id"] as? Int) ?? Int("\(feed["id"] ?? "")")
        else { throw TestServerError("\(url) is not among \(user.login)'s feeds: \(listed)") }
        try update(feedID: id, url: url, for: user)
        return id
    }

    /// One call of the API through curl (the test's own, beside the client under test).
    public func api(_ body: [String: Any]) throws -> [String: Any] {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        let answer = try Self.run(
            "/usr/bin/curl",
            ["-s", "--max-time", "60", "-d", json, base.appendingPathComponent("api/").absoluteString])
        guard let object = try? JSONSerialization.jsonObject(with: Data(answer.output.utf8)) as? [String: Any]
        else {
            throw TestServerError("TT-RSS answered: \(answer.output.prefix(300))")
        }
        return object
    }

    /// Runs SQL on TT-RSS's database; psql's unaligned output.
    @discardableResult
    public func sql(_ statement: String) throws -> String {
        let result = try Self.run(
            "/usr/bin/psql",
            ["-qtAX", "-v", "ON_ERROR_STOP=1", "-h", "localhost", "-U", "ttrss", "ttrss", "-c", statement],
            environment: ["PGPASSWORD": databasePassword])
        try result.check("psql")
        return result.output
    }

    /// When this process ends: stops the web server (runuser, the PHP server under it and its
    /// workers), deletes the users it made and its folder.
    private nonisolated func watch() throws {
        let script = """
            while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done
            \(Self.stopCommand(work))
            PGPASSWORD='\(databasePassword)' psql -qh localhost -U ttrss ttrss \\
              -c "delete from ttrss_users where login like 'herald-t\(getpid())-%'" >/dev/null 2>&1
            rm -rf '\(work.path)'
            """
        try ChildProcess.start(["/usr/bin/setsid", "/bin/sh", "-c", script])
    }

    /// Shell words that kill the server start-ttrss.sh started in `work`: php.pid names
    /// runuser, whose child is the PHP server, whose children are its workers.
    static func stopCommand(_ work: URL) -> String {
        """
        runuser=$(cat '\(work.path)/php.pid' 2>/dev/null)
        if [ -n "$runuser" ]; then
          for php in $(ps -o pid= --ppid "$runuser"); do kill -9 $(ps -o pid= --ppid "$php") "$php" 2>/dev/null; done
          kill -9 "$runuser" 2>/dev/null
        fi
        """
    }

    private static func stopServer(_ work: URL) throws {
        try run("/bin/sh", ["-c", stopCommand(work)])
    }

    @discardableResult
    static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> ChildProcess.Output
    {
        try ChildProcess.run([program] + arguments, environment: environment)
    }
}

/// A TT-RSS user made for one test.
public struct TTRSSUser: Sendable, Hashable {
    public let login: String
    public let password: String
    public let id: Int
}
