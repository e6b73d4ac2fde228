import Foundation
import FuzzSupport
import HeraldCore
import HeraldNewsboat

/// What `herald import` reads: the bytes as OPML, the same as a newsboat urls file, and every
/// address found (and the whole input) through the address policy from each origin.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSubscriptions(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    var addresses: [String] = []
    if let listed = try? OPML.parseListed(data) {
        for entry in listed {
            entry.subscription.title.map { Invariant.oneLine($0, "an OPML title") }
            entry.subscription.tags.forEach { Invariant.oneLine($0, "an OPML tag") }
            Invariant.require(entry.line >= 0, "an OPML outline on line \(entry.line)")
        }
        // What may be subscribed to comes back from an export with its title (one without a
        // title is exported with its address as its text, OPML's required attribute).
        let kept = listed.map(\.subscription).filter {
            (try? FeedAddress.check($0.url, from: .listed)) != nil
        }
        let again = (try? OPML.parse(Data(OPML.export(kept).utf8))) ?? []
        Invariant.require(
            again.map(\.url) == kept.map(\.url)
                && again.map({ $0.title == $0.url ? nil : $0.title })
                    == kept.map({ $0.title == $0.url ? nil : $0.title }),
            "OPML export and import changed \(kept) into \(again)")
        addresses += listed.map(\.subscription.url)
    }
    let text = String(decoding: data, as: UTF8.self)
    let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
    for entry in NewsboatURLs.parseListed(text) {
        entry.subscription.title.map { Invariant.oneLine($0, "a urls title") }
        entry.subscription.tags.forEach { Invariant.oneLine($0, "a urls tag") }
        Invariant.require((1...lines).contains(entry.line), "a urls entry on line \(entry.line) of \(lines)")
        addresses.append(entry.subscription.url)
    }
    addresses.append(text)
    for address in addresses {
        for origin in [FeedAddress.Origin.typed, .listed, .discovered] {
            guard let accepted = try? FeedAddress.check(address, from: origin) else { continue }
            Invariant.address(accepted, "an accepted address")
            Invariant.require(
                !accepted.unicodeScalars.contains(where: \.properties.isWhitespace),
                "an accepted address holds white space: \(accepted.debugDescription)")
            Invariant.require(
                accepted.utf8.count <= FeedAddress.maximumLength, "an accepted address is too long")
            let scheme = URL(string: accepted)?.scheme?.lowercased()
            Invariant.require(
                scheme == "http" || scheme == "https" || (scheme == "file" && origin == .typed),
                "\(accepted.debugDescription) accepted from \(origin)")
        }
    }
    return 0
}
