import Foundation
import Testing

@testable import HeraldCore

@Suite("XML feeds")
struct XMLFeedParserTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/xml")

    func parse(_ name: String, baseURL: String? = nil, httpCharset: String? = nil) throws -> ParsedFeed {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent(name))
        return try XMLFeedParser.parse(data, baseURL: baseURL, httpCharset: httpCharset)
    }

    func date(_ text: String) -> Date? { FeedDate.parseRFC3339(text) }

    @Test("RSS 0.90 (RDF): channel and items, <image> not taken for the channel")
    func rss090() throws {
        let feed = try parse("rss090.xml")
        #expect(feed.title == "Mozilla Dot Org")
        #expect(feed.siteURL == "http://www.mozilla.org")
        #expect(feed.items.count == 2)
        let item = feed.items[0]
        #expect(item.id == "http://www.mozilla.org/status/")
        #expect(item.title == "New Status Updates")
        #expect(item.link == "http://www.mozilla.org/status/")
        #expect(item.author == nil)
        #expect(item.published == nil)
        #expect(item.text == "")
        #expect(item.html == nil)
        #expect(feed.items[1].title == "Bugzilla Reorganized")
    }

    @Test(
        "RSS 0.91: external DTD not loaded, undeclared HTML entities still decoded, managingEditor as author")
    func rss091() throws {
        let feed = try parse("rss091.xml")
        #expect(feed.title == "WriteTheWeb")
        #expect(feed.siteURL == "http://writetheweb.com")
        #expect(feed.items.count == 1)
        let item = feed.items[0]
        #expect(item.id == "http://writetheweb.com/read.php?item=24")
        #expect(item.title == "Giving the world a pluggable Gnutella")
        #expect(item.author == "Dan Oberhaus")
        #expect(item.html?.contains("Freenet\u{A0}or Gnutella\u{2014}allowing") == true)
        // A no-break space stays one (it is not a place to wrap).
        #expect(
            item.text.hasPrefix(
                "WorldOS is a framework on which to build programs that work like Freenet\u{A0}or Gnutella—allowing"
            ))
    }

    @Test("RSS 0.92: an item with only a description gets a title and a stable hash id")
    func rss092() throws {
        let feed = try parse("rss092.xml")
        #expect(feed.title == "Dave Winer: Grateful Dead")
        let item = feed.items[0]
        #expect(item.id.hasPrefix("hash:"))
        #expect(try parse("rss092.xml").items[0].id == item.id)
        #expect(
            item.title == "It's been a few days since I added a song to the Grateful Dead channel. Weather…")
        #expect(item.link == nil)
        #expect(
            item.html?.contains("<a href=\"http://www.scripting.com/mp3s/weatherReportSuite.mp3\">") == true)
        #expect(
            item.text
                == "It's been a few days since I added a song to the Grateful Dead channel. Weather Report Suite[1] is the one."
                + "\n\nLinks:\n[1] http://www.scripting.com/mp3s/weatherReportSuite.mp3")
    }

    @Test("RSS 2.0: every field, guid permalink as link fallback, channel author fallback")
    func rss20() throws {
        let feed = try parse("rss20.xml")
        #expect(feed.title == "Liftoff News")
        #expect(feed.siteURL == "http://liftoff.msfc.nasa.gov/")
        #expect(feed.feedURL == nil)
        #expect(feed.items.count == 2)
        let first = feed.items[0]
        #expect(first.id == "http://liftoff.msfc.nasa.gov/2003/06/03.html#item573")
        #expect(first.title == "Star City")
        #expect(first.link == "http://liftoff.msfc.nasa.gov/news/2003/news-starcity.asp")
        #expect(first.author == "Jane Roe")
        #expect(first.published == date("2003-06-03T09:39:21Z"))
        #expect(first.updated == nil)
        #expect(
            first.html?.hasSuffix(
                "at Russia's <a href=\"http://howe.iki.rssi.ru/GCTC/gctc_e.htm\">Star City</a>.") == true)
        #expect(
            first.text.hasSuffix(
                "language and protocol at Russia's Star City[1].\n\nLinks:\n[1] http://howe.iki.rssi.ru/GCTC/gctc_e.htm"
            ))
        let second = feed.items[1]
        #expect(second.link == "http://liftoff.msfc.nasa.gov/2003/05/30.html#item572")
        #expect(second.author == "Ed Itor")
        #expect(second.published == date("2003-05-30T11:06:42Z"))
        #expect(
            second.text
                == "Sky watchers in Europe, Asia, and parts of Alaska and Canada will experience a\n\npartial eclipse\n\nof the Sun"
        )
    }

    @Test("RSS 1.0: dc:date, dc:creator, rdf:about as id fallback, channel creator fallback")
    func rdf10() throws {
        let feed = try parse("rdf10.xml")
        #expect(feed.title == "XML.com")
        #expect(feed.siteURL == "http://xml.com/pub")
        #expect(feed.items.count == 2)
        let first = feed.items[0]
        #expect(first.title == "Processing Inclusions with XSLT")
        #expect(first.link == "http://xml.com/pub/2000/08/09/xslt/xslt.html")
        #expect(first.author == "XML.com staff")
        #expect(first.published == date("2000-08-09T10:30:00Z"))
        #expect(first.text == "Processing document inclusions with general XML tools can be problematic.")
        let second = feed.items[1]
        #expect(second.id == "http://xml.com/pub/2000/08/09/rdfdb/index.html")
        #expect(second.link == nil)
        #expect(second.author == "Edd Dumbill")
    }

    @Test("Atom 0.3: issued/modified, escaped HTML content preferred over summary, mode=xml inline XHTML")
    func atom03() throws {
        let feed = try parse("atom03.xml")
        #expect(feed.title == "dive into mark")
        #expect(feed.siteURL == "http://diveintomark.org/")
        #expect(feed.items.count == 2)
        let first = feed.items[0]
        #expect(first.id == "tag:diveintomark.org,2003:3.2397")
        #expect(first.link == "http://diveintomark.org/2003/12/13/atom03")
        #expect(first.author == "Mark Pilgrim")
        #expect(first.published == date("2003-12-13T12:29:29Z"))
        #expect(first.updated == date("2003-12-13T18:30:02Z"))
        #expect(first.html == "<p>Escaped <b>HTML</b> content.</p>")
        #expect(first.text == "Escaped HTML content.")
        let second = feed.items[1]
        #expect(second.html == "<p>Inline <em>XHTML</em>.</p>")
        #expect(second.text == "Inline XHTML.")
        // No issued: published falls back to modified.
        #expect(second.published == date("2003-12-12T10:00:00Z"))
    }

    @Test("Atom 1.0: links by rel, self link, html title stripped, content over summary, authors")
    func atom10() throws {
        let feed = try parse("atom10.xml")
        #expect(feed.title == "Example Feed")
        #expect(feed.siteURL == "http://example.org/")
        #expect(feed.feedURL == "http://example.org/feed.atom")
        #expect(feed.items.count == 2)
        let first = feed.items[0]
        #expect(first.id == "urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a")
        #expect(first.title == "Atom-Powered Robots Run Amok")
        #expect(first.link == "http://example.org/2003/12/13/atom03")
        #expect(first.author == "John Doe")
        #expect(first.published == date("2003-12-13T12:29:29Z"))
        #expect(first.updated == date("2003-12-13T18:30:02Z"))
        #expect(first.text == "Some text.")
        #expect(first.html == nil)
        let second = feed.items[1]
        #expect(second.title == "Second & last")
        #expect(second.link == "http://example.org/2003/12/14/second")
        #expect(second.author == "Jane Roe")
        #expect(second.html == "<p>First paragraph.</p><p>Second &amp; last.</p>")
        #expect(second.text == "First paragraph.\n\nSecond & last.")
    }

    @Test(
        "namespaces: content:encoded, dc:*, atom:link/updated in RSS, media fallbacks, unknown ones ignored")
    func namespaces() throws {
        let feed = try parse("namespaces.xml")
        #expect(feed.title == "Namespaced")
        #expect(feed.feedURL == "https://ns.example.com/feed.xml")
        let first = feed.items[0]
        #expect(first.title == "Full content")
        #expect(first.author == "Dee Creator")
        #expect(first.published == date("2024-02-29T23:59:59Z"))
        #expect(first.updated == date("2024-03-01T08:00:00Z"))
        #expect(first.html == "<p>The <em>full</em> body.</p>")
        #expect(first.text == "The full body.")
        let second = feed.items[1]
        #expect(second.id == "ns-2")
        #expect(second.link == nil)  // isPermaLink="false"
        #expect(second.title == "Media title")
        #expect(second.text == "Media description only.")
        #expect(second.html == nil)
        #expect(second.author == "Channel Creator")
    }

    @Test("xml:base and the base URL make relative links absolute")
    func relativeLinks() throws {
        let atom = try parse("xml-base.xml", baseURL: "https://ignored.example.com/")
        #expect(atom.siteURL == "http://base.example.com/blog/")
        #expect(
            atom.items.map(\.link) == [
                "http://base.example.com/blog/posts/one.html", "http://base.example.com/other/two.html",
            ])
        let rss = try parse("relative-rss.xml", baseURL: "https://rel.example.com/feed/rss.xml")
        #expect(rss.siteURL == "https://rel.example.com/")
        #expect(rss.items[0].link == "https://rel.example.com/feed/articles/a.html")
        #expect(rss.items[0].id == "https://rel.example.com/feed/articles/a.html")
    }

    @Test(
        "encodings from the XML declaration, a BOM, or the HTTP charset",
        arguments: [
            ("iso-8859-1.xml", nil, "Café crème", "Naïve résumé"),
            ("windows-1252.xml", "windows-1252", "“Smart” quotes – €5", "It’s here"),
            ("euc-kr.xml", nil, "한국어 뉴스", "안녕하세요"),
            ("shift_jis.xml", nil, "日本語のフィード", "こんにちは世界"),
            ("gb2312.xml", nil, "中文新闻", "你好世界"),
            ("utf-16.xml", "iso-8859-1", "UTF-16 é中", "Sixteen"),  // the BOM beats the HTTP charset
            ("iso-8859-1-really-1252.xml", "utf-8", "“Quoted” – café", "€9"),  // read as Windows-1252
            ("iso-8859-1-c1.xml", nil, "Café x", "Ab"),  // not Windows-1252 after all: C1 controls dropped
        ] as [(String, String?, String, String)])
    func encodings(file: String, charset: String?, title: String, itemTitle: String) throws {
        let feed = try parse(file, httpCharset: charset)
        #expect(feed.title == title)
        #expect(feed.items.map(\.title) == [itemTitle])
    }

    @Test("ISO-8859-1 body text survives")
    func latin1Body() throws {
        let item = try parse("iso-8859-1.xml").items[0]
        #expect(item.text == "¿Qué tal?")
        #expect(item.id == "l1")
    }

    @Test("an HTTP charset does not override the document's own declaration")
    func declarationWins() throws {
        let feed = try parse("euc-kr.xml", httpCharset: "iso-8859-1")
        #expect(feed.title == "한국어 뉴스")
    }

    @Test("an unknown or UTF-8 HTTP charset is ignored")
    func oddCharset() throws {
        #expect(try parse("rss20.xml", httpCharset: "x-no-such-charset").items.count == 2)
        #expect(try parse("rss20.xml", httpCharset: "\"UTF-8\"").title == "Liftoff News")
        #expect(try parse("utf-16.xml", httpCharset: "bogus").title == "UTF-16 é中")
    }

    @Test("feeds parse concurrently on many threads")
    func concurrent() async throws {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("atom10.xml"))
        let broken = try Data(contentsOf: Self.fixtures.appendingPathComponent("malformed.xml"))
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    if index % 2 == 0 {
                        return (try? XMLFeedParser.parse(data))?.items.count == 2
                    }
                    // Read in recovery mode, its error on this thread's parser only.
                    let feed = try? XMLFeedParser.parse(broken)
                    return feed?.items.count == 2 && feed?.warnings.first?.contains("line 9") == true
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 64 && results.allSatisfy { $0 })
    }

    @Test("CDATA sections are kept in titles and bodies")
    func cdata() throws {
        let feed = try parse("cdata.xml")
        #expect(feed.title == "Tom & Jerry <3")
        let item = feed.items[0]
        #expect(item.title == "A <CDATA> title & more")
        #expect(item.html == "<p>Para one &amp; <b>bold</b>.</p><p>Para two</p>")
        #expect(item.text == "Para one & bold.\n\nPara two")
    }

    @Test("predefined, numeric, custom internal and HTML entities; doubly escaped titles")
    func entities() throws {
        let feed = try parse("entities.xml")
        #expect(feed.title == "Acme & Co news")
        let item = feed.items[0]
        #expect(item.title == "Café ☺ <tag> \"q\" 'a' © été")
        #expect(item.link == "http://example.com/?a=1&b=2")
        #expect(item.html == "<p>Fish &amp; chips</p>")
        #expect(item.text == "Fish & chips")
        #expect(feed.items[1].title == "Tom & Jerry")
    }

    @Test("Atom type=xhtml content is serialised as HTML without its wrapper div")
    func xhtml() throws {
        let feed = try parse("xhtml-content.xml")
        #expect(feed.title == "An XHTML feed")
        let item = feed.items[0]
        // The content's xml:base goes with it, so that the reader resolves its links the same way.
        #expect(
            item.html == "<base href=\"http://xhtml.example.com/\">"
                + "<p>One &amp; <a href=\"a.html\">link</a>.</p><p>Line<br>break &lt;tag&gt;</p>")
        #expect(
            item.text == "One & link[1].\n\nLine\nbreak <tag>\n\nLinks:\n[1] http://xhtml.example.com/a.html")
        #expect(item.published == date("2021-06-01T12:00:00Z"))
    }

    @Test("missing channel title, item title, guid and date get fallbacks")
    func missing() throws {
        let feed = try parse("missing.xml")
        #expect(feed.title == "(untitled feed)")
        #expect(feed.items.count == 3)
        let described = feed.items[0]
        #expect(
            described.title
                == "Only a description here, long enough that the made-up title has to be cut off…")
        #expect(described.id.hasPrefix("hash:"))
        #expect(described.published == nil)
        #expect(described.link == nil)
        let linked = feed.items[1]
        #expect(linked.title == "(untitled)")
        #expect(linked.id == "http://missing.example.com/link-only")
        let dated = feed.items[2]
        #expect(dated.title == "(untitled)")
        #expect(dated.published == date("2024-01-01T00:00:00Z"))
        #expect(dated.id == StableID.hash(title: "(untitled)", date: dated.published))
        #expect(dated.id != described.id)
    }

    @Test("malformed XML is read with errors naming the line")
    func malformed() throws {
        let feed = try parse("malformed.xml")
        #expect(feed.items.map(\.title) == ["One", "Two"])
        #expect(
            feed.warnings == [
                "parse error at line 9: Opening and ending tag mismatch: title line 9 and titel"
            ])
    }

    @Test("truncated XML is read up to the cut, with errors")
    func truncated() throws {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("rss20.xml"))
        let feed = try XMLFeedParser.parse(data.prefix(400))
        #expect(feed.title == "Liftoff News")
        #expect(feed.readWithErrors)
        #expect(feed.warnings.first?.hasPrefix("parse error at line ") == true)
    }

    @Test("an HTML page or an XHTML page is not a feed", arguments: ["not-a-feed.html", "not-a-feed.xml"])
    func notAFeed(file: String) throws {
        #expect(throws: FeedParseError.notAFeed("the document is <html>, not an RSS, RDF or Atom feed")) {
            try parse(file)
        }
    }

    @Test("empty documents are refused")
    func empty() throws {
        #expect(throws: FeedParseError.notAFeed("the document is empty")) {
            try XMLFeedParser.parse(Data("  \n".utf8))
        }
    }

    @Test("control characters from a feed never reach titles or bodies")
    func hostileText() throws {
        let xml = """
            <rss version="2.0"><channel><title>Bad&#x9B;2J&#x7F;title</title>
            <item><title>Line&#10;break &#x202E;rtl</title><description>a&amp;#27;[2Jb</description><guid>h</guid></item>
            </channel></rss>
            """
        let feed = try XMLFeedParser.parse(Data(xml.utf8))
        #expect(feed.title == "Badtitle")  // the C1 CSI sequence and DEL dropped
        #expect(feed.items[0].title == "Line break rtl")
        // An ESC escaped into the HTML is read as the ESC it names, and its sequence goes
        // whole (libxml2's HTML parser alone dropped the reference and kept `[2J`).
        #expect(feed.items[0].text == "ab")
    }
}
