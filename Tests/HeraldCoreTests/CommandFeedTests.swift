import Testing

@testable import HeraldCore
@testable import HeraldNewsboat

/// newsboat's command feeds (`exec:`, `filter:`): read as newsboat reads them, and taken
/// only from the user's own hand.
@Suite("Command feeds: exec: and filter:")
struct CommandFeedTests {
    @Test("exec: and filter: are read as newsboat reads them: a filter ends at its first colon")
    func parses() {
        #expect(CommandFeed(address: "exec:cat ~/feed.xml") == .exec(command: "cat ~/feed.xml"))
        #expect(
            CommandFeed(address: "filter:sed s/a/b/:https://example.org/feed?x=1")
                == .filter(command: "sed s/a/b/", url: "https://example.org/feed?x=1"))
        #expect(CommandFeed(address: "filter:tr a b:http://e.org:8080/f")?.command == "tr a b")
        for nothing in [
            "exec:", "exec:   ", "filter:", "filter:sed", "filter::https://e.org/f", "filter:sed:",
        ] {
            #expect(CommandFeed(address: nothing) == nil, "\(nothing)")
            #expect(CommandFeed.isCommand(nothing))
        }
        #expect(CommandFeed(address: "https://example.org/exec:x") == nil)
    }

    @Test("a urls line's quoted command keeps its escaped quotes and backslashes, as newsboat stores it")
    func escapedQuotes() {
        let text = #""exec:cat \"/tmp/a b.xml\"" tag"# + "\n" + #""exec:printf '\\n%s' x""#
        let listed = NewsboatURLs.parseListed(text)
        #expect(listed.map(\.subscription.url) == [#"exec:cat "/tmp/a b.xml""#, #"exec:printf '\n%s' x"#])
        #expect(listed.first?.subscription.tags == ["tag"])
        // Outside quotes a backslash is a character like any other.
        #expect(
            NewsboatURLs.parseListed(#"https://e.org/a\b x"#).first?.subscription.url == #"https://e.org/a\b"#
        )
    }

    @Test("typed or in the user's own newsboat urls, a command feed is taken as written, spaces and all")
    func ownHand() throws {
        for origin in [FeedAddress.Origin.typed, .newsboatURLs] {
            #expect(
                try FeedAddress.check("exec:cat /tmp/a feed.xml", from: origin) == "exec:cat /tmp/a feed.xml")
            #expect(
                try FeedAddress.check("filter:sed -e 's/a/b/':https://e.org/f", from: origin)
                    == "filter:sed -e 's/a/b/':https://e.org/f")
        }
    }

    @Test(
        "from an imported file (OPML), a web page or another device, a command feed is refused, named",
        arguments: [
            (FeedAddress.Origin.listed, "an imported file"), (.discovered, "a web page"),
            (.synced, "another device through sync"),
        ])
    func refusedFromElsewhere(_ origin: FeedAddress.Origin, _ source: String) {
        #expect(
            throws: FeedAddress.Refusal(
                "an exec: feed runs a command on this machine: only your own command line or newsboat urls may add one, not \(source)"
            )
        ) { try FeedAddress.check("exec:touch /tmp/owned", from: origin) }
        #expect(throws: FeedAddress.Refusal.self) {
            try FeedAddress.check("filter:sh:https://e.org/f", from: origin)
        }
    }

    @Test(
        "a command feed without a command, with a control character, or filtering no web address is refused")
    func malformed() {
        for address in [
            "exec:", "filter:sed", "exec:cat \u{1b}[31m", "filter:sed:file:///etc/passwd",
            "filter:sed:ftp://e.org/f",
            "filter:sed:https://e.org/a b",
        ] {
            #expect(throws: FeedAddress.Refusal.self, "\(address)") {
                try FeedAddress.check(address, from: .typed)
            }
        }
        #expect(throws: FeedAddress.Refusal("the filter's address is not http or https")) {
            try FeedAddress.check("filter:sed:file:///etc/passwd", from: .newsboatURLs)
        }
        #expect(throws: FeedAddress.Refusal("the filter's address: holds a space")) {
            try FeedAddress.check("filter:sed:https://e.org/a b", from: .newsboatURLs)
        }
    }
}
