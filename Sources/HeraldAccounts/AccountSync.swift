import Foundation
public import HeraldStore

/// What one sync with the account's server did.
public struct AccountSyncSummary: Sendable, Hashable {
    public var newArticles = 0
    /// The feeds (their addresses) that brought new articles (`notify-command`'s `%f`).
    public var feedsWithNewArticles: Set<String> = []
    /// Changes made here that went up (flags, subscriptions).
    public var changesSent = 0
    /// Changes made here that the server had overtaken with a later one of its own.
    public var changesOverruled = 0
    /// Articles whose flags changed here to the server's.
    public var flagsChanged = 0
    public var feeds = AccountFeedsResult()
    /// Changes the server refused for good (a subscription to an address it cannot read),
    /// in words; they left the queue.
    public var refused: [String] = []
    /// Items of feeds the account does not list (left out).
    public var orphans = 0

    public init() {}
}

/// One sync of the library with its account's server (offline first: the library is whole
/// without it). In order:
///
/// 1. The server's unread and starred ids (`states`).
/// 2. The changes waiting here go up, oldest first, each item's last change of a flag only;
///    a change the server dates later than ours overrules ours, which is dropped. None of
///    the three protocols dates a change of a flag (TT-RSS records `last_read` and
///    `last_marked` but its API gives neither), so ours wins: it was made since the last
///    contact, and the server's state is known only as of now.
/// 3. The subscriptions, then the flags of the articles held here, then the new articles
///    after the stored cursor, page by page, each page stored in one transaction.
/// 4. The cursor is stored only when the last page is in: a sync stopped midway (a kill, a
///    fault) starts again from the old one, and storing an article twice is harmless.
///
/// A change leaves the queue only once the server took it, so a kill at any point loses
/// none; one made during the sync waits for the next (its article keeps its flag).
public actor AccountSync {
    let service: any AccountService
    let store: LibraryStore
    /// Items asked for per page.
    let pageSize: Int
    /// The most items one sync takes in (a server that pages forever stops here).
    let maxItems: Int

    public init(service: any AccountService, store: LibraryStore, pageSize: Int = 1000, maxItems: Int = 1_000_000) {
        self.service = service
        self.store = store
        self.pageSize = pageSize
        self.maxItems = maxItems
    }

    /// Runs a sync; throws the first `AccountError` (nothing is lost: the queue and the
    /// cursor stay as they were for what was not done) or a library error.
    public func run(progress: (@Sendable (String) -> Void)? = nil) async throws -> AccountSyncSummary {
        do {
            let summary = try await steps(progress: progress)
            await service.dropAhead()
            return summary
        } catch {
            // A page asked for ahead is not left running after a sync that stopped.
            await service.dropAhead()
            throw error
        }
    }

    private func steps(progress: (@Sendable (String) -> Void)?) async throws -> AccountSyncSummary {
        var summary = AccountSyncSummary()
        // HERALD_TRACE_SYNC=1: each step's time on standard error (benchmarks, diagnosis).
        let trace = ProcessInfo.processInfo.environment["HERALD_TRACE_SYNC"] == "1"
        var last = ContinuousClock.now
        func step(_ name: String) {
            guard trace else { return }
            let now = ContinuousClock.now
            FileHandle.standardError.write(Data("sync: \(name) \(now - last)\n".utf8))
            last = now
        }
        try await service.logIn()
        step("log in")
        progress?("reading the server's flags")
        // A first sync's articles carry their flags: the whole state comes down with them.
        let noCursor = try await store.accountValue("cursor") == nil
        let held = try await store.accountArticleCount()
        let firstSync = noCursor && held == 0
        var states = firstSync ? nil : try await wantedStates()
        step("states (\(states.map { "\($0.unread.count) unread, \($0.starred.count) starred" } ?? "skipped"))")
        try await sendChanges(&states, summary: &summary)
        step("send")
        progress?("reading the subscriptions")
        let feeds = try await service.feeds().map {
            AccountFeed(remoteID: $0.id, url: $0.url, title: $0.title, siteURL: $0.siteURL, tags: $0.categories)
        }
        step("feeds")
        summary.feeds = try await store.applyAccountFeeds(feeds)
        step("store feeds")
        if let states {
            summary.flagsChanged = try await store.applyAccountStates(unread: states.unread, starred: states.starred)
        }
        step("store states")
        try await readItems(&summary, progress: progress)
        step("items (\(summary.newArticles) new)")
        // The server's state as this sync leaves it: the next sync reads its flags only if
        // it changed (or after `statesAge`).
        if let fingerprint = try await service.statesFingerprint() {
            try await store.setAccountValue("states-fingerprint", fingerprint)
            if states != nil || firstSync {
                try await store.setAccountValue("states-at", String(Date().timeIntervalSince1970))
            }
        }
        return summary
    }

    /// The longest a protocol's cheap fingerprint stands for its flags: two changes that
    /// leave every count as it was (one article read, another of its feed marked unread)
    /// come down within this time.
    static let statesAge: TimeInterval = 6 * 3600

    /// The server's flags, or nil when they need not be read: a fingerprint as at the end of
    /// the last sync, recent enough, with no change of ours waiting.
    func wantedStates() async throws -> RemoteStates? {
        if let stored = try await store.accountValue("states-fingerprint"),
            let at = try await store.accountValue("states-at").flatMap(Double.init),
            Date().timeIntervalSince1970 - at < Self.statesAge,
            try await store.accountOutboxCount() == 0,
            let now = try await service.statesFingerprint(), now == stored
        {
            return nil
        }
        return try await service.states()
    }

    /// Sends the queue up (see the type's comment); `states` then says what the server holds.
    func sendChanges(_ states: inout RemoteStates?, summary: inout AccountSyncSummary) async throws {
        let queue = try await store.accountOutbox()
        guard !queue.isEmpty else { return }
        var done: [Int64] = []
        // Structure first, in order: a feed subscribed here before its articles were marked.
        for entry in queue where entry.kind == .subscribe || entry.kind == .unsubscribe {
            do {
                if entry.kind == .subscribe {
                    _ = try await service.subscribe(url: entry.item, category: nil)
                } else {
                    try await service.unsubscribe(feedID: entry.item)
                }
                summary.changesSent += 1
            } catch {
                let verb = entry.kind == .subscribe ? "subscribing to" : "unsubscribing from"
                switch error {
                case .unreachable, .busy, .unauthorized:
                    // The way or the login failed: nothing else will get through either.
                    throw error
                case .badResponse, .serverError:
                    // This request failed, maybe for now: it stays queued, the rest goes on.
                    summary.refused.append("\(verb) \(entry.item) waits: \(error)")
                    continue
                case .unsupported, .configuration, .refused:
                    // Refused for good: it leaves the queue, said once; a feed subscribed here
                    // stays, read by Herald itself.
                    if entry.kind == .subscribe {
                        try await store.keepRefusedSubscription(url: entry.item)
                        summary.refused.append("\(verb) \(entry.item): \(error); kept as a feed of your own")
                    } else {
                        summary.refused.append("\(verb) \(entry.item): \(error)")
                    }
                }
            }
            done.append(entry.seq)
        }
        // Each item's last change of each flag; the earlier ones of it go with it.
        var last: [String: AccountOutboxEntry] = [:]
        var order: [String] = []
        var seqs: [String: [Int64]] = [:]
        for entry in queue where entry.kind == .read || entry.kind == .starred {
            let key = entry.kind.rawValue + "\u{0}" + entry.item
            if last[key] == nil { order.append(key) }
            last[key] = entry
            seqs[key, default: []].append(entry.seq)
        }
        var changes: [RemoteFlagChange] = []
        var sentSeqs: [Int64] = []
        for key in order {
            guard let entry = last[key] else { continue }
            if let serverTime = states?.changedAt[entry.item], serverTime > entry.at {
                summary.changesOverruled += 1
                done += seqs[key] ?? []
                continue
            }
            // The read column is 1 for read; the server's flag is the same sense.
            changes.append(
                RemoteFlagChange(itemID: entry.item, flag: entry.kind == .read ? .read : .starred, value: entry.value))
            sentSeqs += seqs[key] ?? []
        }
        if !changes.isEmpty {
            try await service.send(changes)
            summary.changesSent += changes.count
            done += sentSeqs
            for change in changes {
                switch (change.flag, change.value) {
                case (.read, true): states?.unread.remove(change.itemID)
                case (.read, false): states?.unread.insert(change.itemID)
                case (.starred, true): states?.starred.insert(change.itemID)
                case (.starred, false): states?.starred.remove(change.itemID)
                }
            }
        }
        try await store.dropAccountOutbox(done)
    }

    /// New items after the stored cursor, a page at a time.
    func readItems(_ summary: inout AccountSyncSummary, progress: (@Sendable (String) -> Void)?) async throws {
        var cursor = try await store.accountValue("cursor")
        let urls = try await store.accountFeedURLs()
        var seen = 0
        var cursors = Set<String>()
        while true {
            let page = try await service.items(after: cursor, limit: pageSize)
            var groups: [String: [RemoteItem]] = [:]
            for item in page.items {
                guard let url = urls[item.feedID] else {
                    summary.orphans += 1
                    continue
                }
                groups[url, default: []].append(item)
            }
            let requests = groups.map { (feedURL: $0.key, guids: $0.value.map(\.item.id)) }
            let known = try await store.knownArticles(requests)
            var batch: [(feedURL: String, prepared: [PreparedItem], flags: [String: (read: Bool, starred: Bool)])] = []
            for (request, known) in zip(requests, known) {
                let items = groups[request.feedURL] ?? []
                var flags: [String: (read: Bool, starred: Bool)] = [:]
                for item in items { flags[item.item.id] = (item.read, item.starred) }
                batch.append((request.feedURL, LibraryStore.prepare(items.map(\.item), known: known), flags))
            }
            let added = try await store.storeAccountItems(batch)
            summary.newArticles += added.values.reduce(0, +)
            summary.feedsWithNewArticles.formUnion(added.keys)
            seen += page.items.count
            progress?("\(seen) articles read from the server")
            if let next = page.cursor { cursor = next }
            guard page.more else { break }
            // A server that pages forever, or in a circle, is stopped.
            guard seen < maxItems, let next = page.cursor, cursors.insert(next).inserted else {
                throw AccountError.badResponse("the server kept paging past \(seen) articles")
            }
        }
        try await store.setAccountValue("cursor", cursor)
    }
}
