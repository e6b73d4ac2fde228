import Foundation
import HeraldAccounts
import HeraldCore

/// A server account in memory, for the sync engine's logic (the real protocols are tested
/// against real servers). Items are numbered in order of arrival; the cursor is the last
/// number read. `failItemsAfter` makes `items` fail once that many pages were served (a
/// fault midway); `changedAt` dates the server's own changes, as TT-RSS does.
actor InMemoryServer: AccountService {
    nonisolated let abilities = AccountAbilities(subscribe: true, unsubscribe: true)
    var feedList: [RemoteFeed] = []
    var items: [RemoteItem] = []
    var unread: Set<String> = []
    var starred: Set<String> = []
    var changedAt: [String: Date] = [:]
    var sent: [RemoteFlagChange] = []
    var failItemsAfter: Int?
    var pagesServed = 0
    var down = false
    /// Counts as a fingerprint (as TT-RSS's counters), when set; how often `states` ran.
    var fingerprints = false
    /// What `subscribe` answers instead of subscribing, when set.
    var subscribeFailure: AccountError?
    var statesCalls = 0
    /// How often a sync dropped what was asked for ahead.
    var dropped = 0

    func addFeed(_ id: String, url: String, title: String, categories: [String] = []) {
        feedList.append(RemoteFeed(id: id, url: url, title: title, categories: categories))
    }

    func removeFeed(_ id: String) { feedList.removeAll { $0.id == id } }

    /// A new unread item of feed `feed`; returns its id.
    @discardableResult
    func addItem(feed: String, title: String) -> String {
        let id = "item-\(items.count + 1)"
        items.append(
            RemoteItem(
                item: ServerItem.make(
                    id: id, title: title, link: "https://example.org/\(id)", author: nil,
                    published: Date(timeIntervalSince1970: 1_790_000_000 + Double(items.count)), updated: nil,
                    html: "<p>\(title) text</p>"),
                feedID: feed, read: false, starred: false))
        unread.insert(id)
        return id
    }

    /// A change made on the server (another client), dated when given.
    func set(_ id: String, read: Bool? = nil, starred: Bool? = nil, at date: Date? = nil) {
        if let read { if read { unread.remove(id) } else { unread.insert(id) } }
        if let starred { if starred { self.starred.insert(id) } else { self.starred.remove(id) } }
        if let date { changedAt[id] = date }
    }

    func setFailure(afterPages pages: Int?) { failItemsAfter = pages; pagesServed = 0 }
    func setDown(_ value: Bool) { down = value }

    private func reachable() throws(AccountError) {
        if down { throw .unreachable("connection refused by 127.0.0.1") }
    }

    func logIn() async throws(AccountError) { try reachable() }
    func dropAhead() async { dropped += 1 }
    func feeds() async throws(AccountError) -> [RemoteFeed] {
        try reachable()
        return feedList
    }

    func items(after cursor: String?, limit: Int) async throws(AccountError) -> RemoteItemPage {
        try reachable()
        if let failItemsAfter, pagesServed >= failItemsAfter { throw .unreachable("the connection broke") }
        pagesServed += 1
        let start = cursor.flatMap { Int($0) } ?? 0
        let page = items.dropFirst(start).prefix(limit).map { item in
            var item = item
            item.read = !unread.contains(item.item.id)
            item.starred = starred.contains(item.item.id)
            return item
        }
        let end = start + page.count
        return RemoteItemPage(items: Array(page), cursor: String(end), more: end < items.count)
    }

    func states() async throws(AccountError) -> RemoteStates {
        try reachable()
        statesCalls += 1
        return RemoteStates(unread: unread, starred: starred, changedAt: changedAt)
    }

    func statesFingerprint() async throws(AccountError) -> String? {
        try reachable()
        return fingerprints ? "\(unread.count)/\(starred.count)" : nil
    }

    func useFingerprints() { fingerprints = true }

    func send(_ changes: [RemoteFlagChange]) async throws(AccountError) {
        try reachable()
        for change in changes {
            sent.append(change)
            switch change.flag {
            case .read: set(change.itemID, read: change.value)
            case .starred: set(change.itemID, starred: change.value)
            }
        }
    }

    func setSubscribeFailure(_ failure: AccountError?) { subscribeFailure = failure }

    func subscribe(url: String, category: String?) async throws(AccountError) -> RemoteFeed {
        try reachable()
        if let subscribeFailure { throw subscribeFailure }
        let feed = RemoteFeed(id: "feed/\(feedList.count + 100)", url: url, title: "Subscribed \(url)")
        feedList.append(feed)
        return feed
    }

    func unsubscribe(feedID: String) async throws(AccountError) {
        try reachable()
        removeFeed(feedID)
    }
}
