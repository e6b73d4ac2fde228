import Foundation
import HeraldTestSupport
import Testing

/// Feed data printed by the command line never carries a control sequence to the terminal:
/// not a byte of one, and not the visible rest of one (`[31m`) either.
@Suite("Hostile feed data on the command line", .serialized)
struct CommandLineHostileOutputTests {
    typealias Library = CommandLineTests.Library

    static func leftovers(_ output: String) -> [String] {
        let forbidden = output.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A: false
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
        return forbidden.map { String(format: "U+%04X", $0.value) }
            + ["[31m", "[0m", "]0;pwned", "]0;title", "]8;;", "[2J"].filter(output.contains)
    }

    @Test("parse prints titles, links and text without escape sequences or bidi controls")
    func parseText() throws {
        let library = Library()
        defer { library.cleanUp() }
        let feed = try library.write(
            #"""
            {"version": "https://jsonfeed.org/version/1.1",
             "title": "T \u009b31mC1 \u001b[31mRed\u001b[0m \u202eevil",
             "home_page_url": "http://x.example/\u202e/a\u001b]0;pwn\u0007",
             "items": [{"id": "1\u001b[2J", "title": "I \u001b[2J\u001b]0;title\u0007ok",
               "url": "http://x.example/\u001b[5m", "authors": [{"name": "A\u202eB"}],
               "content_html": "<p>hi \u001b]8;;http://e\u001b\\link\u001b]8;;\u001b\\ there</p>"}]}
            """#, to: "evil.json")
        let result = try library.run(["parse", feed.path])
        #expect(result.exitStatus == 0, "\(result.errors)")
        #expect(Self.leftovers(result.output).isEmpty, "\(result.output)")
        #expect(result.output.hasPrefix("T C1 Red evil"), "\(result.output)")
        #expect(result.output.contains("- I ok"), "\(result.output)")
        // A URL keeps what it holds, percent-encoded: harmless, and the address it is.
        #expect(result.output.contains("http://x.example/%E2%80%AE/a%1B]0;pwn%07"), "\(result.output)")
        #expect(result.output.contains("text: hi link there"), "\(result.output)")
    }

    @Test("an XML feed's escape sequences go whole: raw ESC bytes, &#27; references, in CDATA and in HTML")
    func xmlEscapes() throws {
        let library = Library()
        defer { library.cleanUp() }
        let feed = try library.write(
            """
            <?xml version="1.0" encoding="utf-8"?>
            <rss version="2.0"><channel><title>C &#27;]0;pwned&#7;hannel</title>
            <item><title>A &#27;[31mRed&#x1b;[0m title</title><link>https://e.example/1</link>
              <description>Body &#27;[1mbold&#27;[0m, \u{1B}[2Jraw, &amp;#27;[31mhtml</description></item>
            <item><title>B \u{1B}[31mraw\u{1B}[0m title</title><link>https://e.example/2</link>
              <author>x@e.example (Ann \u{1B}]0;title\u{07}Lee)</author></item>
            <item><title><![CDATA[C \u{1B}[31mcdata\u{1B}[0m title]]></title><link>https://e.example/3</link></item>
            </channel></rss>
            """, to: "escapes.xml")
        let parsed = try library.run(["parse", feed.path])
        #expect(parsed.exitStatus == 0, "\(parsed.errors)")
        #expect(Self.leftovers(parsed.output).isEmpty, "\(parsed.output)")
        for line in [
            "C hannel", "- A Red title", "text: Body bold, raw, html", "- B raw title", "author: Ann Lee",
            "- C cdata title",
        ] {
            #expect(parsed.output.contains(line), "\(line) missing in:\n\(parsed.output)")
        }
        // What a reload stores: the library's titles and text hold no remnant either.
        #expect(try library.run(["add", feed.absoluteString]).exitStatus == 0)
        let reload = try library.run(["reload"])
        #expect(Self.leftovers(reload.output + reload.errors).isEmpty, "\(reload.output)\(reload.errors)")
        let listed = try library.run(["list", "--feed", feed.absoluteString, "--json"])
        #expect(Self.leftovers(listed.output).isEmpty, "\(listed.output)")
        #expect(listed.output.contains(#""title":"A Red title""#), "\(listed.output)")
        let found = try library.run(["search", "bold"])
        #expect(
            found.output.contains("A Red title") && Self.leftovers(found.output).isEmpty, "\(found.output)")
    }

    @Test("a reload's failures and add's warnings print the feed's address without its escapes")
    func reloadFailures() throws {
        let library = Library()
        defer { library.cleanUp() }
        let hostile = "http://127.0.0.1:9/\u{1b}]0;pwned\u{7}x\u{1b}[31m"
        let added = try library.run(["add", hostile])
        #expect(Self.leftovers(added.output + added.errors).isEmpty, "\(added.output)\(added.errors)")
        let reload = try library.run(["reload"])
        #expect(reload.output.contains("failed"), "\(reload.output)")
        #expect(Self.leftovers(reload.output + reload.errors).isEmpty, "\(reload.output)\(reload.errors)")
    }
}
