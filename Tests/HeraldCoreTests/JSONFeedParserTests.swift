import Foundation
import Testing

@testable import HeraldCore

@Suite("JSON Feed")
struct JSONFeedParserTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: Self.fixtures.appendingPathComponent(name))
    }

    @Test("a feed's title, items, authors and dates are read")
    func parsesFeed() throws {
        let feed = try JSONFeedParser.parse(try fixture("minimal.json"))
        #expect(feed.title == "Minimal")
        #expect(feed.items.count == 5)
        let first = feed.items[0]
        #expect(first.id == "1")
        #expect(first.author == "Ana")
        #expect(first.link == "https://example.org/1")
        #expect(first.published == Date(timeIntervalSince1970: 1_793_664_900))  // 2026-11-03 00:15 UTC
        #expect(feed.items[1].published != nil)  // fractional seconds
    }

    @Test("item ids fall back from id to link to a stable hash")
    func idFallbacks() throws {
        let feed = try JSONFeedParser.parse(try fixture("minimal.json"))
        #expect(feed.items[1].id == "2")
        #expect(feed.items[2].id == "https://example.org/3")
        #expect(feed.items[3].id.hasPrefix("hash:"))
        let again = try JSONFeedParser.parse(try fixture("minimal.json"))
        #expect(again.items[3].id == feed.items[3].id)
    }

    @Test("missing titles, authors and bodies get fallbacks")
    func fallbacks() throws {
        let feed = try JSONFeedParser.parse(try fixture("minimal.json"))
        #expect(feed.items[1].author == "Feed Author")
        #expect(feed.items[3].title == "(untitled)")
        #expect(feed.items[3].text == "Only a summary.")
    }

    @Test("control sequences in titles and bodies are removed at parse time")
    func hostileText() throws {
        let item = try JSONFeedParser.parse(try fixture("minimal.json")).items[4]
        #expect(item.title == "Evil title")
        #expect(item.text == "line\nbreak")
    }

    @Test("content_html becomes readable text with numbered links; content_text wins when both exist")
    func htmlBodies() throws {
        let feed = try JSONFeedParser.parse(try fixture("jsonfeed-html/html.json"))
        #expect(feed.items[0].text == "Read more[1].\n\n- one\n\nLinks:\n[1] https://example.org/more")
        #expect(feed.items[0].html?.hasPrefix("<p>Read") == true)
        #expect(feed.items[0].updated != nil)
        #expect(feed.items[1].text == "Plain wins.")
    }

    @Test("a truncated file is an error that says what is wrong")
    func truncated() throws {
        #expect(throws: FeedParseError.self) { try JSONFeedParser.parse(try fixture("truncated.json")) }
    }

    @Test("JSON that is not a JSON Feed is refused")
    func notAFeed() throws {
        #expect(throws: FeedParseError.notAFeed("JSON without a jsonfeed.org version")) {
            try JSONFeedParser.parse(try fixture("not-a-feed.json"))
        }
    }

    @Test("a directory with a broken file loads the good feeds and an error row for the bad one")
    func directoryWithBrokenFile() async throws {
        let repository = try await FeedDirectory.load(Self.fixtures)
        let feeds = await repository.feedSummaries()
        #expect(feeds.map(\.feed.title) == ["Minimal", "not-a-feed.json", "truncated.json"])
        #expect(feeds[0].total == 5 && feeds[0].unread == 5)
        #expect(feeds[1].feed.lastError == "not a feed: JSON without a jsonfeed.org version")
        #expect(feeds[2].feed.lastError?.contains("not valid JSON") == true)
    }

    @Test("articles come newest first and reading one lowers the unread count")
    func repositoryOrderAndRead() async throws {
        let repository = try await FeedDirectory.load(Self.fixtures)
        let feedID = await repository.feedSummaries()[0].id
        let articles = try await repository.articles(inFeed: feedID, page: .first(limit: 100))
        #expect(articles.prefix(2).map(\.title) == ["Numeric id", "First"])
        try await repository.setRead(true, articleID: articles[0].id)
        #expect(await repository.feedSummaries()[0].unread == 4)
        #expect(try await repository.article(id: articles[0].id).summary.isRead)
    }
}

@Suite("JSON Feed in UTF-16 and UTF-32")
struct JSONFeedEncodingTests {
    static let json = """
        {"version": "https://jsonfeed.org/version/1.1", "title": "넓은 세상 🌏",
         "items": [{"id": "1", "title": "日本語のタイトル", "content_text": "본문"}]}
        """

    @Test(
        "read with or without a byte-order mark, told apart from UTF-8 and from XML",
        arguments: [
            (String.Encoding.utf16LittleEndian, [UInt8]()), (.utf16BigEndian, []), (.utf32LittleEndian, []),
            (.utf32BigEndian, []), (.utf16LittleEndian, [0xFF, 0xFE]), (.utf16BigEndian, [0xFE, 0xFF]),
            (.utf32LittleEndian, [0xFF, 0xFE, 0x00, 0x00]), (.utf32BigEndian, [0x00, 0x00, 0xFE, 0xFF]),
        ])
    func encodings(_ encoding: String.Encoding, bom: [UInt8]) throws {
        let data = Data(bom) + (try #require(Self.json.data(using: encoding)))
        let feed = try FeedParser.parse(data, baseURL: nil, httpCharset: nil)
        #expect(feed.title == "넓은 세상 🌏")
        #expect(feed.items.map(\.title) == ["日本語のタイトル"])
        #expect(feed.items.first?.text == "본문")
    }

    @Test("UTF-16 XML still goes to the XML parser")
    func utf16XML() throws {
        let xml =
            "<?xml version=\"1.0\" encoding=\"UTF-16\"?><rss version=\"2.0\"><channel><title>한</title></channel></rss>"
        let data = Data([0xFF, 0xFE]) + (try #require(xml.data(using: .utf16LittleEndian)))
        #expect(try FeedParser.parse(data, baseURL: nil, httpCharset: nil).title == "한")
    }
}
