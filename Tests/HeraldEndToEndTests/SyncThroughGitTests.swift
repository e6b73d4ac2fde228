import Foundation
import HeraldTestSupport
import Testing

/// `herald sync` with a real git repository as the transport: two clones, commit and pull
/// between runs, as the README's recipe does.
@Suite("herald sync through git", .serialized)
struct SyncThroughGitTests {
    typealias Library = CommandLineTests.Library

    static func git(_ arguments: [String], in directory: URL) throws -> String {
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_AUTHOR_NAME"] = "t"
        environment["GIT_AUTHOR_EMAIL"] = "t@example.org"
        environment["GIT_COMMITTER_NAME"] = "t"
        environment["GIT_COMMITTER_EMAIL"] = "t@example.org"
        let result = try Spawn.run(
            ["git", "-C", directory.path] + arguments, environment: environment, timeout: 30)
        try #require(result.exitStatus == 0, "git \(arguments): \(result.errors)")
        return result.output
    }

    /// Pulls, syncs, commits and pushes, as the README's recipe does.
    static func sync(_ library: Library, clone: URL) throws -> String {
        _ = try git(["pull", "-q", "--rebase"], in: clone)
        let result = try library.run(["sync", "--dir", clone.path])
        #expect(result.exitStatus == 0, "\(result.errors)")
        _ = try git(["add", "-A"], in: clone)
        _ = try git(["commit", "-q", "--allow-empty", "-m", "sync"], in: clone)
        _ = try git(["push", "-q", "origin", "HEAD:main"], in: clone)
        return result.output
    }

    @Test("a subscription, its tag and a star made on one machine reach the other, and an unstar comes back")
    func twoClones() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-sync-git-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let (laptop, desktop) = (Library(), Library())
        defer {
            laptop.cleanUp()
            desktop.cleanUp()
        }
        let origin = root.appendingPathComponent("origin.git")
        try FileManager.default.createDirectory(at: origin, withIntermediateDirectories: true)
        _ = try Self.git(["init", "-q", "--bare", "-b", "main"], in: origin)
        let (cloneA, cloneB) = (root.appendingPathComponent("a"), root.appendingPathComponent("b"))
        _ = try Self.git(["clone", "-q", origin.path, cloneA.path], in: root)
        _ = try Self.git(["commit", "-q", "--allow-empty", "-m", "start"], in: cloneA)
        _ = try Self.git(["push", "-q", "origin", "HEAD:main"], in: cloneA)
        _ = try Self.git(["clone", "-q", origin.path, cloneB.path], in: root)

        let feed = CommandLineTests.Demo.hangul
        // Both start with the demo feeds (not synced); the laptop makes one its own.
        #expect(try desktop.run(["list", "--limit", "1"]).exitStatus == 0)
        #expect(try laptop.run(["list", "--limit", "1"]).exitStatus == 0)
        #expect(try laptop.run(["add", feed, "--tag", "korean"]).exitStatus == 0)
        let guid = try laptop.sqlite(
            "SELECT a.guid FROM articles a JOIN feeds f ON f.id = a.feed_id WHERE f.url = '\(feed)' ORDER BY a.id LIMIT 1"
        )
        #expect(try Self.sync(laptop, clone: cloneA).contains("first sync"))
        try laptop.sqlite(
            "UPDATE articles SET starred = 1 WHERE guid = '\(guid)' AND feed_id = (SELECT id FROM feeds WHERE url = '\(feed)')"
        )
        let second = try Self.sync(laptop, clone: cloneA)
        #expect(second.contains("wrote 1 operation;"), "\(second)")

        let applied = try Self.sync(desktop, clone: cloneB)
        #expect(
            applied.contains("1 retagged") && applied.contains("1 read/starred flags changed"), "\(applied)")
        #expect(try desktop.run(["tags"]).output.contains("korean"))
        let starred = try desktop.jsonLines(["list", "--starred"])
        #expect(starred.count == 1)
        #expect(try desktop.sqlite("SELECT demo FROM feeds WHERE url = '\(feed)'") == "0")

        try desktop.sqlite("UPDATE articles SET starred = 0 WHERE starred = 1")
        _ = try Self.sync(desktop, clone: cloneB)
        _ = try Self.sync(laptop, clone: cloneA)
        #expect(try laptop.jsonLines(["list", "--starred"]).isEmpty)
        // `set sync-dir` stands in for --dir.
        let config = try laptop.write("set sync-dir \"\(cloneA.path)\"\n", to: "config")
        let status = try laptop.run(["--config", config.path, "sync", "status"])
        #expect(status.output.contains("folder   \(cloneA.path)"), "\(status.output)")
        #expect(status.exitStatus == 0)
        #expect(
            status.output.contains("devices") && status.output.contains("operations read"), "\(status.output)"
        )
    }
}
