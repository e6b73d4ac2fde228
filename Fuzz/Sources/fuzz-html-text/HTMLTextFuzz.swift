import Foundation
import FuzzSupport
import HeraldCore

/// Article HTML made rich text (libxml2's HTML parser, then `HTMLWriter`), then laid out at
/// a narrow, a tiny and an ordinary width; and the same bytes as a web page whose alternate
/// feeds `herald add` looks for.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTMLText(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let html = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    let processed = HTMLText.process(html, baseURL: "https://example.org/blog/post.html")
    Invariant.body(processed.text, "the text")
    for (index, link) in processed.links.enumerated() {
        Invariant.oneLine(link, "link \(index + 1)")
    }
    for width in [1, 3, 20 + count % 61] {
        Invariant.fits(RichLayout.lines(processed.rich, width: width), width: width, "width \(width)")
    }
    let page = Data(bytes: start, count: count)
    for feed in FeedDiscovery.alternateFeeds(in: page, pageURL: "https://example.org/blog/") {
        Invariant.oneLine(feed.url, "a discovered feed's address")
        feed.title.map { Invariant.oneLine($0, "a discovered feed's title") }
    }
    return 0
}
