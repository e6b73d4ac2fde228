import Foundation
import HeraldAccounts
import HeraldCore
import HeraldReload
import HeraldStore

/// The reader's reloads (`r`, `R`, the timer) with an account: the local feeds and the
/// account's sync run side by side. The summary counts the account apart from the feeds
/// and says what its sync did (`accountNotes`, on the status line); its new articles count
/// with the others', and a failure is in `accountFailures` (`!` says why; its changes wait).
struct AccountReloader: FeedReloading {
    let local: Reloader
    let account: AccountConfig
    let store: LibraryStore

    func reloadFeeds(only: String?, progress: @escaping @Sendable (ReloadProgress) -> Void) async throws
        -> ReloadSummary
    {
        let (account, store) = (self.account, self.store)
        // `r` on one of the account's feeds: the account is what brings it.
        if let only, try await store.remoteFeedID(url: only) != nil {
            let empty = ReloadSummary(feeds: 0, newArticles: 0, notModified: 0, failures: [])
            return Self.merge(empty, await AccountRun.sync(account, store: store), account)
        }
        let sync = Task { await AccountRun.sync(account, store: store) }
        let summary = try await local.reloadFeeds(only: only, progress: progress)
        return Self.merge(summary, await sync.value, account)
    }

    func indexForSearch(progress: @escaping @Sendable (Int) -> Void) async throws {
        try await local.indexForSearch(progress: progress)
    }

    /// The last sync's failure as the library keeps it, when it was this account's.
    func standingFailures() async -> [ReloadFailure] {
        guard let status = try? await store.accountValue("status"), status != "ok",
            (try? await store.accountValue("identity")) == account.identity
        else { return [] }
        return [Self.failure(account, status, waiting: (try? await store.accountOutboxCount()) ?? 0)]
    }

    /// The account as `!` lists it when it could not be synced: why, and what waits.
    static func failure(_ account: AccountConfig, _ why: String, waiting count: Int) -> ReloadFailure {
        let waiting = count > 0 ? "; \(count) change\(count == 1 ? " waits" : "s wait") for the next contact" : ""
        return ReloadFailure(url: account.url.absoluteString, title: account.label, reason: why + waiting)
    }

    static func merge(_ summary: ReloadSummary, _ outcome: AccountRun.Outcome, _ account: AccountConfig)
        -> ReloadSummary
    {
        var summary = summary
        summary.accounts += 1
        summary.accountNotes.append(AccountRun.note(account, outcome))
        if let synced = outcome.summary {
            summary.newArticles += synced.newArticles
            summary.accountNewArticles += synced.newArticles
            summary.feedsWithNewArticles += synced.feedsWithNewArticles.count
        } else {
            summary.accountFailures.append(failure(account, outcome.error ?? "failed", waiting: outcome.waiting))
        }
        return summary
    }
}

/// The reader's reloads when the config names an account it cannot set up (a setting
/// missing): the local feeds reload, and the account is a failure saying what to set.
struct MisconfiguredAccountReloader: FeedReloading {
    let local: Reloader
    let source: String
    let problem: String

    func reloadFeeds(only: String?, progress: @escaping @Sendable (ReloadProgress) -> Void) async throws
        -> ReloadSummary
    {
        var summary = try await local.reloadFeeds(only: only, progress: progress)
        summary.accounts += 1
        summary.accountNotes.append("the \(source) account is not set up")
        summary.accountFailures = await standingFailures()
        return summary
    }

    func standingFailures() async -> [ReloadFailure] {
        [ReloadFailure(url: "urls-source", title: "the \(source) account", reason: problem)]
    }

    func indexForSearch(progress: @escaping @Sendable (Int) -> Void) async throws {
        try await local.indexForSearch(progress: progress)
    }
}
