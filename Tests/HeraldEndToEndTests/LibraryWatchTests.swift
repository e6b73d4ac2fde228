import Foundation
import HeraldTestSupport
import Testing

/// The open reader follows what another process writes to its library, without a key.
@Suite("The reader sees other processes' changes to its library", .serialized)
struct LibraryWatchTests {
    typealias Library = CommandLineTests.Library

    @Test("herald add and herald remove in another process show on the open feed list, and waiting costs no CPU")
    func addFromAnotherProcess() async throws {
        let library = Library()
        defer { library.cleanUp() }
        let session = try await library.openReader()
        defer { session.kill() }
        _ = try await session.waitUntil("the reader shows the demo feeds") { screen in
            screen.first?.contains("Herald · Feeds") == true && screen.contains { $0.contains("Field Journal") }
        }
        let feed = try library.write(
            """
            <?xml version="1.0"?><rss version="2.0"><channel><title>Watched from afar</title>
            <item><title>One</title><link>https://far.example/1</link></item></channel></rss>
            """, to: "far.xml")
        let pid = try #require(HeraldUnderTest.childPID(of: try session.panePID()))
        let before = try CommandLineFeedSettingsTests.cpuSeconds(of: pid)
        let start = ContinuousClock.now

        let added = try library.run(["add", feed.absoluteString])
        #expect(added.exitStatus == 0, "\(added.errors)")
        // Nothing is pressed: the reader notices the write itself.
        _ = try await session.waitUntil("the new feed shows on the feed list") { screen in
            screen.contains { $0.contains(feed.absoluteString) }
        }
        let reloaded = try library.run(["reload"])
        #expect(reloaded.exitStatus == 0, "\(reloaded.errors)")
        _ = try await session.waitUntil("the reloaded feed shows its title and article") { screen in
            screen.contains { $0.contains("Watched from afar") && $0.contains("(1/1)") }
        }
        let removed = try library.run(["remove", feed.absoluteString])
        #expect(removed.exitStatus == 0, "\(removed.errors)")
        // (The demo feeds went when the user's own feed came: the list is empty again.)
        _ = try await session.waitUntil("the removed feed is gone") { screen in
            screen.first?.contains("Herald · Feeds") == true
                && !screen.contains { $0.contains("Watched from afar") || $0.contains(feed.absoluteString) }
        }

        // Then it waits: the watch sleeps in the kernel.
        let idleStart = try CommandLineFeedSettingsTests.cpuSeconds(of: pid)
        let wall = 3.0
        try await Task.sleep(for: .seconds(wall))
        let idle = try CommandLineFeedSettingsTests.cpuSeconds(of: pid) - idleStart
        print(
            "library watch: three changes followed in \(ContinuousClock.now - start), "
                + "\(try CommandLineFeedSettingsTests.cpuSeconds(of: pid) - before) CPU-s; idle \(wall) s: \(idle) CPU-s")
        #expect(idle < 0.1 * wall, "\(idle) CPU-s in \(wall) s of waiting")
        try session.sendKeys("q")
        #expect(try await session.waitForExitStatus() == 0)
    }
}
