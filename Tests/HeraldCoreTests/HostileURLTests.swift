import Foundation
import Testing

@testable import HeraldCore

/// URLs from feeds reach `herald list --json`, `herald parse --json` (and `herald parse`'s
/// header line) as stored: C1 controls (U+009B is CSI) and bidi overrides must not be in them.
@Suite("Hostile URLs from feeds")
struct HostileURLTests {
    static func hasForbidden(_ text: String?) -> Bool {
        (text ?? "").unicodeScalars.contains(where: TextSanitizer.isForbidden)
    }

    @Test("RSS link, enclosure, image and site URLs carry no C1 or bidi controls")
    func rss() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel>
            <title>Hostile</title><link>https://h.example.org/&#x9b;2J&#x202e;</link>
            <item><title>T</title><link>https://h.example.org/x&#x9b;2J&#x202e;gpj.exe</link><guid>g1</guid>
            <description>Body.</description>
            <enclosure url="https://h.example.org/a&#x9b;2J&#x202e;3pm.exe" type="audio/mpeg" length="10"/>
            <media:thumbnail url="https://h.example.org/i&#x9b;2J.png"/>
            </item></channel></rss>
            """
        let feed = try XMLFeedParser.parse(Data(xml.utf8))
        let item = try #require(feed.items.first)
        #expect(!Self.hasForbidden(item.link), "link: \(item.link.debugDescription)")
        #expect(
            !Self.hasForbidden(item.enclosures.first?.url),
            "enclosure: \(item.enclosures.first?.url.debugDescription ?? "")")
        #expect(!Self.hasForbidden(item.image), "image: \(item.image.debugDescription)")
        #expect(!Self.hasForbidden(feed.siteURL), "site: \(feed.siteURL.debugDescription)")
        // Percent-encoded, so the address still names the same place.
        #expect(item.link == "https://h.example.org/x%C2%9B2J%E2%80%AEgpj.exe")
    }

    @Test("JSON Feed attachment, image and home page URLs carry no C1 or bidi controls")
    func json() throws {
        let json = """
            {"version": "https://jsonfeed.org/version/1.1", "title": "H",
             "home_page_url": "https://h.example.org/\\u009b2J\\u202e",
             "items": [{"id": "1", "url": "https://h.example.org/x\\u009b2J\\u202egpj.exe", "content_text": "b",
               "image": "https://h.example.org/i\\u009b.png",
               "attachments": [{"url": "https://h.example.org/a\\u009b2J\\u202e3pm.exe", "mime_type": "audio/mpeg"}]}]}
            """
        let feed = try JSONFeedParser.parse(Data(json.utf8))
        let item = try #require(feed.items.first)
        #expect(!Self.hasForbidden(item.link), "link: \(item.link.debugDescription)")
        #expect(
            !Self.hasForbidden(item.enclosures.first?.url),
            "enclosure: \(item.enclosures.first?.url.debugDescription ?? "")")
        #expect(!Self.hasForbidden(item.image), "image: \(item.image.debugDescription)")
        #expect(!Self.hasForbidden(feed.siteURL), "site: \(feed.siteURL.debugDescription)")
    }
}
