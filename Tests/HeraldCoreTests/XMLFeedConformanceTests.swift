import Foundation
import Testing

@testable import HeraldCore

/// Documents of the conformance corpus (`Scripts/conformance.py` compares all of them with
/// feedparser), read as feedparser reads them.
@Suite("XML feeds: conformance with feedparser")
struct XMLFeedConformanceTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/conformance")

    func parse(_ name: String) throws -> ParsedFeed {
        try XMLFeedParser.parse(Data(contentsOf: Self.corpus.appendingPathComponent(name)))
    }

    @Test(
        "a feed's author comes from managingEditor, webMaster, dc:creator, dc:author or Atom author/contributor"
    )
    func feedAuthors() throws {
        #expect(try parse("rss20-managing-editor.xml").author == "Ed Itor")
        #expect(try parse("rss20-webmaster.xml").author == "Wendy Master")
        #expect(try parse("rss20-channel-dc-creator.xml").author == "Casey Creator")
        #expect(try parse("rss20-channel-dc-author.xml").author == "Dana Author")
        #expect(try parse("rss10-basic.xml").author == "Edd Dumbill")
        #expect(try parse("atom10-basic.xml").author == "John Doe")
        #expect(try parse("atom03-basic.xml").author == "Mark Pilgrim")
        #expect(try parse("atom10-feed-contributor.xml").author == "Cora Contributor")
        // A technical contact or a contributor is not the author of every item.
        #expect(try parse("rss20-webmaster.xml").items[0].author == nil)
        #expect(try parse("atom10-feed-contributor.xml").items[0].author == "Ann Entry")
        #expect(try parse("rss20-channel-dc-author.xml").items[0].author == "Ira Item")
    }

    @Test("an author written as an address with a name, either way round, is the name")
    func authorForms() throws {
        let feed = try parse("rss20-item-author-forms.xml")
        #expect(
            feed.items.map(\.author) == [
                "Jo Bloggs", "jo@example.org", "Jo Bloggs", "Jo Bloggs", "Jo Bloggs",
            ])
        #expect(XMLFeedText.personName("Jo Bloggs (mailto:jo@example.org)") == "Jo Bloggs")
        #expect(XMLFeedText.personName("(Jo Bloggs) jo@example.org") == "Jo Bloggs")
        #expect(XMLFeedText.personName("Ann (the editor)") == "Ann (the editor)")
    }

    @Test("a feed's id and items' ids keep their value whatever attributes the element has")
    func ids() throws {
        let atom = try parse("atom10-id-attributes.xml")
        #expect(atom.id == "tag:example.org,2024:ids")
        #expect(atom.items[0].id == "tag:example.org,2024:i1")
        #expect(try parse("atom10-basic.xml").id == "urn:uuid:60a76c80-d399-11d9-b93C-0003939e0af6")
        #expect(try parse("rss20-basic.xml").id == nil)
        let rss = try parse("rss20-guid-not-permalink.xml")
        #expect(rss.items.map(\.id) == ["tag:example.com,2024:1", "2"])
        #expect(rss.items.map(\.link) == [nil, "http://example.com/2"])
        let permalinks = try parse("rss20-guid-permalink.xml")
        #expect(permalinks.items.map(\.link) == ["http://example.com/posts/1", "http://example.com/posts/2"])
    }

    @Test("relative links in a body resolve against the body's xml:base, nested bases composing")
    func xmlBaseOfBodies() throws {
        let atom = try parse("atom10-xml-base.xml")
        #expect(atom.items[0].link == "http://example.org/blog/2024/01/post.html")
        #expect(atom.items[0].text.hasSuffix("[1] http://example.org/blog/2024/01/about.html"))
        #expect(atom.items[1].text.hasSuffix("[1] http://example.net/docs/guide.html"))
        let rss = try parse("rss20-xml-base.xml")
        #expect(rss.items[0].text.hasSuffix("[1] http://example.com/blog/2024/01/about.html"))
        // The reader draws the stored HTML later, with the item's link at hand: it agrees.
        for item in atom.items + rss.items {
            let rich = ArticleProcessor.richText(html: item.html, text: item.text, baseURL: item.link)
            #expect(item.text.hasSuffix(rich.links.last ?? "?"))
        }
        // Without xml:base, relative links still resolve against the item's link.
        let plain = try XMLFeedParser.parse(
            Data(
                """
                <rss version="2.0"><channel><title>t</title><item><link>http://example.com/a/b.html</link>
                <description>&lt;a href="c.html"&gt;c&lt;/a&gt;</description></item></channel></rss>
                """.utf8))
        #expect(plain.items[0].text.hasSuffix("[1] http://example.com/a/c.html"))
        #expect(plain.items[0].html == "<a href=\"c.html\">c</a>")
    }

    func date(_ text: String) -> Date? { FeedDate.parseRFC3339(text) }

    @Test(
        "a <feed> without a namespace is read as Atom (0.3 when it says so), and RSS under an old namespace as RSS"
    )
    func unqualifiedFeeds() throws {
        let atom = try parse("atom10-no-namespace.xml")
        #expect(atom.title == "No namespace")
        #expect(atom.siteURL == "http://example.org/")
        #expect(atom.id == "tag:example.org,2024:nons")
        #expect(atom.items.map(\.title) == ["First", "Second"])
        #expect(atom.items.map(\.link) == ["http://example.org/1", "http://example.org/2"])
        #expect(atom.items.map(\.text) == ["One.", "Two."])
        let old = try parse("atom03-no-namespace-version.xml")
        #expect(old.items.map(\.title) == ["Entry"])
        #expect(old.items.first?.published == date("2004-01-01T00:00:00Z"))
        let rss = try parse("rss20-harvard-namespace.xml")
        #expect(rss.title == "Namespaced RSS")
        #expect(rss.items.map(\.title) == ["One"])
    }

    @Test("Atom 0.3 titles, content and summaries are read, base64 and escaped ones decoded")
    func atom03() throws {
        let basic = try parse("atom03-basic.xml")
        #expect(basic.title == "dive into mark")
        #expect(basic.items[0].title == "Atom 0.3 snapshot")
        #expect(basic.items[0].published == date("2003-12-13T12:29:29Z"))
        #expect(basic.items[0].updated == date("2003-12-13T18:30:02Z"))
        #expect(basic.items[0].text == "Escaped HTML.")
        let base64 = try parse("atom03-base64.xml")
        #expect(base64.title == "Base64 feed")
        #expect(base64.items[0].title == "Hello world")
        #expect(base64.items[0].html == "<p>Hello <b>world</b></p>")
        #expect(base64.items[0].text == "Hello world")
        let escaped = try parse("atom03-escaped.xml")
        #expect(escaped.title == "Fish & Chips")
        #expect(escaped.items[0].title == "Bold title")
        #expect(escaped.items[0].text == "Hi.")
        let inline = try parse("atom03-html-inline.xml")
        #expect(inline.title == "Inline HTML feed")
        #expect(inline.items[0].title == "Entry one")
        #expect(inline.items[0].text == "Inline XHTML.")
        #expect(try parse("atom03-summary-only.xml").items[0].text == "Summary text.")
        // Inline XHTML elements in 0.3 "text/html" content are still markup, not text.
        let xml = """
            <feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>t</title><entry><id>1</id>
            <content type="text/html"><div xmlns="http://www.w3.org/1999/xhtml"><p>a &lt; b</p></div></content></entry></feed>
            """
        #expect(try XMLFeedParser.parse(Data(xml.utf8)).items[0].text == "a < b")
    }

    @Test(
        "an HTML title shows its text: escaped markup that is no tag stays, a '>' in a quoted attribute ends no tag"
    )
    func htmlTitles() throws {
        let atom = try parse("atom10-html-title-escaped-markup.xml")
        #expect(atom.title == "Tags & markup")
        #expect(
            atom.items.map(\.title) == ["History of the <blink> tag", "Bold move", "Pets", "1 < 2 && 3 > 2"])
        let rss = try parse("rss20-title-markup.xml")
        #expect(
            rss.items.map(\.title) == [
                "History of the <blink> tag", "History of the <blink> tag", "Bold move",
                "Vec<T> and Option<T>",
                "AT&T <3",
            ])
        #expect(XMLFeedParser.roughText(fromHTML: "<a title='x > y' href=\"z\">link</a> text") == "link text")
        #expect(XMLFeedParser.roughText(fromHTML: "<img alt=\"never closed>after") == "after")
    }
}
