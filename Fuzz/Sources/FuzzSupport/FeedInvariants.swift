public import HeraldCore

extension Invariant {
    /// What a parsed feed promises whatever the document held: titles and names on one clean
    /// line, bodies without terminal controls, addresses escaped, enclosures http(s). (Ids are
    /// opaque keys, kept as the feed wrote them: what prints one sanitises it.)
    public static func feed(_ feed: ParsedFeed) {
        oneLine(feed.title, "the feed's title")
        feed.siteURL.map { address($0, "the feed's site") }
        feed.feedURL.map { address($0, "the feed's own address") }
        for (index, item) in feed.items.enumerated() {
            let what = "item \(index)"
            oneLine(item.title, "\(what)'s title")
            require(!item.title.isEmpty, "\(what) has an empty title")
            item.author.map { oneLine($0, "\(what)'s author") }
            body(item.text, "\(what)'s text")
            item.link.map { address($0, "\(what)'s link") }
            item.image.map { address($0, "\(what)'s image") }
            for enclosure in item.enclosures {
                address(enclosure.url, "\(what)'s enclosure")
                let lower = enclosure.url.lowercased()
                require(
                    lower.hasPrefix("http://") || lower.hasPrefix("https://"),
                    "\(what)'s enclosure is not http(s): \(enclosure.url)")
                enclosure.type.map { oneLine($0, "\(what)'s enclosure type") }
                enclosure.title.map { oneLine($0, "\(what)'s enclosure title") }
                require((enclosure.length ?? 0) >= 0, "\(what)'s enclosure has a negative length")
                require((enclosure.duration ?? 1) > 0, "\(what)'s enclosure has a duration ≤ 0")
            }
            for date in [item.published, item.updated].compactMap({ $0 }) {
                require(date >= FeedDate.earliest, "\(what) is dated before 1900: \(date)")
            }
        }
    }
}
