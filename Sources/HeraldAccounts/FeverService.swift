public import Foundation
public import HeraldFetch

/// A client of the Fever API as FreshRSS (`…/api/fever.php`) and Miniflux (`…/fever/`)
/// serve it.
///
/// Every call POSTs `api_key`, md5 of `login:password`; an answer with `auth` 0 is a
/// refused login. Items come 50 to a page (the protocol's fixed size), oldest first, after
/// the highest id seen (`since_id`: the cursor). Marks go one item per request, and only
/// where the server's flag differs (Miniflux toggles the star for `saved` and `unsaved`
/// alike). Fever cannot subscribe or unsubscribe.
public actor FeverService: AccountService {
    public nonisolated let abilities = AccountAbilities(subscribe: false, unsubscribe: false)

    private let http: AccountHTTP
    private let endpoint: URL
    private let apiKey: String

    /// Mark requests in flight at once.
    static let marksAtOnce = 4

    /// `endpoint` is the API's address itself (`…/api/fever.php`, `…/fever/`).
    public init(endpoint: URL, login: String, password: String, fetcher: FeedFetcher) {
        self.http = AccountHTTP(base: endpoint, fetcher: fetcher)
        self.endpoint = endpoint
        self.apiKey = MD5.hex("\(login):\(password)")
    }

    // MARK: AccountService

    public func logIn() async throws(AccountError) {
        _ = try await call([])
    }

    public func feeds() async throws(AccountError) -> [RemoteFeed] {
        // Miniflux answers one member per request: the groups and the feeds apart.
        async let groups = answer(["groups"])
        async let feeds = answer(["feeds"])
        let (grouped, listed) = (try await groups.get(), try await feeds.get())
        guard let list = listed.feeds else { throw .badResponse("the Fever answer holds no feeds") }
        return FeverJSON.feeds(
            list, groups: grouped.groups ?? [], feedsGroups: grouped.feedsGroups ?? listed.feedsGroups ?? [])
    }

    public func items(after cursor: String?, limit: Int) async throws(AccountError) -> RemoteItemPage {
        let since = max(cursor.flatMap { Int64($0) } ?? 0, 0)
        let answer = try await call(["items", "since_id=\(since)"])
        guard let items = answer.items else { throw .badResponse("the Fever answer holds no items") }
        var newer: [(id: Int64, item: FeverJSON.Item)] = []
        for (index, item) in items.enumerated() {
            guard let id = item.id.int64 else { throw .badResponse("items[\(index)].id is not a number") }
            // A server that ignored since_id would otherwise give the same page forever.
            if id > since { newer.append((id, item)) }
        }
        newer.sort { $0.id < $1.id }
        let page = newer.prefix(max(limit, 1))
        return RemoteItemPage(
            items: await RemoteItems.make(page.map(\.item), \FeverJSON.Item.remoteItem),
            cursor: String(page.last?.id ?? since),
            more: !page.isEmpty)
    }

    public func states() async throws(AccountError) -> RemoteStates {
        async let unread = answer(["unread_item_ids"])
        async let saved = answer(["saved_item_ids"])
        let (unreadAnswer, savedAnswer) = (try await unread.get(), try await saved.get())
        guard let unreadIDs = unreadAnswer.unreadItemIDs, let savedIDs = savedAnswer.savedItemIDs else {
            throw .badResponse("the Fever answer holds no unread_item_ids or saved_item_ids")
        }
        return RemoteStates(unread: Set(FeverJSON.ids(unreadIDs)), starred: Set(FeverJSON.ids(savedIDs)))
    }

    public func send(_ changes: [RemoteFlagChange]) async throws(AccountError) {
        // A change sets a flag: only each item's last change of each flag counts.
        var final: [String: RemoteFlagChange] = [:]
        var order: [String] = []
        for change in changes where Int64(change.itemID) != nil {
            let key = change.flag.rawValue + " " + change.itemID
            if final.updateValue(change, forKey: key) == nil { order.append(key) }
        }
        guard !order.isEmpty else { return }
        let server = try await states()
        let marks = order.compactMap { key -> (id: String, as: String)? in
            guard let change = final[key] else { return nil }
            switch change.flag {
            case .read:
                let read = !server.unread.contains(change.itemID)
                return read == change.value ? nil : (change.itemID, change.value ? "read" : "unread")
            case .starred:
                let starred = server.starred.contains(change.itemID)
                return starred == change.value ? nil : (change.itemID, change.value ? "saved" : "unsaved")
            }
        }
        try await markAll(marks)
    }

    public func subscribe(url: String, category: String?) async throws(AccountError) -> RemoteFeed {
        throw .unsupported("the Fever API cannot subscribe to feeds")
    }

    public func unsubscribe(feedID: String) async throws(AccountError) {
        throw .unsupported("the Fever API cannot unsubscribe from feeds")
    }

    // MARK: Requests

    /// Marks items, `marksAtOnce` requests at a time; the first failure is thrown once the
    /// requests in flight have ended.
    private func markAll(_ marks: [(id: String, as: String)]) async throws(AccountError) {
        let failure = await withTaskGroup(of: AccountError?.self) { group -> AccountError? in
            var pending = marks[...]
            var failure: AccountError?
            for _ in 0..<Self.marksAtOnce {
                guard let mark = pending.popFirst() else { break }
                group.addTask { await self.mark(mark) }
            }
            for await outcome in group {
                if let outcome, failure == nil { failure = outcome }
                if failure == nil, let mark = pending.popFirst() { group.addTask { await self.mark(mark) } }
            }
            return failure
        }
        if let failure { throw failure }
    }

    private func mark(_ mark: (id: String, as: String)) async -> AccountError? {
        do throws(AccountError) {
            _ = try await call([], [("mark", "item"), ("as", mark.as), ("id", mark.id)])
            return nil
        } catch {
            return error
        }
    }

    private func answer(_ members: [String]) async -> Result<FeverJSON.Answer, AccountError> {
        do throws(AccountError) { return .success(try await call(members)) } catch { return .failure(error) }
    }

    /// POSTs the key (and `fields`) to `endpoint?api&members…`: the answer, its key accepted.
    private func call(_ members: [String], _ fields: [(String, String)] = []) async throws(AccountError)
        -> FeverJSON.Answer
    {
        var address = endpoint.absoluteString
        if let fragment = address.firstIndex(of: "#") { address = String(address[..<fragment]) }
        address += (address.contains("?") ? "&" : "?") + (["api"] + members).joined(separator: "&")
        guard let url = URL(string: address) else {
            throw .configuration("the Fever API's address is not a URL")
        }
        let data = try await http.postForm(url, [("api_key", apiKey)] + fields)
        let answer = try AccountJSON.decode(FeverJSON.Answer.self, from: data, "the Fever answer")
        guard answer.auth?.text == "1" else {
            throw .unauthorized("the server refused the user name or the API password")
        }
        return answer
    }
}
