import Foundation
import HeraldTestSupport
import Testing

/// `herald feed set/unset/show`, `feed` lines in the config, `reload --due` and
/// `notify-command`, against a real library file and a real HTTP server.
@Suite("Per-feed settings on the command line", .serialized)
struct CommandLineFeedSettingsTests {
    typealias Library = CommandLineTests.Library
    typealias Demo = CommandLineTests.Demo

    @Test("feed set changes the title everywhere; show says where each value comes from; unset gives it back")
    func setShowUnset() throws {
        let library = Library()
        defer { library.cleanUp() }
        _ = try library.run(["list", "--limit", "1"])  // the first run fills the demo feeds
        let set = try library.run(["feed", "set", Demo.fieldJournal, "title", "My", "journal"])
        #expect(set.exitStatus == 0, "\(set.errors)")
        #expect(try library.run(["feed", "set", Demo.fieldJournal, "keep-days", "30"]).exitStatus == 0)
        let rows = try library.jsonLines(["list", "--feed", Demo.fieldJournal, "--limit", "2"])
        #expect(rows.map { $0["feed"] as? String } == ["My journal", "My journal"])
        let config = try library.write(
            "feed \(Demo.fieldJournal) title \"From the config\"\nfeed https://gone.example/feed disabled yes\n",
            to: "config")
        let show = try library.run(["--config", config.path, "feed", "show"])
        #expect(show.exitStatus == 0, "\(show.errors)")
        #expect(
            show.output.contains("title            From the config  (config file \(config.path):1)"),
            "\(show.output)")
        #expect(show.output.contains("title            My journal  (library, the config file's wins)"))
        #expect(show.output.contains("keep-days        30  (library)"))
        #expect(
            show.errors.contains("\(config.path):2:6: warning: no feed https://gone.example/feed"),
            "\(show.errors)")
        let json = try library.jsonLines(["--config", config.path, "feed", "show", Demo.fieldJournal])
        #expect(
            json.map { "\($0["key"]!) \($0["source"]!) \($0["in_force"]!)" } == [
                "title config 1", "title library 0", "keep-days library 1",
            ])
        let listed = try library.jsonLines([
            "--config", config.path, "list", "--feed", Demo.fieldJournal, "--limit", "1",
        ])
        #expect(listed.first?["feed"] as? String == "From the config")
        #expect(try library.run(["feed", "unset", Demo.fieldJournal, "title"]).exitStatus == 0)
        // Without the config (no --config), its line is gone from the library's copy too.
        let back = try library.jsonLines(["list", "--feed", Demo.fieldJournal, "--limit", "1"])
        #expect(back.first?["feed"] as? String == "Field Journal")
    }

    @Test(
        "a bad key, a bad value or an unknown feed is exit status 2 with a clear message",
        arguments: [
            (
                ["feed", "set", Demo.fieldJournal, "titel", "x"],
                "unknown feed setting 'titel' — did you mean 'title'?"
            ),
            (
                ["feed", "set", Demo.fieldJournal, "disabled", "maybe"],
                "'maybe' is not a disabled value (yes or no)"
            ),
            (
                ["feed", "set", "https://gone.example/feed", "title", "x"],
                "no feed https://gone.example/feed"
            ),
            (["feed", "unset", Demo.fieldJournal], "feed unset needs a URL and a setting"),
            (["feed", "frob"], "feed takes set, unset or show"),
        ])
    func mistakes(_ arguments: [String], _ message: String) throws {
        let library = Library()
        defer { library.cleanUp() }
        _ = try library.run(["list", "--limit", "1"])
        let result = try library.run(arguments)
        #expect(result.exitStatus == 2)
        #expect(result.errors.contains(message), "\(result.errors)")
    }

    @Test("reload skips disabled and not-due feeds, sends a feed's user agent, and runs notify-command")
    func reloadWithSettings() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        let (feed, agent) = (server.url("/feed").absoluteString, server.url("/agent").absoluteString)
        #expect(try library.run(["add", feed]).exitStatus == 0)
        #expect(try library.run(["add", agent]).exitStatus == 0)
        #expect(
            try library.run(["feed", "set", agent, "user-agent", "Herald-test/9 (settings)"]).exitStatus == 0)
        let out = library.directory.appendingPathComponent("notified").path
        let config = try library.write("set notify-command \"echo %n %f >> '\(out)'\"\n", to: "config")

        let first = try library.run(["--config", config.path, "reload", "--quiet"])
        #expect(first.exitStatus == 0, "\(first.errors)")
        #expect(
            try String(contentsOfFile: out, encoding: .utf8) == "2 2\n", "two new articles from two feeds")
        let titles = try library.jsonLines(["list", "--feed", agent]).map { $0["title"] as? String }
        #expect(titles == ["Herald-test/9 (settings)"], "the server saw the feed's own user agent")

        #expect(try library.run(["feed", "set", feed, "reload-interval", "60"]).exitStatus == 0)
        #expect(try library.run(["feed", "set", agent, "disabled", "yes"]).exitStatus == 0)
        let second = try library.run(["--config", config.path, "reload"])
        #expect(
            second.output.contains("2 feeds: 0 new articles, 0 unchanged, 0 failed, 1 disabled, 1 not due"),
            "\(second.output)")
        #expect(
            try String(contentsOfFile: out, encoding: .utf8) == "2 2\n", "no new articles: no notification")
        // --due: the global interval holds for feeds without their own (here none is due).
        let due = try library.write("set reload-interval 30\n", to: "due")
        try library.sqlite("DELETE FROM feed_settings WHERE key = 'reload-interval'")
        let cron = try library.run(["--config", due.path, "reload", "--due"])
        #expect(cron.output.contains("1 disabled, 1 not due"), "\(cron.output)")
        let plain = try library.run(["--config", due.path, "reload"])
        #expect(plain.output.contains("1 unchanged, 0 failed, 1 disabled"), "\(plain.output)")
    }

    @Test("config check warns of a feed line for a feed not in the library, and passes")
    func checkWarns() throws {
        let library = Library()
        defer { library.cleanUp() }
        _ = try library.run(["list", "--limit", "1"])
        let config = try library.write(
            "feed \(Demo.fieldJournal) reload-interval 30\nfeed https://gone.example/feed title x\n",
            to: "config")
        let result = try library.run(["--config", config.path, "config", "check"])
        #expect(result.exitStatus == 0, "\(result.output)")
        #expect(
            result.output.contains("\(config.path):2:6: warning: no feed https://gone.example/feed"),
            "\(result.output)")
    }

    @Test("the reader waiting for its next timed reload costs no CPU")
    func timerCostsNoCPU() async throws {
        let library = Library()
        defer { library.cleanUp() }
        _ = try library.run(["list", "--limit", "1"])
        let config = try library.write("set reload-interval 1\n", to: "config")
        let session = try TmuxSession()
        defer { session.kill() }
        let binary = try HeraldUnderTest.binary()
        try await session.waitUntil(contains: "e2e$")
        try session.runCommand(
            "HERALD_DB=\(HeraldUnderTest.shellQuoted(library.path)) \(HeraldUnderTest.shellQuoted(binary.path)) "
                + "--config \(HeraldUnderTest.shellQuoted(config.path)); echo \"EXIT=$?\"")
        _ = try await session.waitUntil("the reader shows the feeds") { screen in
            screen.contains { $0.contains("Field Journal") }
        }
        let pid = try #require(HeraldUnderTest.childPID(of: try session.panePID()))
        let before = try Self.cpuSeconds(of: pid)
        let wall = 3.0
        try await Task.sleep(for: .seconds(wall))
        let cpu = try Self.cpuSeconds(of: pid) - before
        print("reader with `set reload-interval 1`, idle \(wall) s: \(cpu) CPU-s")
        #expect(cpu < 0.1 * wall, "\(cpu) CPU-s in \(wall) s of waiting")
        try session.sendKeys("q")
        #expect(try await session.waitForExitStatus() == 0)
    }

    /// User and system time of a process, from /proc/PID/stat (fields 14 and 15, in ticks).
    static func cpuSeconds(of pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The command name (field 2) is in parentheses and may hold spaces: count after it.
        let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
        let ticks = Double(fields[11])! + Double(fields[12])!
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
