public import Foundation
import HeraldCore
public import HeraldFetch

/// A client of the Google Reader API as FreshRSS (`…/api/greader.php`), Miniflux (its
/// root), Inoreader and The Old Reader serve it. (Inoreader also wants its `AppId` and
/// `AppKey` headers, which are not sent yet.)
///
/// It logs in with `ClientLogin` (the account's API password), sends the answer's `Auth`
/// as `Authorization: GoogleLogin auth=…`, and signs every POST with the edit token of
/// `/reader/api/0/token`. A refused session is logged into again once; a refused POST
/// fetches the token again once. Items come oldest first, `limit` to a page, from where the
/// last sync got to (see `GoogleReaderCursor` and `GoogleReaderPaging.swift`).
public actor GoogleReaderService: AccountService {
    public nonisolated let abilities = AccountAbilities(subscribe: true, unsubscribe: true)

    let http: AccountHTTP
    let login: String
    let password: String
    /// The session (`Auth=` of ClientLogin) and the edit token, once known (see
    /// `GoogleReaderSession.swift`).
    var auth: String?
    var token: String?
    /// A login or a token request in flight, which every caller needing one waits for.
    var pendingLogin: Task<Result<String, AccountError>, Never>?
    var pendingToken: Task<Result<String, AccountError>, Never>?
    /// The next page of items, asked for ahead (see `GoogleReaderPaging.swift`).
    var prefetched: (key: String, task: Task<Result<Data?, AccountError>, Never>)?

    /// Ids asked of `stream/items/ids` at once: FreshRSS has no cap; servers that have one
    /// page with `continuation`.
    static let idsPerRequest = 20_000
    /// Items marked by one `edit-tag` request.
    static let idsPerEdit = 250

    /// `apiBase` is where `/accounts/ClientLogin` and `/reader/api/0/…` live.
    public init(apiBase: URL, login: String, password: String, fetcher: FeedFetcher) {
        self.http = AccountHTTP(base: apiBase, fetcher: fetcher)
        self.login = login
        self.password = password
    }

    // MARK: AccountService

    public func logIn() async throws(AccountError) {
        _ = try await authorization(replacing: auth)
    }

    public func feeds() async throws(AccountError) -> [RemoteFeed] {
        let data = try await get("/reader/api/0/subscription/list", [("output", "json")])
        let list = try AccountJSON.decode(
            GoogleReaderJSON.SubscriptionList.self, from: data, "the subscription list")
        return list.subscriptions.map(\.remoteFeed)
    }

    public func states() async throws(AccountError) -> RemoteStates {
        // Two requests at once: the unread ids and the starred ones.
        async let unread = ids([("s", GoogleReaderID.readingList), ("xt", GoogleReaderID.read)])
        async let starred = ids([("s", GoogleReaderID.starred)])
        return RemoteStates(unread: try await unread.get(), starred: try await starred.get())
    }

    public func send(_ changes: [RemoteFlagChange]) async throws(AccountError) {
        for batch in Self.editBatches(changes) {
            let tag = batch.flag == .read ? GoogleReaderID.read : GoogleReaderID.starred
            var fields = [(batch.value ? "a" : "r", tag)]
            fields += batch.ids.map { ("i", GoogleReaderID.long($0)) }
            try expectOK(try await post("/reader/api/0/edit-tag", fields), "edit-tag")
        }
    }

    public func subscribe(url: String, category: String?) async throws(AccountError) -> RemoteFeed {
        let data = try await post("/reader/api/0/subscription/quickadd", [("quickadd", url)])
        let added = try AccountJSON.decode(GoogleReaderJSON.QuickAdd.self, from: data, "the subscription")
        guard let streamID = added.streamId, !streamID.isEmpty, (added.numResults?.int64 ?? 1) > 0 else {
            // Already subscribed: FreshRSS refuses it; the feed as it is listed is the answer.
            if let listed = try await feeds().first(where: { $0.url == url }) { return listed }
            let why = added.error.map { ": " + AccountValue.message($0) } ?? ""
            throw .refused("the server did not subscribe to \(AccountValue.message(url))\(why)")
        }
        if let category, !category.isEmpty {
            let fields = [("ac", "edit"), ("s", streamID), ("a", GoogleReaderID.labelPrefix + category)]
            try expectOK(try await post("/reader/api/0/subscription/edit", fields), "subscription/edit")
        }
        if let listed = try await feeds().first(where: { $0.id == streamID }) { return listed }
        return RemoteFeed(
            id: streamID, url: ServerItem.url(added.query) ?? url,
            title: AccountValue.message(added.streamName ?? url), categories: category.map { [$0] } ?? [])
    }

    public func unsubscribe(feedID: String) async throws(AccountError) {
        let fields = [("ac", "unsubscribe"), ("s", feedID)]
        try expectOK(try await post("/reader/api/0/subscription/edit", fields), "subscription/edit")
    }

    // MARK: States

    /// Every id of a stream (`s`, filtered by `xt`), page after page, in the long form.
    private func ids(_ stream: [(String, String)]) async -> Result<Set<String>, AccountError> {
        do throws(AccountError) {
            return .success(Set(try await itemRefs(stream).map(GoogleReaderID.long)))
        } catch {
            return .failure(error)
        }
    }

    /// Every item id `stream/items/ids` gives for `query` (`s`, `xt`, `ot`, `r`), page after
    /// page, as the server writes them (decimal).
    func itemRefs(_ query: [(String, String)]) async throws(AccountError) -> [String] {
        var ids: [String] = []
        var continuation: String?
        repeat {
            var query = query + [("output", "json"), ("n", String(Self.idsPerRequest))]
            if let continuation { query.append(("c", continuation)) }
            let data = try await get("/reader/api/0/stream/items/ids", query)
            let page = try AccountJSON.decode(GoogleReaderJSON.ItemIDs.self, from: data, "the item ids")
            let refs = page.itemRefs ?? []
            ids += refs.map(\.id.text)
            // A continuation with no ids, or the one just followed, would page forever.
            let next = page.continuation?.text
            continuation = !refs.isEmpty && next != continuation && next?.isEmpty == false ? next : nil
        } while continuation != nil
        return ids
    }

    /// Changes as `edit-tag` requests: only each item's last change of each flag counts (a
    /// change sets the flag, it does not toggle it, so the earlier ones are overtaken), and
    /// the items taking the same change go together, `idsPerEdit` at a time.
    static func editBatches(_ changes: [RemoteFlagChange]) -> [(flag: RemoteFlag, value: Bool, ids: [String])]
    {
        var last: [String: Int] = [:]
        for (index, change) in changes.enumerated() {
            last[change.flag.rawValue + " " + change.itemID] = index
        }
        var batches: [(flag: RemoteFlag, value: Bool, ids: [String])] = []
        for flag in [RemoteFlag.read, .starred] {
            for value in [true, false] {
                let ids = changes.indices.filter { index in
                    let change = changes[index]
                    return change.flag == flag && change.value == value
                        && last[change.flag.rawValue + " " + change.itemID] == index
                }.map { changes[$0].itemID }
                for start in stride(from: 0, to: ids.count, by: idsPerEdit) {
                    batches.append((flag, value, Array(ids[start..<min(start + idsPerEdit, ids.count)])))
                }
            }
        }
        return batches
    }

    private func expectOK(_ data: Data, _ what: String) throws(AccountError) {
        let text = String(decoding: data.prefix(64), as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        guard text == "OK" else {
            throw .badResponse(
                "\(what) answered \(text.isEmpty ? "nothing" : AccountValue.message(text)), not OK")
        }
    }
}
