import Foundation
import HeraldTestSupport
import Testing

/// One address policy for add, import and discovery: http and https from files and pages,
/// `file:` only when typed; every refused line of an import named with its number.
@Suite("Which addresses add, import and discovery accept", .serialized)
struct CommandLineAddressPolicyTests {
    typealias Library = CommandLineTests.Library

    func followed(_ library: Library) throws -> [String] {
        let exported = try library.run(["export"]).output
        return exported.components(separatedBy: "xmlUrl=\"").dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
    }

    @Test("import follows the http and https lines of a garbage urls file and names every other line")
    func garbageURLsFile() throws {
        let library = Library()
        defer { library.cleanUp() }
        let urls = try library.write(
            """
            https://good.example/feed.xml tech
            javascript:alert(1)
            file:///etc/passwd
            this is not an address
            query:Unread:unread = "yes"
            https://bad.example/\u{1b}]0;pwned\u{7}
            # a comment

            http://also-good.example/rss
            """, to: "urls")
        let result = try library.run(["import", urls.path])
        #expect(result.exitStatus == 0, "\(result.errors)")
        #expect(result.output.contains("2 feeds in"), "\(result.output)")
        for line in 2...6 {
            #expect(result.errors.contains("line \(line): "), "line \(line) named:\n\(result.errors)")
        }
        #expect(result.errors.contains("file: address may only be typed"), "\(result.errors)")
        #expect(!result.errors.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        let feeds = try followed(library)
        #expect(
            feeds.contains("https://good.example/feed.xml") && feeds.contains("http://also-good.example/rss"))
        #expect(!feeds.contains { $0.hasPrefix("file:") || $0.hasPrefix("javascript:") || $0 == "this" })
    }

    @Test("a .opml file that is not XML is an error, not a feed called 'this'")
    func brokenOPML() throws {
        let library = Library()
        defer { library.cleanUp() }
        let opml = try library.write("this is not OPML at all\n", to: "subs.opml")
        let result = try library.run(["import", opml.path])
        #expect(result.exitStatus == 2, "\(result.output)")
        #expect(result.errors.contains("not an OPML file"), "\(result.errors)")
        #expect(!(try followed(library)).contains("this"))
    }

    @Test("an OPML outline with a file: or javascript: xmlUrl is refused with its line")
    func hostileOPML() throws {
        let library = Library()
        defer { library.cleanUp() }
        let opml = try library.write(
            """
            <?xml version="1.0"?>
            <opml version="2.0"><body>
            <outline text="ok" xmlUrl="https://ok.example/feed"/>
            <outline text="passwd" xmlUrl="file:///etc/passwd"/>
            </body></opml>
            """, to: "subs.opml")
        let result = try library.run(["import", opml.path])
        #expect(result.exitStatus == 0, "\(result.errors)")
        #expect(result.errors.contains("line 4: file:///etc/passwd"), "\(result.errors)")
        #expect(try followed(library).filter { $0.contains("example") } == ["https://ok.example/feed"])
    }

    @Test("add skips a page's file: and javascript: alternates and takes its http feed")
    func hostileDiscovery() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        let result = try library.run(["add", server.url("/hostile-page").absoluteString])
        #expect(result.exitStatus == 0, "\(result.errors)")
        #expect(result.errors.contains("file:///etc/passwd as a feed; skipped"), "\(result.errors)")
        let feeds = try followed(library)
        #expect(feeds.contains(server.url("/feed").absoluteString), "\(feeds)")
        #expect(!feeds.contains { $0.hasPrefix("file:") || $0.hasPrefix("javascript:") })
    }

    @Test("add takes a typed file: address, and refuses other schemes and control characters")
    func typed() throws {
        let library = Library()
        defer { library.cleanUp() }
        let feed = try library.write(
            "<rss version=\"2.0\"><channel><title>L</title></channel></rss>", to: "l.xml")
        #expect(try library.run(["add", feed.absoluteString]).exitStatus == 0)
        for address in ["javascript:alert(1)", "http://x.example/\u{1b}[31m", "gopher://x.example/"] {
            let result = try library.run(["add", address])
            #expect(result.exitStatus == 2, "\(address): \(result.output)")
        }
    }
}
