/// Where a walk through one of TT-RSS's article lists stands, and how the next page is asked
/// for: what makes paging safe on a server whose lists move while they are read.
///
/// TT-RSS pages `getHeadlines` by offset (`skip`) only, newest first (score, then the time
/// it fetched the article, then the article's date, then the id: `Feeds::queryFeedHeadlines`),
/// and filters by id only from below (`since_id`). Articles arrive at the top while a sync
/// reads, are purged, are marked read (leaving an unread list): an offset then points
/// elsewhere. So each page after the first asks again for the last `overlap` articles of the
/// one before, and the last one delivered, the anchor, must be among them:
/// - found: everything before it was delivered; what follows it is new (an article inserted
///   above it moved the list down: the page repeats some, which is harmless);
/// - not found: articles above it went away and the list moved up past the overlap, so some
///   may have been stepped over: the walk backs up a page at a time until it finds the anchor,
///   and starts again from the top if the anchor itself went away.
///
/// A sync of new articles (`since_id` = the stored cursor) ends at the highest id it saw when
/// the list held still under it (every anchor where it was expected). When the list moved, an
/// article TT-RSS fetched during the sync may sort below the walk's position (by score, or by
/// feed when the user groups by feed) while another sorts above it, unseen, with a lower id:
/// the sync then ends at the highest id of its first page instead, and the next sync repeats
/// what it saw above that (harmless) and gets what it missed.
struct TinyTinyRSSPaging: Equatable, Sendable {
    /// Articles above this id only (`since_id`; 0: all).
    var since: Int
    /// The offset of the next request.
    var skip = 0
    /// The highest id of the walk's first page (at least `since`).
    var top: Int?
    /// The last article delivered, and where in the next page it is expected.
    var anchor: Int?
    var expected = 0
    /// The highest id delivered while the list held still; nil once it moved.
    var highest: Int? = 0

    /// How many articles each page after the first asks for again.
    static let overlap = 4
    /// TT-RSS answers at most 200 articles a page (`API::getHeadlines`: a larger `limit` or
    /// none at all is read as 200).
    static let largestPage = 200

    init(since: Int) {
        self.since = since
    }

    /// `N` (a sync's end: articles above id N) or `N:skip:top:anchor:expected:highest` (within
    /// a sync; no anchor before the second page, no highest once the list moved); nil when it
    /// is neither (a cursor of another protocol: the walk starts over, which repeats articles
    /// but misses none).
    init?(cursor: String) {
        let fields = cursor.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 1 || fields.count == 6, let since = Self.number(fields[0]) else { return nil }
        self.since = since
        guard fields.count == 6 else { return }
        guard let skip = Self.number(fields[1]), let top = Self.number(fields[2]),
            let expected = Self.number(fields[4])
        else { return nil }
        (self.skip, self.top, self.expected) = (skip, top, expected)
        if !fields[3].isEmpty {
            guard let anchor = Self.number(fields[3]) else { return nil }
            self.anchor = anchor
        }
        if fields[5].isEmpty {
            highest = nil
        } else {
            guard let highest = Self.number(fields[5]) else { return nil }
            self.highest = highest
        }
    }

    /// What the walk's next call passes back.
    var cursor: String {
        // Before the first page there is nothing but where to start.
        guard let top else { return String(since) }
        let anchor = anchor.map(String.init) ?? ""
        return "\(since):\(skip):\(top):\(anchor):\(expected):\(highest.map(String.init) ?? "")"
    }

    /// The cursor a finished walk ends with.
    var finalCursor: String { String(max(top ?? since, since, highest ?? 0)) }

    /// How many articles to ask for when `wanted` new ones are wanted.
    func requestSize(wanted: Int) -> Int {
        min(Self.largestPage, max(1, wanted) + (anchor == nil ? 0 : Self.overlap))
    }

    /// What a page means.
    struct Step: Equatable {
        /// Which of the page's articles are new to this walk (a range of its indices).
        var deliver: Range<Int>
        /// Whether the walk goes on.
        var more: Bool
    }

    /// Takes in a page of `ids` (in the server's order) asked for with `requested` as the
    /// limit at `skip`; moves the walk on.
    mutating func advance(ids: [Int], requested: Int) -> Step {
        var start = 0
        if let anchor {
            if let index = ids.firstIndex(of: anchor) {
                start = index + 1
                if index != expected { highest = nil }
            } else if skip > 0 {
                // The list moved up past the overlap: back up and look for the anchor there.
                // The page's articles are delivered all the same (repeats are harmless).
                highest = nil
                skip = max(0, skip - (requested - Self.overlap))
                return Step(deliver: 0..<ids.count, more: true)
            } else {
                // The anchor itself is gone: walk the list again from the top.
                highest = nil
                self.anchor = nil
            }
        }
        if top == nil, skip == 0 {
            top = max(since, ids.max() ?? since)
        }
        if let seen = highest, let most = ids[start...].max() {
            highest = max(seen, most)
        }
        let ended = ids.count < requested
        if !ended, let last = ids.last {
            // The next page starts `overlap` articles back, the anchor among them.
            let back = min(Self.overlap, ids.count)
            anchor = last
            expected = back - 1
            skip += ids.count - back
        }
        return Step(deliver: start..<max(start, ids.count), more: !ended)
    }

    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.count < 19, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int(text)
    }
}
