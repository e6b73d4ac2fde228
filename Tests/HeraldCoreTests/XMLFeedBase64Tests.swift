import Foundation
import Testing

@testable import HeraldCore

/// Atom text constructs written in base64 (`mode="base64"`, Atom 0.3's syntax, which 1.0
/// feeds use too): decoded in either version, kept as written when they are no base64.
@Suite("XML feeds: Atom text in base64")
struct XMLFeedBase64Tests {
    static let namespaces = [
        "version=\"0.3\" xmlns=\"http://purl.org/atom/ns#\"", "xmlns=\"http://www.w3.org/2005/Atom\"",
    ]

    /// A feed of one entry whose title, summary and content are `title`, `summary`, `content`
    /// (elements with their attributes), in the Atom version `namespace` declares.
    func feed(_ namespace: String, title: String, summary: String = "", content: String = "") throws
        -> ParsedFeed
    {
        let entry = "<entry><id>1</id>\(title)\(summary)\(content)</entry>"
        let xml = "<feed \(namespace)><title>t</title>\(entry)</feed>"
        return try XMLFeedParser.parse(Data(xml.utf8))
    }

    @Test("an Atom 1.0 feed's title, summary and content in base64 are decoded")
    func atom10() throws {
        let feed = try XMLFeedParser.parse(
            Data(contentsOf: XMLFeedConformanceTests.corpus.appendingPathComponent("atom10-base64.xml")))
        #expect(feed.title == "Base64 in Atom 1.0")
        #expect(feed.items[0].title == "Hello world")
        #expect(feed.items[0].html == "<p>Hello</p>")
        #expect(feed.items[0].text == "Hello")
        // No base64 after all: as written (feedparser agrees).
        #expect(feed.items[1].title == "Not base64!")
        #expect(feed.items[1].text == "Plain & simple")
        // Decoded XHTML is markup as text; decoded plain text is text, tags and all.
        #expect(feed.items[2].title == "The <blink> tag")
        #expect(feed.items[2].text == "<b>not bold</b>")
    }

    @Test("title, summary and content in base64 read the same in Atom 0.3 and 1.0", arguments: namespaces)
    func bothVersions(namespace: String) throws {
        let read = try feed(
            namespace, title: #"<title mode="base64">SGVsbG8gd29ybGQ=</title>"#,
            summary: #"<summary type="text/html" mode="base64">PHA+U3VtbWFyeTwvcD4=</summary>"#)
        #expect(read.items[0].title == "Hello world")
        #expect(read.items[0].html == "<p>Summary</p>")
        #expect(read.items[0].text == "Summary")
        let content = try feed(
            namespace, title: #"<title type="text/html" mode="base64">PGI+Qm9sZDwvYj4gbW92ZQ==</title>"#,
            content: #"<content type="text/html" mode="base64">PHA+SGVsbG88L3A+</content>"#)
        #expect(content.items[0].title == "Bold move")
        #expect(content.items[0].html == "<p>Hello</p>")
    }

    @Test("text in mode=base64 that is no base64, or not of UTF-8, stays as written", arguments: namespaces)
    func notBase64(namespace: String) throws {
        let read = try feed(
            namespace, title: #"<title mode="base64">Not base64!</title>"#,
            summary:
                #"<summary type="html" mode="base64">&lt;p&gt;Plain &amp;amp; simple&lt;/p&gt;</summary>"#
        )
        #expect(read.items[0].title == "Not base64!")
        #expect(read.items[0].html == "<p>Plain &amp; simple</p>")
        #expect(read.items[0].text == "Plain & simple")
        // "/w==" is the single byte 0xFF: base64, but of no UTF-8 text.
        #expect(try feed(namespace, title: #"<title mode="base64">/w==</title>"#).items[0].title == "/w==")
    }

    @Test("base64 counts against the document's text cap before it is decoded")
    func textCap() throws {
        let encoded = Data(String(repeating: "Hello world. ", count: 100).utf8).base64EncodedString()
        let xml = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><entry><id>1</id>
            <content type="text" mode="base64">\(encoded)</content></entry></feed>
            """
        #expect(throws: FeedParseError.notAFeed("too much text: more than 1000 bytes of character data")) {
            try XMLFeedParser.parse(Data(xml.utf8), baseURL: nil, httpCharset: nil, maxTextBytes: 1000)
        }
        let read = try XMLFeedParser.parse(Data(xml.utf8), baseURL: nil, httpCharset: nil, maxTextBytes: 2000)
        #expect(read.items[0].text.hasPrefix("Hello world. Hello world."))
    }
}
