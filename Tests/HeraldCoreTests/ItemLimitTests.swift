import Foundation
import Testing

@testable import HeraldCore

/// `InputLimits.itemsPerFeed`: a document is read up to it, the feed says what was left
/// out, and nothing past it is parsed.
@Suite("Items per feed document")
struct ItemLimitTests {
    static let limit = InputLimits.itemsPerFeed
    static let warning = "more than \(limit) items: the first \(limit) were read, the rest left out"

    /// RSS 2.0 of `count` items, newest first, with `tail` before the channel ends.
    static func rss(_ count: Int, tail: String = "") -> Data {
        var xml = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Many</title>\n"
        xml.reserveCapacity(count * 64)
        for i in 0..<count { xml += "<item><guid>item-\(i)</guid><title>Item \(i)</title></item>\n" }
        return Data((xml + tail + "</channel></rss>").utf8)
    }

    static func atom(_ count: Int) -> Data {
        var xml = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>Many</title>\n"
        for i in 0..<count { xml += "<entry><id>item-\(i)</id><title>Item \(i)</title></entry>\n" }
        return Data((xml + "</feed>").utf8)
    }

    static func rdf(_ count: Int) -> Data {
        var xml = """
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
            <channel rdf:about="https://example.org/"><title>Many</title></channel>\n
            """
        for i in 0..<count {
            xml += "<item rdf:about=\"https://example.org/\(i)\"><title>Item \(i)</title></item>\n"
        }
        return Data((xml + "</rdf:RDF>").utf8)
    }

    static func json(_ count: Int, after: String = "") -> Data {
        let items = (0..<count).map { "{\"id\": \"item-\($0)\", \"title\": \"Item \($0)\"}" }
        return Data(
            """
            {"version": "https://jsonfeed.org/version/1.1", "title": "Many", "items": [\(items.joined(separator: ",\n"))]\(after)}
            """.utf8)
    }

    static let formats: [(name: String, document: @Sendable (Int) -> Data)] = [
        ("RSS", { rss($0) }), ("Atom", { atom($0) }), ("RDF", { rdf($0) }), ("JSON Feed", { json($0) }),
    ]

    @Test("a feed of exactly the limit is read whole, without a warning", arguments: 0..<formats.count)
    func atTheLimit(format: Int) throws {
        let feed = try FeedParser.parse(
            Self.formats[format].document(Self.limit), baseURL: nil, httpCharset: nil)
        #expect(feed.items.count == Self.limit, "\(Self.formats[format].name)")
        #expect(feed.warnings.isEmpty, "\(Self.formats[format].name)")
        #expect(feed.title == "Many")
    }

    @Test(
        "one item past the limit: the first items, newest first, are kept and the feed says why",
        arguments: 0..<formats.count)
    func pastTheLimit(format: Int) throws {
        let feed = try FeedParser.parse(
            Self.formats[format].document(Self.limit + 1), baseURL: nil, httpCharset: nil)
        let name = Self.formats[format].name
        #expect(feed.items.count == Self.limit, "\(name)")
        #expect(feed.items.first?.title == "Item 0", "\(name)")
        #expect(feed.items.last?.title == "Item \(Self.limit - 1)", "\(name)")
        #expect(feed.warnings == [Self.warning], "\(name)")
        #expect(feed.readWithErrors)
        #expect(feed.title == "Many")
    }

    @Test("past the limit nothing more is parsed: an error there is never met")
    func restNotParsed() throws {
        // The bare `&` would make the document malformed, read in recovery mode with its error.
        let broken = Self.rss(Self.limit + 1, tail: "<item><title>Fish & Chips</title></item>")
        let feed = try XMLFeedParser.parse(broken)
        #expect(feed.items.count == Self.limit)
        #expect(feed.warnings == [Self.warning])
        // The same in JSON: an item past the limit that is no JSON at all.
        var json = String(decoding: Self.json(Self.limit), as: UTF8.self)
        json.removeLast(2)
        json += ", {\"id\": nope}]}"
        let decoded = try JSONFeedParser.parse(Data(json.utf8))
        #expect(decoded.items.count == Self.limit)
        #expect(decoded.warnings == [Self.warning])
    }

    @Test("a broken document read in recovery mode keeps its own error first, then the limit's")
    func brokenAndTooMany() throws {
        var xml = "<rss version=\"2.0\"><channel><title>Fish & Chips</title>\n"
        for i in 0...Self.limit { xml += "<item><guid>\(i)</guid></item>\n" }
        let feed = try XMLFeedParser.parse(Data((xml + "</channel></rss>").utf8))
        #expect(feed.items.count == Self.limit)
        #expect(feed.warnings.count == 2)
        #expect(feed.warnings.first?.hasPrefix("parse error at line 1") == true)
        #expect(feed.warnings.last == Self.warning)
    }

    @Test("a million empty items cost no more than the limit's")
    func millionEmptyItems() throws {
        let body =
            "<rss version=\"2.0\"><channel><title>Empty</title>"
            + String(repeating: "<item/>", count: 1_000_000) + "</channel></rss>"
        let feed = try XMLFeedParser.parse(Data(body.utf8))
        #expect(feed.items.count == Self.limit)
        #expect(feed.warnings == [Self.warning])
        let json =
            "{\"version\": \"https://jsonfeed.org/version/1\", \"items\": ["
            + Array(repeating: "{}", count: 1_000_000).joined(separator: ",") + "]}"
        let decoded = try JSONFeedParser.parse(Data(json.utf8))
        #expect(decoded.items.count == Self.limit)
        #expect(decoded.warnings == [Self.warning])
    }

    @Test(
        "JSON Feed: the keys after the items are read, and an items key spelled with escapes is limited too")
    func jsonAroundTheItems() throws {
        let feed = try JSONFeedParser.parse(
            Self.json(
                Self.limit + 5,
                after: ", \"home_page_url\": \"https://example.org/\", \"authors\": [{\"name\": \"After\"}]"))
        #expect(feed.author == "After")
        #expect(feed.siteURL == "https://example.org/")
        #expect(feed.items.count == Self.limit)
        #expect(feed.warnings == [Self.warning])
        let escaped = String(decoding: Self.json(Self.limit + 1), as: UTF8.self)
            .replacingOccurrences(of: "\"items\"", with: "\"\\u0069tems\"")
        let decoded = try JSONFeedParser.parse(Data(escaped.utf8))
        #expect(decoded.items.count == Self.limit)
        #expect(decoded.warnings == [Self.warning])
    }

    @Test("the JSON cut follows strings and nesting: brackets, quotes and items keys inside items are data")
    func jsonCutReadsStructure() throws {
        let tricky = """
            {"version": "https://jsonfeed.org/version/1.1", "title": "a \\"items\\": [1, 2, 3] \\\\",
             "items": [{"id": "1", "title": "[\\"]", "_x": {"items": [1, 2, 3]}}, {"id": "2", "content_text": "}],"},
                       {"id": "3"}], "home_page_url": "https://example.org/"}
            """
        let (data, cut) = JSONFeedItemCut.cut(Data(tricky.utf8), limit: 2)
        #expect(cut)
        let kept = try JSONFeedParser.parse(data)
        #expect(kept.items.map(\.id) == ["1", "2"])
        #expect(kept.items.last?.text == "}],")
        #expect(kept.siteURL == "https://example.org/")
        #expect(kept.title == "a \"items\": [1, 2, 3] \\")
        #expect(JSONFeedItemCut.cut(Data(tricky.utf8), limit: 3).cut == false)
        // A stray comma after the last item is not an item: the decoder judges it.
        #expect(JSONFeedItemCut.cut(Data("{\"items\": [{}, {}, ]}".utf8), limit: 2).cut == false)
    }
}
