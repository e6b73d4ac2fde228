import Foundation
import HeraldTestSupport
import Testing

/// podboat's queue comes over with `herald import-newsboat`: each episode with its file and
/// state, titled after its article; a half download goes on from podboat's `.part`.
@Suite("herald import-newsboat: podboat's queue", .serialized)
struct ImportPodboatQueueTests {
    typealias Library = CommandLineTests.Library

    @Test("downloaded, played and half-downloaded episodes come over; a line Herald cannot take is named")
    func queue() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        let newsboat = library.directory.appendingPathComponent("newsboat")
        let pods = library.directory.appendingPathComponent("pods")
        try FileManager.default.createDirectory(at: newsboat, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: pods, withIntermediateDirectories: true)
        let feed = server.url("/podcast/500000").absoluteString
        try (feed + "\n").write(to: newsboat.appendingPathComponent("urls"), atomically: true, encoding: .utf8)
        // What podboat left: one downloaded, one played, one a third of the way, one refused.
        try Data("done".utf8).write(to: pods.appendingPathComponent("one.mp3"))
        try Data("heard".utf8).write(to: pods.appendingPathComponent("two \"live\".mp3"))
        try Data((0..<200_000).map { UInt8($0 % 251) }).write(to: pods.appendingPathComponent("episode.mp3.part"))
        let episode = server.url("/episode/500000/episode.mp3").absoluteString
        try """
            https://cdn.example/one.mp3 "\(pods.path)/one.mp3" downloaded
            https://cdn.example/two.mp3 "\(pods.path)/two \\"live\\".mp3" played
            \(episode) "\(pods.path)/episode.mp3"
            ftp://old.example/three.mp3 "\(pods.path)/three.mp3"
            https://cdn.example/four.mp3 "\(pods.path)/four.mp3" someday
            """.write(to: newsboat.appendingPathComponent("queue"), atomically: true, encoding: .utf8)

        // The feed is in the library already, with its article.
        #expect(try library.run(["add", feed]).exitStatus == 0)
        #expect(try library.run(["reload", "--quiet"]).exitStatus == 0)
        let dry = try library.run(["import-newsboat", newsboat.path, "--dry-run"])
        #expect(dry.exitStatus == 0, "\(dry.errors)")
        #expect(dry.output.contains("would import 3 episodes (1 downloaded, 1 played, 1 to download)"), "\(dry.output)")
        let imported = try library.run(["import-newsboat", newsboat.path])
        #expect(imported.exitStatus == 0, "\(imported.errors)")
        #expect(imported.output.contains("3 episodes (1 downloaded, 1 played, 1 to download); 3 new to the queue"))
        #expect(imported.output.contains("queue:4: ftp://old.example/three.mp3: only http and https"), "\(imported.output)")
        #expect(imported.output.contains("queue:5:") && imported.output.contains("unknown state `someday`"))

        let rows = try library.jsonLines(["podcasts"])
        try #require(rows.count == 3, "\(rows)")
        #expect(rows.map { $0["state"] as? String } == ["finished", "played", "queued"], "\(rows)")
        #expect(rows[1]["path"] as? String == pods.path + "/two \"live\".mp3")
        // The half-downloaded one is the feed's episode: it takes its article's title.
        #expect(rows[2]["received"] as? Int == 200_000)
        #expect(rows[2]["title"] as? String == "Episode of 500000 bytes" && rows[2]["feed"] as? String == "Pod & cast")
        #expect(rows[0]["title"] as? String == "one.mp3", "no article: its file's name")
        let downloaded = try library.run(["podcasts", "download"])
        #expect(downloaded.exitStatus == 0, "\(downloaded.errors)")
        let file = try Data(contentsOf: pods.appendingPathComponent("episode.mp3"))
        #expect(file == Data((0..<500_000).map { UInt8($0 % 251) }))
        // Imported twice: nothing is queued twice.
        let again = try library.run(["import-newsboat", newsboat.path])
        #expect(again.output.contains("0 new to the queue"), "\(again.output)")
        #expect(try library.jsonLines(["podcasts"]).count == 3)
    }
}
