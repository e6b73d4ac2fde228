import Foundation
import Testing

@testable import HeraldAccounts

/// The Google Reader client's own arithmetic: cursors, item ids, edit batches.
@Suite struct GoogleReaderCursorTests {
    @Test("by time, the next sync starts a second before the newest crawl time's second")
    func byTimeTheNextSyncStartsBeforeTheNewestSecond() {
        let done = GoogleReaderCursor(
            since: nil, newest: 1_796_315_965_267_659, continuation: nil, idsAreCrawlTimes: false)
        let read = GoogleReaderCursor(done.text)
        #expect(read == done)
        #expect(read.requestSince == 1_796_315_964)
        #expect(!read.pagesByID)
    }

    @Test("where ids are crawl times, the next sync asks by id")
    func byIDWhereIDsAreCrawlTimes() {
        let done = GoogleReaderCursor(
            since: 5, newest: 1_796_315_965_267_659, continuation: nil, idsAreCrawlTimes: true)
        let read = GoogleReaderCursor(done.text)
        #expect(read.pagesByID && read.newest == done.newest)
        #expect(
            !GoogleReaderCursor(since: nil, newest: 0, continuation: nil, idsAreCrawlTimes: true).pagesByID)
    }

    @Test("within a sync, a cursor keeps the sync's start and its continuation")
    func midSyncKeepsItsStart() {
        let page = GoogleReaderCursor(
            since: 1_700_000_000, newest: 1_796_315_965_000_000, continuation: "17:x:y",
            idsAreCrawlTimes: true)
        let read = GoogleReaderCursor(page.text)
        #expect(read == page)
        #expect(read.requestSince == 1_700_000_000 && !read.pagesByID)
        let first = GoogleReaderCursor(
            since: nil, newest: 5_000_000, continuation: "42", idsAreCrawlTimes: false)
        #expect(GoogleReaderCursor(first.text).requestSince == nil)
    }

    @Test("no cursor, or one not understood, starts from the first item")
    func unreadableCursorStartsOver() {
        for text in [nil, "", "12345", "gr1:-:5:", "gr2:x:-:5:", "gr2:i:x:notanumber:", "gr2:t:-:-5:"] {
            let cursor = GoogleReaderCursor(text)
            #expect(
                cursor.requestSince == nil && cursor.continuation == nil && !cursor.pagesByID,
                "\(text ?? "nil")")
        }
    }

    @Test("item ids take the long form, from hex or decimal")
    func itemIDsTakeTheLongForm() {
        let long = "tag:google.com,2005:reader/item/000661bd67039ecb"
        #expect(GoogleReaderID.long("1796315965267659") == long)
        #expect(GoogleReaderID.long(long) == long)
        #expect(GoogleReaderID.long("tag:google.com,2005:reader/item/661BD67039ECB") == long)
        #expect(GoogleReaderID.long("-1") == "tag:google.com,2005:reader/item/ffffffffffffffff")
        #expect(GoogleReaderID.long("not-an-id") == "not-an-id")
        #expect(GoogleReaderID.label("user/-/label/Work") == "Work")
        #expect(GoogleReaderID.label("user/1005921515/label/A/B") == "A/B")
        #expect(GoogleReaderID.label("user/-/state/com.google/read") == nil)
    }

    @Test("edits keep each item's last change of each flag, grouped, 250 ids to a request")
    func editBatchesKeepTheLastChange() {
        var changes = (0..<600).map { RemoteFlagChange(itemID: "\($0)", flag: .read, value: true) }
        changes += [
            RemoteFlagChange(itemID: "7", flag: .read, value: false),
            RemoteFlagChange(itemID: "7", flag: .starred, value: true),
            RemoteFlagChange(itemID: "8", flag: .starred, value: true),
            RemoteFlagChange(itemID: "8", flag: .starred, value: false),
        ]
        let batches = GoogleReaderService.editBatches(changes)
        let read = batches.filter { $0.flag == .read && $0.value }
        #expect(read.map(\.ids.count) == [250, 250, 99])
        #expect(!read.contains { $0.ids.contains("7") })
        #expect(batches.filter { $0.flag == .read && !$0.value }.map(\.ids) == [["7"]])
        #expect(batches.filter { $0.flag == .starred && $0.value }.map(\.ids) == [["7"]])
        #expect(batches.filter { $0.flag == .starred && !$0.value }.map(\.ids) == [["8"]])
    }
}
