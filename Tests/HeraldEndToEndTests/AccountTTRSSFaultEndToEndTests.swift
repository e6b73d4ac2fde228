import Foundation
import HeraldTestSupport
import Testing

/// TT-RSS down and back, and a sync killed midway, as the FreshRSS suite does them: the
/// server is reached through a loopback proxy that can be stopped, or made slow.
extension AccountTTRSSEndToEndTests {
    @Test("changes made while TT-RSS is down wait, say so, and go up when it is back")
    func serverDownThenBack() async throws {
        let account = try await Account(feed: "ebb", count: 4)
        defer { account.feeds.stop() }
        let proxy = try LoopbackProxy(target: account.server.base.port ?? 80)
        defer { proxy.stop() }
        let (a, configA) = try account.library(url: proxy.url("/")), (b, configB) = try account.library()
        defer { a.cleanUp(); b.cleanUp() }
        _ = try Self.reload(a, configA)
        let rows = try Self.articles(a, configA)
        proxy.stop()
        let read = try #require(rows["ebb story 1"]?.id), star = try #require(rows["ebb story 2"]?.id)
        let run = { (arguments: [String]) in try a.run(["--config", configA.path] + arguments, timeout: 120) }
        #expect(try run(["mark", "read", read]).exitStatus == 0)
        #expect(try run(["mark", "star", star]).output.contains("2 changes wait"))
        let failed = try run(["reload"])
        #expect(failed.exitStatus == 1)
        #expect(failed.output.contains("connection refused") && failed.output.contains("2 changes wait"), "\(failed.output)")
        #expect(try run(["account"]).output.contains("waiting:  2 changes"))
        try proxy.start()
        #expect(try Self.reload(a, configA).contains("2 changes sent"))
        _ = try Self.reload(b, configB)
        let inB = try Self.articles(b, configB)
        #expect(inB["ebb story 1"]?.read == true && inB["ebb story 2"]?.starred == true)
        #expect(inB.values.filter(\.read).count == 1 && inB.values.filter(\.starred).count == 1)
    }

    @Test("kill -9 in the middle of a TT-RSS sync leaves the library sound and the queue whole")
    func killedMidSync() async throws {
        let account = try await Account(feed: "flood", count: 120)
        defer { account.feeds.stop() }
        let proxy = try LoopbackProxy(target: account.server.base.port ?? 80)
        defer { proxy.stop() }
        let (a, configA) = try account.library(url: proxy.url("/")), (fresh, configFresh) = try account.library()
        defer { a.cleanUp(); fresh.cleanUp() }
        _ = try Self.reload(a, configA)
        // A slow server from now on (every piece of an answer held 30 ms), and the cursor
        // forgotten before each sync: it reads every article again, for seconds.
        proxy.stop()
        try proxy.start(delay: 30)
        let sqlite = { (sql: String) in
            try TmuxSession.runTool("sqlite3", [a.path, sql]).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let rows = try Self.articles(a, configA)
        let marked = try (0..<5).map { try #require(rows["flood story \($0)"]?.id) }
        #expect(try a.run(["--config", configA.path, "mark", "star"] + marked).exitStatus == 0)
        var midway = 0
        for extra in [0, 300, 1000] {
            _ = try sqlite("DELETE FROM meta WHERE key = 'account.cursor'")
            try AccountKill.reload(config: configA.path, library: a.path, extra: extra)
            #expect(try sqlite("PRAGMA integrity_check") == "ok")
            // Sent whole, or not yet: never a part lost.
            let left = try sqlite("SELECT count(*) FROM account_outbox")
            #expect(left == "5" || left == "0", "\(left)")
            if try sqlite("SELECT count(*) FROM meta WHERE key = 'account.cursor'") == "0" { midway += 1 }
        }
        // At least one kill fell before the sync's end (its cursor not stored yet).
        #expect(midway > 0)
        _ = try Self.reload(a, configA)
        _ = try Self.reload(fresh, configFresh)
        let seen = try Self.articles(fresh, configFresh)
        #expect(seen.count == 120)
        #expect((0..<5).allSatisfy { seen["flood story \($0)"]?.starred == true })
    }
}

/// `herald reload` killed midway through its account's sync, on the sync's own trace
/// (`HERALD_TRACE_SYNC=1`), not on a clock a sanitizer or a busy machine stretches.
enum AccountKill {
    /// Starts `herald reload`, waits until its sync has stored the server's flags (it is
    /// reading articles then; its cursor is stored only when they are all in), waits `extra`
    /// milliseconds more, and kills it with SIGKILL.
    ///
    /// Synchronous, on the caller's thread: an async poll can wait seconds for a thread of
    /// the cooperative pool when the suite's other tests hold them (under TSan every kill of a
    /// run once fell after the sync's end so).
    static func reload(config: String, library: String, extra: Int) throws {
        let child = Process()
        child.executableURL = try HeraldUnderTest.binary()
        child.arguments = ["--config", config, "--db", library, "reload"]
        child.environment = ProcessInfo.processInfo.environment.merging(["HERALD_TRACE_SYNC": "1"]) { $1 }
        // A file, not a pipe: another test's child may inherit a pipe's end and hold it open.
        let trace = URL(fileURLWithPath: library + ".trace")
        _ = FileManager.default.createFile(atPath: trace.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: trace) }
        child.standardOutput = FileHandle.nullDevice
        let sink = try FileHandle(forWritingTo: trace)
        child.standardError = sink
        try child.run()
        try sink.close()
        let deadline = ContinuousClock.now + .seconds(120)
        while child.isRunning, ContinuousClock.now < deadline {
            let seen = (try? String(contentsOf: trace, encoding: .utf8)) ?? ""
            if seen.contains("sync: store states") { break }
            // Blocking on purpose (see above): this thread, not the cooperative pool, times
            // the kill. It holds one pool thread for the seconds a sync runs, as the suite's
            // synchronous `herald` runs do.
            usleep(5_000)
        }
        usleep(useconds_t(extra) * 1_000)  // the same: the kill's delay, on this thread
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
    }
}
