import Foundation
import HeraldCore
import HeraldFetch

/// Articles and their flags: `getHeadlines` and `updateArticle`.
extension TinyTinyRSSService {
    /// New articles (ids above the cursor's; nil: every article), newest first, in pages of
    /// at most `limit` (and at most 200: TT-RSS's cap). The cursor of a page with `more`
    /// false is where the next sync starts (see `TinyTinyRSSPaging`). A page too large for
    /// the fetcher is asked for again in halves.
    ///
    /// While the caller stores a page, the next one is already asked for (the server's time
    /// and the caller's overlap): a call with the cursor just returned takes it; any other
    /// call drops it.
    public func items(after cursor: String?, limit: Int) async throws(AccountError) -> RemoteItemPage {
        let page: RemoteItemPage
        if let next = nextPage, next.cursor == cursor, next.limit == limit {
            nextPage = nil
            page = try await next.task.value.get()
        } else {
            nextPage?.task.cancel()
            nextPage = nil
            page = try await fetchPage(after: cursor, limit: limit)
        }
        if page.more, let cursor = page.cursor {
            let task = Task { () -> Result<RemoteItemPage, AccountError> in
                do throws(AccountError) {
                    return .success(try await self.fetchPage(after: cursor, limit: limit))
                } catch {
                    return .failure(error)
                }
            }
            nextPage = NextPage(cursor: cursor, limit: limit, task: task)
        }
        return page
    }

    public func dropAhead() async {
        nextPage?.task.cancel()
        nextPage = nil
    }

    private func fetchPage(after cursor: String?, limit: Int) async throws(AccountError) -> RemoteItemPage {
        var paging = cursor.flatMap(TinyTinyRSSPaging.init(cursor:)) ?? TinyTinyRSSPaging(since: 0)
        var wanted = max(1, limit)
        let tooLarge = await tooLargeWords()
        while true {
            let requested = paging.requestSize(wanted: wanted)
            let headlines: [TinyTinyRSSReply.Headline]
            do {
                headlines = try await call(
                    "getHeadlines",
                    Self.headlineQuery(feed: -4, viewMode: "all_articles", content: true)
                        .merging(
                            [
                                "since_id": .number(paging.since), "skip": .number(paging.skip),
                                "limit": .number(requested),
                            ]
                        ) { $1 },
                    as: [TinyTinyRSSReply.Headline].self)
            } catch .unreachable(let why) where why == tooLarge && wanted > 1 {
                wanted /= 2
                continue
            }
            let ids = headlines.map(\.id.value)
            guard ids.allSatisfy({ $0 > 0 }) else {
                throw .badResponse("an article id that is not a positive number")
            }
            let step = try Self.advance(&paging, ids: ids, requested: requested)
            let items = await Self.remoteItems(Array(headlines[step.deliver]))
            return RemoteItemPage(
                items: items, cursor: step.more ? paging.cursor : paging.finalCursor, more: step.more)
        }
    }

    /// Headlines as items, in their order, made on every core (an article's HTML is read
    /// into text: most of a page's time here).
    static func remoteItems(_ headlines: [TinyTinyRSSReply.Headline]) async -> [RemoteItem] {
        let pieces = max(1, min(ProcessInfo.processInfo.activeProcessorCount, headlines.count / 25))
        guard pieces > 1 else { return headlines.map(item) }
        let size = (headlines.count + pieces - 1) / pieces
        return await withTaskGroup(of: (Int, [RemoteItem]).self) { group in
            for start in stride(from: 0, to: headlines.count, by: size) {
                let piece = Array(headlines[start..<min(start + size, headlines.count)])
                group.addTask { (start, piece.map(item)) }
            }
            var made: [(Int, [RemoteItem])] = []
            for await piece in group { made.append(piece) }
            return made.sorted { $0.0 < $1.0 }.flatMap(\.1)
        }
    }

    /// Every unread article's id (feed -4, all articles, in the unread view) and every starred
    /// one's (feed -1, "Starred articles"), 200 ids a request: the least TT-RSS's API allows
    /// (it has no call that lists ids alone, and each article listed costs it about a
    /// millisecond: its HTML is parsed for a picture even when the content is not asked for).
    /// The two lists are walked one after the other (see `TinyTinyRSSService` on sessions).
    public func states() async throws(AccountError) -> RemoteStates {
        let unread = try await flaggedIDs(feed: -4, viewMode: "unread") { $0.unread.value }
        let starred = try await flaggedIDs(feed: -1, viewMode: "all_articles") { $0.marked.value }
        return RemoteStates(unread: unread, starred: starred)
    }

    /// Sends flag changes with `updateArticle`: one call for each flag and value (the
    /// articles' ids joined by commas, 500 a call), of each article's flag the last value
    /// asked for (each call sets a value, so only the last of one article's changes to one
    /// flag decides, as if they had been sent one by one in order). Ids that are not TT-RSS's
    /// (not positive integers) can never apply and are left out.
    public func send(_ changes: [RemoteFlagChange]) async throws(AccountError) {
        struct Key: Hashable {
            let id: Int
            let flag: RemoteFlag
        }
        struct Batch: Hashable {
            let flag: RemoteFlag
            let value: Bool
        }
        var last: [Key: Bool] = [:]
        var order: [Key] = []
        for change in changes {
            guard let id = Self.serverNumber(change.itemID) else { continue }
            let key = Key(id: id, flag: change.flag)
            if last.updateValue(change.value, forKey: key) == nil { order.append(key) }
        }
        var batches: [Batch: [Int]] = [:]
        var batchOrder: [Batch] = []
        for key in order {
            let batch = Batch(flag: key.flag, value: last[key] ?? false)
            if batches[batch] == nil { batchOrder.append(batch) }
            batches[batch, default: []].append(key.id)
        }
        for batch in batchOrder {
            let ids = batches[batch] ?? []
            // `field` 2 is `unread`, 0 is `marked`; `mode` 1 sets it, 0 clears it.
            let (field, mode) = batch.flag == .read ? (2, batch.value ? 0 : 1) : (0, batch.value ? 1 : 0)
            for start in stride(from: 0, to: ids.count, by: 500) {
                let chunk = ids[start..<min(start + 500, ids.count)]
                _ = try await call(
                    "updateArticle",
                    [
                        "article_ids": .text(chunk.map(String.init).joined(separator: ",")),
                        "field": .number(field), "mode": .number(mode),
                    ], as: TinyTinyRSSReply.Ignored.self)
            }
        }
    }

    // MARK: Pieces

    /// The ids of a whole list whose articles pass `holds`, walked with the overlap check.
    private func flaggedIDs(
        feed: Int, viewMode: String, holds: (TinyTinyRSSReply.Flags) -> Bool
    ) async throws(AccountError) -> Set<String> {
        var paging = TinyTinyRSSPaging(since: 0)
        var ids = Set<String>()
        var pages = 0
        while true {
            let requested = paging.requestSize(wanted: TinyTinyRSSPaging.largestPage)
            let page = try await call(
                "getHeadlines",
                Self.headlineQuery(feed: feed, viewMode: viewMode, content: false)
                    .merging(["skip": .number(paging.skip), "limit": .number(requested)]) { $1 },
                as: [TinyTinyRSSReply.Flags].self)
            for flags in page where flags.id.value > 0 && holds(flags) {
                ids.insert(String(flags.id.value))
            }
            let step = try Self.advance(&paging, ids: page.map(\.id.value), requested: requested)
            pages += 1
            if !step.more { return ids }
            if pages >= Self.mostPages {
                throw .badResponse("TT-RSS's list of articles did not end after \(Self.mostPages) pages")
            }
        }
    }

    /// The most pages a list is walked for: a million articles.
    static let mostPages = 5000

    /// Moves a walk on, refusing a server that does not page (a full page and nothing new).
    static func advance(_ paging: inout TinyTinyRSSPaging, ids: [Int], requested: Int) throws(AccountError)
        -> TinyTinyRSSPaging.Step
    {
        let step = paging.advance(ids: ids, requested: requested)
        if step.more, step.deliver.isEmpty, ids.count >= requested {
            throw .badResponse(
                "TT-RSS answered the same articles again for the next page (does it page by skip?)")
        }
        return step
    }

    static func headlineQuery(feed: Int, viewMode: String, content: Bool) -> [String: TinyTinyRSSValue] {
        [
            "feed_id": .number(feed), "is_cat": .flag(false), "view_mode": .text(viewMode),
            "show_content": .flag(content), "include_attachments": .flag(content),
            "show_excerpt": .flag(false),
            "sanitize": .flag(false), "include_nested": .flag(false),
        ]
    }

    /// A headline as Herald's item: its text made from its HTML, its links and enclosures
    /// checked (`ServerItem`). TT-RSS's `updated` is the article's own date.
    static func item(_ headline: TinyTinyRSSReply.Headline) -> RemoteItem {
        let date = headline.updated.flatMap {
            $0.value > 0 ? Date(timeIntervalSince1970: TimeInterval($0.value)) : nil
        }
        let enclosures = (headline.attachments ?? []).compactMap { attachment -> Enclosure? in
            guard let url = attachment.url, !url.isEmpty else { return nil }
            return Enclosure(
                url: url, type: attachment.type.flatMap { $0.isEmpty ? nil : $0 },
                length: attachment.length?.value.flatMap { $0 > 0 ? Int64($0) : nil },
                title: attachment.title.flatMap { $0.isEmpty ? nil : $0 })
        }
        let item = ServerItem.make(
            id: String(headline.id.value), title: headline.title, link: headline.link,
            author: headline.author,
            published: date, updated: nil, html: headline.content, enclosures: enclosures)
        // Feed 0 is TT-RSS's "Archived articles": starred articles of a feed unsubscribed from.
        return RemoteItem(
            item: item, feedID: String(max(0, headline.feedID?.value ?? 0)), read: !headline.unread.value,
            starred: headline.marked.value)
    }

    /// The words of the fetcher's error for a body over its size cap.
    private func tooLargeWords() async -> String {
        FetchError.tooLarge(limit: await http.fetcher.limits.maxBytes).description
    }
}
