import Foundation
import FuzzSupport
import HeraldCore

/// Charsets an HTTP response might name, picked by the input's length so a crash replays
/// from the input alone.
let charsets: [String?] = [
    nil, "utf-8", "iso-8859-1", "windows-1252", "shift_jis", "euc-kr", "utf-16", "x-none",
]

/// Any feed document as a reload reads it (`FeedParser` sends JSON to the JSON Feed parser,
/// the rest to libxml2's SAX parser), HTML bodies made text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLFeed(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    let charset = charsets[count % charsets.count]
    if let feed = try? FeedParser.parse(data, baseURL: "https://example.org/feed/", httpCharset: charset) {
        Invariant.feed(feed)
    }
    return 0
}
