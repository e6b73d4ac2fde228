import Foundation
import Testing

@testable import HeraldCore

/// Markup a feed escapes is text: `&lt;blink&gt;` in a title or a body must show as
/// `<blink>`, whichever way the title or body is written (plain text, HTML, XHTML, or HTML
/// given as elements), and never be taken for a tag and dropped.
@Suite("XML feeds: markup a feed escapes shows as text")
struct XMLFeedEscapedMarkupTests {
    func parse(_ name: String) throws -> ParsedFeed {
        try XMLFeedParser.parse(
            Data(contentsOf: XMLFeedConformanceTests.corpus.appendingPathComponent(name)))
    }

    func parse(xml: String) throws -> ParsedFeed {
        try XMLFeedParser.parse(Data(xml.utf8))
    }

    @Test("an XHTML title shows the markup it escapes as text, and its elements' text")
    func xhtmlTitles() throws {
        let feed = try parse("atom10-xhtml-escaped-markup.xml")
        #expect(feed.title == "The <feed> of tags")
        #expect(feed.items[0].title == "History of the <blink> tag")
    }

    @Test("an HTML title escaped twice shows its markup as text, the feed's title as an item's")
    func htmlTitlesEscapedTwice() throws {
        let feed = try parse(
            xml: """
                <feed xmlns="http://www.w3.org/2005/Atom"><title type="html">The &amp;lt;feed&amp;gt;</title>
                <entry><id>1</id><title type="html">History of the &amp;lt;blink&amp;gt; tag</title></entry></feed>
                """)
        #expect(feed.title == "The <feed>")
        #expect(feed.items[0].title == "History of the <blink> tag")
    }

    @Test("a text title shows escaped markup literally, and entities escaped twice as written")
    func textTitles() throws {
        let feed = try parse("atom10-xhtml-escaped-markup.xml")
        #expect(feed.items[1].title == "The <blink> tag & <b>")
        // Atom text is text: "&amp;lt;" is the four characters "&lt;", not a "<".
        #expect(feed.items[2].title == "Written &lt;blink&gt; as AT&amp;T")
    }

    @Test("an author's name keeps the markup it escapes")
    func authorNames() throws {
        let feed = try parse("atom10-xhtml-escaped-markup.xml")
        #expect(feed.author == "Ann <admin>")
        #expect(feed.items[0].author == "Ann <admin>")
    }

    @Test("XHTML content keeps escaped markup escaped in its HTML: text in the article, not tags")
    func xhtmlBodies() throws {
        let feed = try parse("atom10-xhtml-escaped-markup.xml")
        let item = feed.items[0]
        #expect(item.html == "<p>Write &lt;b&gt; for <b>bold</b> &amp; &lt;i&gt; for <i>italic</i>.</p>")
        #expect(item.text == "Write <b> for bold & <i> for italic.")
        // The article view draws the stored HTML: the same text, with its one real bold run.
        let rich = ArticleProcessor.richText(html: item.html, text: item.text, baseURL: item.link)
        #expect(rich.plainText == "Write <b> for bold & <i> for italic.")
        #expect(feed.items[1].text == "Escaped <script>alert(1)</script> stays text.")
    }

    @Test("an untitled item titled from its XHTML summary keeps the markup it escapes")
    func derivedTitles() throws {
        let feed = try parse(
            xml: """
                <feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><entry><id>1</id>
                <summary type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">&lt;blink&gt; is gone</div></summary>
                </entry></feed>
                """)
        #expect(feed.items[0].title == "<blink> is gone")
    }

    @Test("HTML given as elements: the text after the first element is text, escaped markup in it too")
    func htmlAsElements() throws {
        let atom = try parse("atom10-html-inline-elements.xml")
        #expect(atom.title == "Inline HTML and <blink>")
        #expect(atom.items[0].title == "History of the <blink> tag")
        #expect(atom.items[0].text == "Use bold, not <blink>.")
        let old = try parse("atom03-inline-escaped-markup.xml")
        #expect(old.items[0].title == "History of the <blink> tag")
        #expect(old.items[0].text == "Use bold, not <blink>.")
        #expect(old.items[1].title == "The <b> tag")
        #expect(old.items[1].text == "<b> is bold.")
        let rss = try parse("rss20-inline-markup.xml")
        #expect(rss.items[0].title == "Use x, not <blink>")
        #expect(rss.items[0].text == "Use x, not <blink>.")
        // Escaped HTML before the first element is HTML, as written.
        #expect(rss.items[1].html == "<i>Hi</i> <b>there</b> &lt;blink&gt;")
        #expect(rss.items[1].text == "Hi there <blink>")
    }

    @Test("a <div> wrapping Atom 0.3 HTML given as elements is XHTML: its escaped markup is text")
    func atom03DivOfHTML() throws {
        // feedparser reads no XHTML in such a div and loses "<blink>" (KEPT in conformance.py).
        #expect(try parse("atom03-inline-escaped-markup.xml").title == "The <blink> feed")
    }
}
