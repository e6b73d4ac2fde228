import Foundation
import Testing

/// newsboat's `E` with a real editor in a tmux terminal: the subscriptions as a urls file,
/// a line the editor adds subscribed when it exits, and the screen given back whole.
@Suite("E edits the subscriptions, in a tmux terminal", .serialized)
struct EditURLsEndToEndTests {
    typealias Library = CommandLineTests.Library

    @Test("the editor gets the feeds a line each; a line it adds is a new feed on the list when it exits")
    func addsALine() async throws {
        let library = Library()
        defer { library.cleanUp() }
        let feed = try library.write(
            """
            <?xml version="1.0"?><rss version="2.0"><channel><title>Local</title>
            <item><title>One</title><link>https://local.example/1</link></item></channel></rss>
            """, to: "local.xml")
        let seen = library.directory.appendingPathComponent("seen.txt")
        // The editor: keeps a copy of what it was given, then adds a line.
        let editor = try library.write(
            "#!/bin/sh\ncp \"$1\" \(HeraldUnderTest.shellQuoted(seen.path))\n"
                + "printf '%s\\n' '\(feed.absoluteString) \"mine\" \"~Added by hand\"' >> \"$1\"\n",
            to: "editor.sh")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: editor.path)
        let session = try await library.openReader([], wrapper: ["env", "VISUAL=\(editor.path)"])
        defer { session.kill() }
        try await session.waitUntil("the demo feeds") { $0.contains { $0.contains("Field Journal") } }
        try session.sendKeys("E")
        let after = try await session.waitUntil("the new feed") { screen in
            screen.contains { $0.contains("Added by hand") }
        }
        #expect(after.contains { $0.contains("Subscriptions: 1 added (R fetches them).") }, "\(TmuxSession.framed(after))")
        let given = try String(contentsOf: seen, encoding: .utf8)
        #expect(given.contains("\"https://example.com/field-journal/feed.json\""), "\(given)")
        try session.sendKeys("q")
        #expect(try await session.waitForExitStatus() == 0)
        let feeds = try library.sqlite("SELECT url || ' ' || tags FROM feeds WHERE url LIKE 'file:%'")
        #expect(feeds.hasPrefix(feed.absoluteString) && feeds.contains("mine"), "\(feeds)")
    }
}
