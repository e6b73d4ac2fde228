import Foundation
import Testing

/// `herald import` and `herald add` merging into known feeds, and the demo feeds leaving.
@Suite("herald import, add and remove on the command line", .serialized)
struct CommandLineSubscriptionTests {
    typealias Library = CommandLineTests.Library
    typealias Demo = CommandLineTests.Demo

    /// A one-item RSS feed in the library's directory, as a `file:` URL.
    func localFeed(_ library: Library, name: String = "feed.xml") throws -> String {
        try library.write(
            """
            <?xml version="1.0"?><rss version="2.0"><channel><title>Local</title>
            <item><guid>a</guid><title>Local heron</title></item></channel></rss>
            """, to: name
        ).absoluteString
    }

    @Test(
        "importing again keeps the titles, adds the new tags and reports what changed; add --title sets a title"
    )
    func importMerges() throws {
        let library = Library()
        defer { library.cleanUp() }
        let first = try library.write(
            """
            <opml version="2.0"><body>
              <outline text="Tech"><outline text="Alpha" xmlUrl="https://alpha.example/feed"/></outline>
              <outline text="Beta" xmlUrl="https://beta.example/feed"/>
            </body></opml>
            """, to: "first.opml")
        let once = try library.run(["import", first.path])
        #expect(once.exitStatus == 0, "\(once.errors)")
        #expect(once.output == "2 feeds in \(first.path): 2 new, 0 with new tags, 0 unchanged\n")
        let second = try library.write(
            """
            <opml version="2.0"><body>
              <outline text="Tech">
                <outline text="Alpha renamed" xmlUrl="https://alpha.example/feed" category="News"/>
                <outline text="Gamma" xmlUrl="https://gamma.example/feed"/>
              </outline>
              <outline text="Beta" xmlUrl="https://beta.example/feed"/>
              <outline text="Reading"><outline text="Alpha again" xmlUrl="https://alpha.example/feed"/></outline>
            </body></opml>
            """, to: "second.opml")
        let twice = try library.run(["import", second.path])
        #expect(twice.exitStatus == 0, "\(twice.errors)")
        #expect(
            twice.output == "3 feeds in \(second.path): 1 new, 1 with new tags, 1 unchanged\n",
            "\(twice.output)")
        let exported = try library.run(["export"]).output
        #expect(
            exported.contains(#"<outline text="Tech">"#)
                && exported.contains(
                    #"text="Alpha" title="Alpha" xmlUrl="https://alpha.example/feed" category="News,Reading"/>"#),
            "\(exported)")
        #expect(exported.contains(#"title="Gamma" xmlUrl="https://gamma.example/feed"/>"#))
        let again = try library.run(["import", second.path])
        #expect(again.output == "3 feeds in \(second.path): 0 new, 0 with new tags, 3 unchanged\n")

        // add on a known feed: not fetched again; the typed title wins, tags are added.
        let titled = try library.run([
            "add", "https://alpha.example/feed", "--title", "Typed", "--tag", "Tech", "--tag", "Later",
        ])
        #expect(titled.exitStatus == 0, "\(titled.errors)")
        #expect(
            titled.output == "updated https://alpha.example/feed: tagged Later; titled Typed\n",
            "\(titled.output)")
        #expect(titled.errors.isEmpty, "a known feed is not fetched")
        let same = try library.run(["add", "https://alpha.example/feed", "--tag", "News"])
        #expect(same.output == "https://alpha.example/feed is already in the library; nothing changed\n")
        #expect(
            try library.run(["export"]).output.contains(
                #"title="Typed" xmlUrl="https://alpha.example/feed" category="News,Reading,Later""#))
        // A feed imported without a title gets one from a later file.
        let urls = try library.write("https://delta.example/feed\n", to: "urls")
        #expect(try library.run(["import", urls.path]).output.contains("1 new"))
        let named = try library.write("https://delta.example/feed ~Delta\n", to: "urls2")
        #expect(
            try library.run(["import", named.path]).output
                == "1 feed in \(named.path): 0 new, 0 with new tags, 0 unchanged, 1 given a title\n")
    }

    @Test("the first feed of the user's own removes the demo feeds; a demo feed the user named stays")
    func demoLeavesOnFirstOwnFeed() throws {
        let library = Library()
        defer { library.cleanUp() }
        #expect(try library.jsonLines(["list"]).count == Demo.articles)
        let adopted = try library.run(["add", Demo.hangul, "--tag", "한글"])
        #expect(
            adopted.output.contains("\(Demo.hangul) was a demo feed; it is yours now and stays"),
            "\(adopted.output)")
        #expect(!adopted.output.contains("removed"))
        #expect(
            try library.jsonLines(["list"]).count == Demo.articles,
            "a known feed is not a new one: the demo stays")

        let own = try localFeed(library)
        let added = try library.run(["add", own])
        #expect(added.exitStatus == 0, "\(added.errors)")
        #expect(added.output.contains("added \(own)"))
        #expect(
            added.output.contains("removed the 3 demo feeds (your own feeds replace them)"), "\(added.output)"
        )
        let rows = try library.jsonLines(["list"])
        #expect(rows.count == Demo.hangulArticles)
        #expect(rows.allSatisfy { $0["feed_url"] as? String == Demo.hangul })
        #expect(
            try library.jsonLines(["search", "geese"]).isEmpty, "the search index forgot the demo articles")
        #expect(try library.sqlite("SELECT count(*) FROM feeds WHERE demo = 1") == "0")

        #expect(try library.run(["remove", "--demo"]).output == "there are no demo feeds to remove\n")
        #expect(try library.run(["reload", "--quiet"]).exitStatus == 0)
        #expect(try library.jsonLines(["list"]).count == Demo.hangulArticles + 1, "no demo came back")
    }

    @Test("importing the user's feeds into a demo library removes the demo feeds")
    func demoLeavesOnImport() throws {
        let library = Library()
        defer { library.cleanUp() }
        _ = try library.jsonLines(["list"])
        let urls = try library.write("https://mine.example/feed tech\n", to: "urls")
        let imported = try library.run(["import", urls.path])
        #expect(
            imported.output == """
                1 feed in \(urls.path): 1 new, 0 with new tags, 0 unchanged
                removed the 4 demo feeds (your own feeds replace them)

                """, "\(imported.output)")
        #expect(try library.jsonLines(["list"]).isEmpty)
    }

    @Test("remove --demo removes the demo feeds on request, and they do not come back")
    func removeDemo() throws {
        let library = Library()
        defer { library.cleanUp() }
        _ = try library.jsonLines(["list"])
        let removed = try library.run(["remove", "--demo"])
        #expect(removed.exitStatus == 0, "\(removed.errors)")
        #expect(removed.output == "removed the 4 demo feeds and their articles\n")
        #expect(try library.jsonLines(["list"]).isEmpty, "the library stays initialized: no demo again")
        #expect(try library.jsonLines(["search", "떡볶이"]).isEmpty)
        #expect(try library.run(["remove", "--demo"]).output == "there are no demo feeds to remove\n")
        #expect(try library.run(["remove", "--demo", "extra"]).exitStatus == 2)

        let fresh = Library()
        defer { fresh.cleanUp() }
        #expect(try fresh.run(["remove", "--demo"]).output == "there are no demo feeds to remove\n")
        #expect(try fresh.jsonLines(["list"]).isEmpty, "asked before the demo arrived: it never does")
    }
}
