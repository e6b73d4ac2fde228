import Foundation
import HeraldCore

/// Where a sync of a Google Reader API account stands, written into `RemoteItemPage.cursor`.
///
/// The first sync pages through `stream/contents` of the reading list, oldest first
/// (`r=o`), following `continuation`. `newest` is the latest crawl time seen (microseconds).
/// A later sync asks for what the server took in since:
/// - when every item seen had its crawl time as its id (FreshRSS: an item's id is the
///   microsecond it was taken in, and `ot` compares ids), by id: the ids of the items taken
///   in since `newest`'s second (`stream/items/ids`, cheap), those above `newest`, and their
///   contents (`stream/items/contents`). Nothing new costs one request, however many items
///   share `newest`'s second (a server's fetch of 10,000 items takes them in within a second).
/// - otherwise by time: `stream/contents` with `ot` a second before `newest`'s second, so an
///   item taken in during that second, or by a server comparing `ot` strictly, comes again
///   rather than never (the store keeps one copy per id).
struct GoogleReaderCursor: Equatable {
    /// `ot` of this pass's requests; nil: from the very first item.
    var since: Int64?
    /// The latest crawl time seen, in microseconds (0: none yet).
    var newest: Int64
    /// The next page of this pass of `stream/contents`; nil: the pass is done.
    var continuation: String?
    /// Every item seen so far had its crawl time as its id.
    var idsAreCrawlTimes: Bool

    static let tag = "gr2"

    init(since: Int64?, newest: Int64, continuation: String?, idsAreCrawlTimes: Bool) {
        (self.since, self.newest, self.continuation) = (since, newest, continuation)
        self.idsAreCrawlTimes = idsAreCrawlTimes
    }

    /// A stored cursor; nil or unreadable: from the start (every item again, harmless).
    init(_ text: String?) {
        self.init(since: nil, newest: 0, continuation: nil, idsAreCrawlTimes: false)
        guard let text else { return }
        let parts = text.split(separator: ":", maxSplits: 4, omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == Self.tag, parts[1] == "i" || parts[1] == "t",
            let newest = Int64(parts[3]), newest >= 0
        else { return }
        self.newest = newest
        self.idsAreCrawlTimes = parts[1] == "i"
        if !parts[4].isEmpty {
            self.continuation = String(parts[4])
            self.since = Int64(parts[2])
        }
    }

    var text: String {
        "\(Self.tag):\(idsAreCrawlTimes ? "i" : "t"):\(since.map(String.init) ?? "-"):\(newest):\(continuation ?? "")"
    }

    /// Whether the next page is asked for by id (see the type's words).
    var pagesByID: Bool { continuation == nil && newest > 0 && idsAreCrawlTimes }

    /// `ot` for the next `stream/contents` request.
    var requestSince: Int64? {
        if continuation != nil { return since }
        return newest > 0 ? max(newest / 1_000_000 - 1, 0) : nil
    }
}

extension GoogleReaderService {
    public func items(after cursor: String?, limit: Int) async throws(AccountError) -> RemoteItemPage {
        let position = GoogleReaderCursor(cursor)
        if position.pagesByID { return try await itemsByID(after: position, limit: max(limit, 1)) }
        return try await itemsOfStream(from: position, limit: max(limit, 1))
    }

    /// A page of `stream/contents`, oldest first.
    private func itemsOfStream(from position: GoogleReaderCursor, limit: Int) async throws(AccountError)
        -> RemoteItemPage
    {
        let since = position.requestSince
        let (data, count) = try await smallEnough(limit) { count throws(AccountError) in
            try await streamPage(since: since, continuation: position.continuation, count: count)
        }
        let page = try AccountJSON.decode(GoogleReaderJSON.StreamContents.self, from: data, "the items")

        // Ids stand for times only on the evidence of every item seen, from the first sync on.
        var idsAreCrawlTimes =
            position.newest == 0 && position.continuation == nil || position.idsAreCrawlTimes
        var newest = position.newest
        for item in page.items {
            if let crawled = item.crawledMicroseconds, crawled > newest { newest = crawled }
            if !item.idIsCrawlTime { idsAreCrawlTimes = false }
        }
        // A continuation with no items, or the one just followed, would page forever.
        let continuation = page.continuation?.text
        let more =
            !page.items.isEmpty && continuation.map { !$0.isEmpty && $0 != position.continuation } ?? false
        let next = GoogleReaderCursor(
            since: since, newest: newest, continuation: more ? continuation : nil,
            idsAreCrawlTimes: idsAreCrawlTimes)
        if more, count == limit { prefetch(since: since, continuation: continuation, count: count) }
        return RemoteItemPage(
            items: await RemoteItems.make(page.items, \GoogleReaderJSON.Item.remoteItem), cursor: next.text,
            more: more)
    }

    /// A page of `stream/contents` (`count` items from `continuation`, taken in since `since`),
    /// the one asked for ahead when it is that one; nil when it is over the size cap.
    private func streamPage(since: Int64?, continuation: String?, count: Int) async throws(AccountError)
        -> Data?
    {
        let key = "\(since ?? -1) \(count) \(continuation ?? "")"
        if let ahead = prefetched {
            prefetched = nil
            // A page asked for ahead is a head start only: when it failed, it is asked for again.
            if ahead.key == key, case .success(let data) = await ahead.task.value { return data }
            if ahead.key != key { ahead.task.cancel() }
        }
        return try await itemPage(
            Self.readingList, query: Self.query(since: since, continuation: continuation, count: count))
    }

    private static let readingList = "/reader/api/0/stream/contents/" + GoogleReaderID.readingList

    /// The reading list's items, oldest first, `count` at most.
    private static func query(since: Int64?, continuation: String?, count: Int) -> [(String, String)] {
        var query: [(String, String)] = [("output", "json"), ("n", String(count)), ("r", "o")]
        if let since { query.append(("ot", String(since))) }
        if let continuation { query.append(("c", continuation)) }
        return query
    }

    /// Asks for the next page of a pass while the caller stores this one: the server makes it
    /// meanwhile (the larger part of a page's time, with a 3 MB page taking FreshRSS 0.15 s).
    private func prefetch(since: Int64?, continuation: String?, count: Int) {
        prefetched?.task.cancel()
        let query = Self.query(since: since, continuation: continuation, count: count)
        let task = Task { () -> Result<Data?, AccountError> in
            do throws(AccountError) {
                return .success(try await self.itemPage(Self.readingList, query: query))
            } catch {
                return .failure(error)
            }
        }
        prefetched = ("\(since ?? -1) \(count) \(continuation ?? "")", task)
    }

    public func dropAhead() async {
        prefetched?.task.cancel()
        prefetched = nil
    }

    /// The next `limit` items taken in after `position.newest`, by id.
    private func itemsByID(after position: GoogleReaderCursor, limit: Int) async throws(AccountError)
        -> RemoteItemPage
    {
        let refs = try await itemRefs([
            ("s", GoogleReaderID.readingList), ("ot", String(position.newest / 1_000_000)), ("r", "o"),
        ])
        let newer = refs.compactMap(GoogleReaderID.value).filter { $0 > UInt64(position.newest) }.sorted()
        guard let highest = newer.last, highest <= UInt64(Int64.max) else {
            return RemoteItemPage(items: [], cursor: position.text, more: false)
        }
        let (data, count) = try await smallEnough(min(limit, newer.count)) { count throws(AccountError) in
            let ids = newer.prefix(count).map { ("i", GoogleReaderID.long($0)) }
            return try await itemPage("/reader/api/0/stream/items/contents", form: [("output", "json")] + ids)
        }
        let page = try AccountJSON.decode(GoogleReaderJSON.StreamContents.self, from: data, "the items")
        // An item gone between the two requests is passed over with the others of the batch.
        let next = GoogleReaderCursor(
            since: nil, newest: Int64(newer[count - 1]), continuation: nil,
            idsAreCrawlTimes: page.items.allSatisfy(\.idIsCrawlTime))
        return RemoteItemPage(
            items: await RemoteItems.make(page.items, \GoogleReaderJSON.Item.remoteItem), cursor: next.text,
            more: newer.count > count)
    }

    /// A page asked for `limit` items at most, and, while its answer is over the fetcher's size
    /// cap (long articles), for half as many, down to one: the answer and how many it asked for.
    private func smallEnough(_ limit: Int, _ ask: (Int) async throws(AccountError) -> Data?)
        async throws(AccountError) -> (Data, Int)
    {
        var count = max(limit, 1)
        while true {
            if let data = try await ask(count) { return (data, count) }
            guard count > 1 else {
                let limit = await http.fetcher.limits.maxBytes
                throw .unreachable(
                    "one item alone is larger than \(limit / 1_048_576) MB, the size limit of an answer")
            }
            count /= 2
        }
    }
}
