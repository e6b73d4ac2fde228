import Foundation
import Testing

@testable import HeraldCore

/// Slightly broken feeds are read as feedparser and newsboat read them, and say so.
@Suite("XML feeds: broken documents read with errors")
struct XMLFeedRecoveryTests {
    func parse(_ name: String) throws -> ParsedFeed {
        try XMLFeedParser.parse(
            Data(contentsOf: XMLFeedConformanceTests.corpus.appendingPathComponent(name)))
    }

    @Test(
        "a bare ampersand, a tag left open, a stray end tag, an undefined entity or a cut are read with errors"
    )
    func brokenFeedsAreRead() throws {
        let ampersand = try parse("rss20-unescaped-ampersand.xml")
        #expect(ampersand.title == "Salt & Pepper")
        #expect(ampersand.siteURL == "http://example.com/?a=1&b=2")
        #expect(ampersand.items.map(\.title) == ["Fish & Chips"])
        #expect(ampersand.items.map(\.link) == ["http://example.com/fish?x=1&y=2"])
        #expect(ampersand.items.map(\.text) == ["Cod & haddock."])
        #expect(ampersand.warnings == ["parse error at line 1: xmlParseEntityRef: no name"])
        let atom = try parse("atom10-unescaped-ampersand.xml")
        #expect(atom.title == "Tom & Jerry")
        #expect(atom.items.map(\.link) == ["http://example.org/1?a=1&b=2"])

        let unclosed = try parse("rss20-unclosed-tag.xml")
        #expect(unclosed.items.map(\.title) == ["Line breaks", "Second"])
        #expect(unclosed.items.map(\.text) == ["Line one\nline two", "Still read."])
        #expect(unclosed.readWithErrors)
        let stray = try parse("rss20-stray-end-tag.xml")
        #expect(stray.items.map(\.title) == ["First", "Second"])
        #expect(stray.items.map(\.id) == ["http://example.com/1", "http://example.com/2"])
        let entity = try parse("rss20-undefined-entity.xml")
        #expect(entity.items.map(\.title) == ["A &bogus; entity", "Second"])
        #expect(entity.warnings == ["parse error at line 2: Entity 'bogus' not defined"])
        let cut = try parse("rss20-truncated.xml")
        #expect(cut.items.map(\.title) == ["Whole", "Cut"])
        #expect(cut.readWithErrors)
    }

    @Test("a sound document, or one using HTML entity names, is not read with errors")
    func soundFeeds() throws {
        #expect(try parse("rss20-basic.xml").warnings == [])
        let nbsp = try parse("rss20-undeclared-nbsp.xml")
        #expect(nbsp.warnings == [])
        #expect(nbsp.items.map(\.title) == ["Café crème"])
    }

    @Test("a document that is no feed stays no feed, broken or not")
    func notFeeds() throws {
        #expect(throws: FeedParseError.notAFeed("the document is <html>, not an RSS, RDF or Atom feed")) {
            try parse("not-a-feed-html.xml")
        }
        #expect(throws: FeedParseError.notAFeed("the document is <html>, not an RSS, RDF or Atom feed")) {
            try XMLFeedParser.parse(Data("<html><body><p>Fish & chips<br></body>".utf8))
        }
        #expect(throws: FeedParseError.notAFeed("parse error at line 1: Document is empty")) {
            try parse("not-a-feed-garbage.xml")
        }
        #expect(throws: FeedParseError.notAFeed("the document is empty")) {
            try XMLFeedParser.parse(Data(" \n".utf8))
        }
    }
}
