import Foundation
import Testing

@testable import HeraldCore

@Suite("XML feeds: RFC 822 dates and format sniffing")
struct XMLFeedDateTests {
    static let reference = FeedDate.parseRFC3339("2003-06-03T09:39:21Z")!

    @Test("RFC 822 dates as feeds write them", arguments: [
        ("Tue, 03 Jun 2003 09:39:21 GMT", "2003-06-03T09:39:21Z"),
        ("Tue, 3 Jun 2003 09:39:21 UT", "2003-06-03T09:39:21Z"),
        ("03 Jun 2003 09:39:21 +0000", "2003-06-03T09:39:21Z"),  // no day name
        ("Fri, 03 Jun 2003 09:39:21 GMT", "2003-06-03T09:39:21Z"),  // wrong day name ignored
        ("Tue, 03 Jun 2003 09:39 GMT", "2003-06-03T09:39:00Z"),  // no seconds
        ("Tue, 03 Jun 03 09:39:21 GMT", "2003-06-03T09:39:21Z"),  // two-digit year
        ("Thu, 03 Jun 99 09:39:21 GMT", "1999-06-03T09:39:21Z"),
        ("Tue, 03 Jun 2003 18:39:21 +0900", "2003-06-03T09:39:21Z"),
        ("Tue, 03 Jun 2003 04:09:21 -0530", "2003-06-03T09:39:21Z"),
        ("Tue, 03 Jun 2003 04:39:21 EST", "2003-06-03T09:39:21Z"),
        ("Tue, 03 Jun 2003 05:39:21 EDT", "2003-06-03T09:39:21Z"),
        ("Tue, 03 Jun 2003 03:39:21 CST", "2003-06-03T09:39:21Z"),
        ("Tue, 03 Jun 2003 04:39:21 CDT", "2003-06-03T09:39:21Z"),
        ("Tue, 03 Jun 2003 02:39:21 MST", "2003-06-03T09:39:21Z"),
        ("Tue, 03 Jun 2003 03:39:21 MDT", "2003-06-03T09:39:21Z"),
        ("Tue, 03 Jun 2003 01:39:21 PST", "2003-06-03T09:39:21Z"),
        ("Tue, 03 Jun 2003 02:39:21 PDT", "2003-06-03T09:39:21Z"),
        ("Tue, 03 Jun 2003 09:39:21 Z", "2003-06-03T09:39:21Z"),
        ("Tue, 03 Jun 2003 09:39:21 A", "2003-06-03T09:39:21Z"),  // military: no information
        ("Tue, 03 Jun 2003 09:39:21", "2003-06-03T09:39:21Z"),  // no zone: UTC
        ("  Tuesday, 03 June 2003 09:39:21 GMT ", "2003-06-03T09:39:21Z"),
        ("Sat, 29 Feb 2020 23:59:59 +0000", "2020-02-29T23:59:59Z"),
        ("3 Jun 2003", "2003-06-03T00:00:00Z"),
    ])
    func rfc822(text: String, expected: String) {
        #expect(FeedDate.parseRFC822(text) == FeedDate.parseRFC3339(expected))
    }

    @Test("not RFC 822 dates", arguments: [
        "", "yesterday", "Tue, 31 Feb 2003 09:39:21 GMT", "Tue, 03 Jun 2003 25:39:21 GMT",
        "Tue, 03 Foo 2003 09:39:21 GMT", "03 Jun", "Tue, 03 Jun 2003 09:39:21 +99999",
    ])
    func notRFC822(text: String) {
        #expect(FeedDate.parseRFC822(text) == nil)
    }

    @Test("feed dates are read as RFC 3339 or RFC 822, whichever they are")
    func anyDate() {
        #expect(FeedDate.parseAny("2003-06-03T09:39:21Z") == Self.reference)
        #expect(FeedDate.parseAny("2003-06-03T11:39:21+02:00") == Self.reference)
        #expect(FeedDate.parseAny("Tue, 03 Jun 2003 09:39:21 GMT") == Self.reference)
        #expect(FeedDate.parseAny("2003-06-03") == FeedDate.parseRFC3339("2003-06-03T00:00:00Z"))
        #expect(FeedDate.parseAny("soon") == nil)
    }

    @Test("odd RSS dates reach the items")
    func datesInFeed() throws {
        let xml = """
            <rss version="2.0"><channel><title>d</title>
            <item><guid>1</guid><pubDate>Wed, 03 Jun 03 05:39 EDT</pubDate></item>
            <item><guid>2</guid><pubDate>not a date</pubDate></item>
            <item><guid>3</guid></item>
            </channel></rss>
            """
        let feed = try XMLFeedParser.parse(Data(xml.utf8))
        #expect(feed.items.map(\.published) == [FeedDate.parseRFC3339("2003-06-03T09:39:00Z"), nil, nil])
    }

    @Test("FeedParser sends JSON to the JSON Feed parser and the rest to the XML parser")
    func sniffing() throws {
        let json = Data("\u{FEFF}  \n{\"version\":\"https://jsonfeed.org/version/1.1\",\"title\":\"J\",\"items\":[]}".utf8)
        #expect(try FeedParser.parse(json, baseURL: nil, httpCharset: nil).title == "J")
        let xml = Data("\n<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>X</title></channel></rss>".utf8)
        #expect(try FeedParser.parse(xml, baseURL: nil, httpCharset: nil).title == "X")
        #expect(throws: FeedParseError.notJSON("The given data was not valid JSON.")) {
            try FeedParser.parse(Data("{ nope".utf8), baseURL: nil, httpCharset: nil)
        }
        #expect(throws: FeedParseError.self) {
            try FeedParser.parse(Data("[1, 2]".utf8), baseURL: nil, httpCharset: nil)
        }
        #expect(FeedParser.looksLikeJSON(Data("\u{FEFF}{}".utf8)))
        #expect(!FeedParser.looksLikeJSON(Data("<rss/>".utf8)))
    }
}
