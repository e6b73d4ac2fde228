@testable import HeraldAccounts
import Testing

/// The walk through a TT-RSS article list that moves while it is read (`TinyTinyRSSPaging`),
/// against a list modelled here: ids in the server's order, newest first.
@Suite struct TinyTinyRSSPagingTests {
    /// Walks `list` (changed by `change` before each page after the first) with pages of
    /// `wanted`; every id delivered, and the cursor it ends with.
    func walk(
        _ list: [Int], since: Int = 0, wanted: Int, change: (inout [Int], Int) -> Void = { _, _ in }
    ) -> (delivered: [Int], cursor: String, pages: Int) {
        var list = list
        var paging = TinyTinyRSSPaging(since: since)
        var delivered: [Int] = []
        var pages = 0
        while pages < 1000 {
            if pages > 0 { change(&list, pages) }
            // Each page goes through its cursor, as the engine hands it back.
            paging = TinyTinyRSSPaging(cursor: paging.cursor) ?? TinyTinyRSSPaging(since: -1)
            let requested = paging.requestSize(wanted: wanted)
            let visible = list.filter { $0 > paging.since }
            let page = Array(visible.dropFirst(paging.skip).prefix(requested))
            let step = paging.advance(ids: page, requested: requested)
            delivered += page[step.deliver]
            pages += 1
            if !step.more { return (delivered, paging.finalCursor, pages) }
        }
        return (delivered, "endless", pages)
    }

    @Test("a still list is delivered once each, and ends at its highest id")
    func stillList() {
        let list = Array((1...23).reversed())
        let result = walk(list, wanted: 5)
        #expect(result.delivered == list)
        #expect(result.cursor == "23")
    }

    @Test("a next sync starts above the cursor")
    func since() {
        let result = walk(Array((1...30).reversed()), since: 24, wanted: 4)
        #expect(result.delivered == [30, 29, 28, 27, 26, 25])
        #expect(result.cursor == "30")
        #expect(walk([], since: 30, wanted: 4).cursor == "30")
    }

    @Test("articles arriving on top repeat some, miss none, and are left to the next sync")
    func arrivals() {
        let result = walk(Array((1...40).reversed()), wanted: 6) { list, page in
            list.insert(contentsOf: [100 + 2 * page, 99 + 2 * page], at: 0)
        }
        #expect(Set(1...40).isSubset(of: Set(result.delivered)))
        // The list moved: the next sync starts at the first page's highest.
        #expect(result.cursor == "40")
    }

    @Test("articles going away above the walk make it back up, and it misses none still there")
    func departures() {
        let result = walk(Array((1...60).reversed()), wanted: 6) { list, page in
            // Ten at once of those already passed go on the third page.
            if page == 3 { list.removeFirst(10) }
        }
        #expect(Set(1...50).isSubset(of: Set(result.delivered)))
        #expect(result.cursor == "60")
    }

    @Test("when the anchor itself goes, the walk starts again from the top")
    func anchorGone() {
        var removed = 0
        let result = walk(Array((1...30).reversed()), wanted: 5) { list, page in
            if page == 2, let index = list.firstIndex(of: 21) {
                list.remove(at: index)
                removed = 21
            }
        }
        #expect(removed == 21)
        #expect(Set((1...30).filter { $0 != 21 }).isSubset(of: Set(result.delivered)))
    }

    @Test(
        "an article arriving below the walk while the list above holds still is seen, and the cursor passes it"
    )
    func arrivalBelow() {
        // Higher scores first: an article of score 0 arriving sorts among the old ones.
        let result = walk([9, 8, 7, 6, 5, 4, 3, 2, 1], wanted: 3) { list, page in
            if page == 1 { list.insert(50, at: 7) }
        }
        #expect(Set(result.delivered) == Set(1...9).union([50]))
        #expect(result.cursor == "50")
    }

    @Test(
        "when the list moved, the cursor is the first page's highest id: an article above may have been missed"
    )
    func arrivalsAboveAndBelow() {
        let result = walk([9, 8, 7, 6, 5, 4, 3, 2, 1], wanted: 3) { list, page in
            if page == 1 {
                list.insert(60, at: 0)
                list.insert(61, at: 8)
            }
        }
        #expect(result.delivered.contains(61) && !result.delivered.contains(60))
        #expect(result.cursor == "9")
        // The next sync starts there and gets both.
        #expect(Set(walk([61, 60, 9, 8, 7], since: 9, wanted: 3).delivered) == [60, 61])
    }

    @Test("cursors are read back, and anything else starts over")
    func cursorText() {
        #expect(TinyTinyRSSPaging(cursor: "120") == TinyTinyRSSPaging(since: 120))
        var within = TinyTinyRSSPaging(since: 7)
        within.skip = 196
        within.top = 900
        within.anchor = 455
        within.expected = 3
        within.highest = 910
        #expect(within.cursor == "7:196:900:455:3:910")
        #expect(TinyTinyRSSPaging(cursor: within.cursor) == within)
        within.highest = nil
        #expect(TinyTinyRSSPaging(cursor: within.cursor) == within)
        for bad in [
            "", "x", "-3", "1:2:3", "1:2:x:4:0:5", "1:2:3:4:5:6:7", "99999999999999999999",
            "tag:google.com,2005:reader/item/1",
        ] {
            #expect(TinyTinyRSSPaging(cursor: bad) == nil)
        }
    }

    @Test("a page never asks for more than TT-RSS's 200")
    func requestSize() {
        var paging = TinyTinyRSSPaging(since: 0)
        #expect(paging.requestSize(wanted: 1000) == 200)
        #expect(paging.requestSize(wanted: 0) == 1)
        paging.anchor = 5
        #expect(paging.requestSize(wanted: 3) == 3 + TinyTinyRSSPaging.overlap)
    }
}
