import Foundation
import HeraldTestSupport
import Testing

/// Whole articles with the real binary: `full-article` reloads, `herald show`, `herald search`
/// and `herald extract` on three real news pages (the fixture server's `/pages/`, from Zyte's
/// article-extraction benchmark), checked against sentences of the benchmark's ground truth.
@Suite("Whole articles from web pages, on the command line", .serialized)
struct WholeArticleEndToEndTests {
    typealias Library = CommandLineTests.Library

    /// A page of `Server/files/pages/`, the title of the item linking to it in
    /// `/summaries/pages`, sentences of its article (the benchmark's ground truth; ones
    /// without a link, which the reader marks `[1]`), and strings the page shows outside its
    /// article (navigation, footer, comments).
    struct Page {
        var file: String
        var title: String
        var sentences: [String]
        var boilerplate: [String]
    }

    static let pages = [
        Page(
            file: "titan-map.html", title: "Titan mapped",
            sentences: [
                "It is larger than the planet Mercury.",
                "On Earth, water rains down from clouds and fills rivers, lakes and oceans.",
            ],
            boilerplate: ["ScienceAlert Pty Ltd", "Privacy Policy"]),
        Page(
            file: "macbook-keyboard.html", title: "A new MacBook keyboard",
            sentences: [
                "A preview of the report was shared with paying subscribers.",
                "Wistron and Global Lighting Technologies are said to be among the suppliers of the keyboards "
                    + "for the smaller notebook.",
            ],
            boilerplate: ["Got a tip for us?", "Top Rated Comments"]),
        Page(
            file: "wework-inquiry.html", title: "WeWork inquiry",
            sentences: [
                "A spokesperson for the NYAG declined to comment.",
                "A spokeswoman for Neumann declined to comment.",
            ],
            boilerplate: ["Follow VentureBeat on Twitter", "Support independent journalism"]),
    ]
    /// What every item of `/summaries/` says in the feed.
    static let teaser = "A short teaser: the rest is on the web page."

    static let pagesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("HeraldTestSupport/Server/files/pages")

    /// Subscribes to the fixture server's `/summaries/SET`, sets its `full-article` (unless
    /// nil) and reloads once; returns the feed's address and the reload's output.
    static func subscribe(
        _ library: Library, _ server: FixtureServer, to set: String, fullArticle: String?, config: URL? = nil
    ) throws -> (feed: String, reload: Spawn.Result) {
        let feed = server.url("/summaries/\(set)").absoluteString
        let added = try library.run(["add", feed])
        #expect(added.exitStatus == 0, "\(added.errors)")
        if let fullArticle {
            let set = try library.run(["feed", "set", feed, "full-article", fullArticle])
            #expect(set.exitStatus == 0, "\(set.errors)")
        }
        let reload = try library.run((config.map { ["--config", $0.path] } ?? []) + ["reload"], timeout: 90)
        #expect(reload.exitStatus == 0, "\(reload.output)\(reload.errors)")
        return (feed, reload)
    }

    /// The id of the article titled `title`.
    static func id(_ library: Library, _ title: String) throws -> String {
        let rows = try library.jsonLines(["list"])
        return try #require(
            rows.first { $0["title"] as? String == title }?["id"] as? String, "no \(title): \(rows)")
    }

    /// `herald show ID --json` of the article titled `title`.
    static func show(_ library: Library, _ title: String) throws -> [String: Any] {
        let shown = try library.run(["show", try id(library, title), "--json"])
        #expect(shown.exitStatus == 0, "\(shown.errors)")
        return try #require(try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])
    }

    @Test(
        "full-article yes: one reload reads each page's article, without the page's boilerplate; a 404 is a note"
    )
    func fullArticleYes() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        let (_, reload) = try Self.subscribe(library, server, to: "pages", fullArticle: "yes")
        #expect(
            reload.output.contains("read 3 whole articles from their web pages; 1 gave none"),
            "\(reload.output)")
        for page in Self.pages {
            let shown = try Self.show(library, page.title)
            let text = try #require(shown["text"] as? String)
            #expect(shown["source"] as? String == "page", "\(page.file): \(shown)")
            #expect(shown["page"] as? String == server.url("/pages/\(page.file)").absoluteString)
            #expect(shown["note"] == nil, "\(shown)")
            for sentence in page.sentences {
                #expect(text.contains(sentence), "\(page.file) lacks “\(sentence)”:\n\(text)")
            }
            for boilerplate in page.boilerplate {
                #expect(!text.contains(boilerplate), "\(page.file) kept “\(boilerplate)”:\n\(text)")
            }
            #expect(!text.contains(Self.teaser), "the page's article stands in place of the feed's text")
        }
        let missing = try Self.show(library, "A page gone missing")
        #expect(missing["source"] as? String == "feed", "\(missing)")
        #expect((missing["note"] as? String)?.contains("HTTP 404") == true, "\(missing)")
        #expect(missing["text"] as? String == Self.teaser)

        // The reader's header, as `herald show` prints it.
        let text = try library.run(["show", try Self.id(library, "Titan mapped")])
        #expect(
            text.output.contains("\nText:   the whole article, from its web page (x: the feed's text)\n"),
            "\(text.output)")
        let gone = try library.run(["show", try Self.id(library, "A page gone missing")])
        #expect(
            gone.output.contains(
                "\nText:   the feed's; its page gave none: the page could not be fetched: HTTP 404\n"),
            "\(gone.output)")

        // Search finds words only the pages' articles hold.
        for (word, title) in [("Ganymede", "Titan mapped"), ("Wistron", "A new MacBook keyboard")] {
            let found = try library.jsonLines(["search", word])
            #expect(found.map { $0["title"] as? String } == [title], "\(word): \(found)")
        }
    }

    @Test("full-article auto reads the page of the short teaser only, not of the long summary")
    func fullArticleAuto() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        let feed = server.url("/summaries/auto").absoluteString
        // As a line of the config file this time.
        let config = try library.write("feed \(feed) full-article auto\n", to: "config")
        let (_, reload) = try Self.subscribe(library, server, to: "auto", fullArticle: nil, config: config)
        #expect(reload.output.contains("read 1 whole article from their web pages\n"), "\(reload.output)")
        let short = try Self.show(library, "Short teaser")
        #expect(short["source"] as? String == "page", "\(short)")
        #expect((short["text"] as? String)?.contains(Self.pages[0].sentences[0]) == true)
        let long = try Self.show(library, "Long summary")
        #expect(long["source"] as? String == "feed" && long["note"] == nil && long["page"] == nil, "\(long)")
        #expect((long["text"] as? String)?.hasPrefix("A summary long enough to be the article.") == true)
    }

    @Test(
        "full-article no reads no page, even under set full-article yes, which a feed without a setting follows"
    )
    func fullArticleNo() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        let config = try library.write("set full-article yes\n", to: "config")
        let other = server.url("/summaries/auto").absoluteString
        #expect(try library.run(["add", other]).exitStatus == 0)
        let (_, reload) = try Self.subscribe(library, server, to: "pages", fullArticle: "no", config: config)
        // The global setting: both of the other feed's pages, the long summary's too.
        #expect(reload.output.contains("read 2 whole articles from their web pages\n"), "\(reload.output)")
        #expect(try Self.show(library, "Long summary")["source"] as? String == "page")
        for title in Self.pages.map(\.title) + ["A page gone missing"] {
            let shown = try Self.show(library, title)
            #expect(
                shown["source"] as? String == "feed" && shown["note"] == nil && shown["page"] == nil,
                "\(shown)")
            #expect(shown["text"] as? String == Self.teaser)
        }
    }

    @Test("herald extract FILE --json prints a page's article; herald extract URL the same in text")
    func extract() throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let library = Library()
        defer { library.cleanUp() }
        for page in Self.pages {
            let file = Self.pagesFolder.appendingPathComponent(page.file)
            let result = try library.run(["extract", file.path, "--json"])
            #expect(result.exitStatus == 0, "\(result.errors)")
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
            let text = try #require(json["text"] as? String)
            #expect(json["page"] as? String == file.absoluteString, "\(json)")
            for sentence in page.sentences { #expect(text.contains(sentence), "\(page.file): \(text)") }
            for boilerplate in page.boilerplate {
                #expect(!text.contains(boilerplate), "\(page.file): \(text)")
            }
        }
        let titan = Self.pagesFolder.appendingPathComponent("titan-map.html").path
        let fields = try #require(
            try JSONSerialization.jsonObject(
                with: Data(try library.run(["extract", titan, "--json"]).output.utf8))
                as? [String: Any])
        #expect(
            fields["title"] as? String
                == "The First Map of Saturn's Moon Titan Just Revealed Some Tantalising Features")
        #expect((fields["links"] as? [String])?.isEmpty == false, "\(fields)")

        let url = server.url("/pages/macbook-keyboard.html").absoluteString
        let fetched = try library.run(["extract", url])
        #expect(fetched.exitStatus == 0, "\(fetched.errors)")
        #expect(
            fetched.output.hasPrefix("Title: 13-Inch MacBook Pro With Scissor Keyboard Expected"),
            "\(fetched.output)")
        #expect(fetched.output.contains("\nPage: \(url)\n"), "\(fetched.output)")
        for sentence in Self.pages[1].sentences {
            #expect(fetched.output.contains(sentence), "\(fetched.output)")
        }
        #expect(!fetched.output.contains("Top Rated Comments"), "\(fetched.output)")

        let missing = try library.run(["extract", server.url("/pages/missing.html").absoluteString])
        #expect(missing.exitStatus == 1, "a page that is not there is no usage mistake: \(missing.errors)")
        #expect(
            missing.errors
                == "herald: \(server.url("/pages/missing.html")): the page could not be fetched: HTTP 404\n",
            "\(missing.errors)")
    }
}
