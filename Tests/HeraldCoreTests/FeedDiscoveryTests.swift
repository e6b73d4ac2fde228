import Foundation
import Testing

@testable import HeraldCore

@Suite("Feed discovery")
struct FeedDiscoveryTests {
    @Test("alternate feed links are found in page order, absolute, without duplicates or stylesheets")
    func finds() {
        let html = """
            <html><head><link rel="stylesheet" href="/s.css">
            <link rel="alternate" type="application/rss+xml" title="Posts" href="/feed.xml">
            <LINK REL="Alternate" TYPE="application/atom+xml" HREF="atom.xml">
            <link rel="alternate" type="application/rss+xml" href="/feed.xml">
            <link rel="alternate" type="text/html" hreflang="ko" href="/ko/">
            </head><body></body></html>
            """
        let feeds = FeedDiscovery.alternateFeeds(in: Data(html.utf8), pageURL: "https://blog.example/posts/")
        #expect(feeds.map(\.url) == ["https://blog.example/feed.xml", "https://blog.example/posts/atom.xml"])
        #expect(feeds.first?.title == "Posts")
    }

    @Test("a page without feed links, or not HTML at all, gives none")
    func none() {
        #expect(FeedDiscovery.alternateFeeds(in: Data("<html><body>hi</body></html>".utf8), pageURL: "https://e.org/").isEmpty)
        #expect(FeedDiscovery.alternateFeeds(in: Data(), pageURL: "https://e.org/").isEmpty)
    }
}
