import Foundation
import FuzzSupport
import HeraldCore

/// JSON Feed 1.0/1.1, in UTF-8, UTF-16 or UTF-32.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONFeed(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    if let feed = try? JSONFeedParser.parse(data) {
        Invariant.feed(feed)
    }
    return 0
}
