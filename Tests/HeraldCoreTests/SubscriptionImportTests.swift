import Foundation
import Testing

@testable import HeraldCore
@testable import HeraldNewsboat

@Suite("Subscription lists")
struct SubscriptionImportTests {
    static let opml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <opml version="2.0">
          <head><title>Mine</title></head>
          <body>
            <outline text="Reading" title="Reading">
              <outline text="Tech">
                <outline type="rss" text="Herald Notes" xmlUrl="https://example.org/notes.xml" htmlUrl="https://example.org/"/>
              </outline>
              <outline type="rss" text="Birds &amp; Tides" xmlUrl="https://example.com/field.xml" category="/nature,weekly"/>
            </outline>
            <outline type="rss" text="한글 기술 일지" xmlUrl="https://example.org/ko.xml"/>
            <outline text="an empty folder"/>
          </body>
        </opml>
        """

    @Test("nested outlines become tags; titles, sites and categories are kept")
    func parsesNestedOPML() throws {
        let feeds = try OPML.parse(Data(Self.opml.utf8))
        #expect(
            feeds.map(\.url) == [
                "https://example.org/notes.xml", "https://example.com/field.xml",
                "https://example.org/ko.xml",
            ])
        #expect(feeds[0].tags == ["Reading", "Tech"])
        #expect(feeds[0].title == "Herald Notes" && feeds[0].siteURL == "https://example.org/")
        #expect(feeds[1].title == "Birds & Tides")
        #expect(feeds[1].tags == ["Reading", "nature", "weekly"])
        #expect(feeds[2].tags.isEmpty && feeds[2].title == "한글 기술 일지")
    }

    @Test("export then import gives the same subscriptions")
    func roundTrip() throws {
        let feeds = try OPML.parse(Data(Self.opml.utf8))
        let again = try OPML.parse(Data(OPML.export(feeds).utf8))
        #expect(again == feeds)
    }

    @Test("export: the first tag is a folder; tags a category cannot carry come back too")
    func exportKeepsEveryTag() throws {
        let feeds = [
            Subscription(
                url: "https://example.org/a.xml", title: "A", tags: ["News, World", "daily", "/paths/"]),
            Subscription(url: "https://example.org/b.xml", title: nil, tags: []),
            Subscription(url: "https://example.org/c.xml", title: "C", tags: ["News, World"]),
            Subscription(url: "https://example.org/d.xml", title: "D", tags: ["tech", "x,y", "z"]),
        ]
        let text = OPML.export(feeds)
        // Folders as other readers import them: one outline per first tag, holding its feeds.
        #expect(text.contains("<outline text=\"News, World\">"))
        #expect(text.components(separatedBy: "<outline text=\"News, World\">").count == 2)
        let again = try OPML.parse(Data(text.utf8))
        #expect(Set(again.map(\.url)) == Set(feeds.map(\.url)))
        for feed in feeds {
            let back = try #require(again.first { $0.url == feed.url })
            #expect(Set(back.tags) == Set(feed.tags), "\(feed.url): \(back.tags)")
            #expect(back.title == feed.title)
        }
    }

    @Test("a file that is not OPML is a clear error")
    func notOPML() {
        #expect(throws: SubscriptionImportError.self) { try OPML.parse(Data("<html><body/></html>".utf8)) }
        #expect(throws: SubscriptionImportError.self) { try OPML.parse(Data("not xml at all".utf8)) }
        #expect(throws: SubscriptionImportError.self) { try OPML.parse(Data()) }
    }

    @Test("an external entity in OPML is never loaded")
    func noExternalEntities() throws {
        let secret = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-opml-secret-\(UUID().uuidString)")
        try "TOP-SECRET-CONTENT".write(to: secret, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: secret) }
        let hostile = """
            <?xml version="1.0"?>
            <!DOCTYPE opml [<!ENTITY xxe SYSTEM "file://\(secret.path)">]>
            <opml version="2.0"><body><outline text="&xxe;" xmlUrl="https://example.org/x"/></body></opml>
            """
        let feeds = (try? OPML.parse(Data(hostile.utf8))) ?? []
        #expect(!feeds.contains { ($0.title ?? "").contains("TOP-SECRET") })
    }

    @Test("newsboat urls: tags, quoted tags, ~titles, comments; query feeds skipped")
    func newsboat() {
        let text = """
            # my feeds
            https://example.org/notes.xml tech "open source" ~"Herald Notes"
            https://example.com/field.xml ~Field nature

            "query:Unread:unread = \\"yes\\""
            https://example.org/plain.xml # a comment
            """
        let feeds = NewsboatURLs.parse(text)
        #expect(
            feeds.map(\.url) == [
                "https://example.org/notes.xml", "https://example.com/field.xml",
                "https://example.org/plain.xml",
            ])
        #expect(feeds[0].tags == ["tech", "open source"] && feeds[0].title == "Herald Notes")
        #expect(feeds[1].title == "Field" && feeds[1].tags == ["nature"])
        #expect(feeds[2].tags.isEmpty && feeds[2].title == nil)
    }
}
