/// How far a reload has got.
public struct ReloadProgress: Sendable, Hashable {
    public var done: Int
    public var total: Int
    public var failed: Int
    public var newArticles: Int

    public init(done: Int, total: Int, failed: Int, newArticles: Int) {
        self.done = done
        self.total = total
        self.failed = failed
        self.newArticles = newArticles
    }
}

/// A feed that could not be reloaded, and why.
public struct ReloadFailure: Sendable, Hashable {
    public var url: String
    public var title: String
    public var reason: String

    public init(url: String, title: String, reason: String) {
        self.url = url
        self.title = title
        self.reason = reason
    }
}

/// What a reload did.
public struct ReloadSummary: Sendable, Hashable {
    public var feeds: Int
    public var newArticles: Int
    public var notModified: Int
    public var failures: [ReloadFailure]
    /// Feeds not asked this time: their server asked to wait (Retry-After), or they keep
    /// failing and are tried less often. The reason says until when.
    public var waiting: [ReloadFailure]
    /// Feeds whose document was broken and read all the same (`ParsedFeed.warnings`): the
    /// reason is the first error.
    public var readWithErrors: [ReloadFailure]
    /// Articles retention removed after the reload.
    public var removedArticles = 0
    /// Stored articles `delete` filters removed as their feeds were written.
    public var removedByFilters = 0
    /// Regular expressions of filters found too slow (`RegexBudget`): the filters holding
    /// them were left out of this reload from then on.
    public var slowFilters: [String] = []
    /// Why retention did not run to its end this time (another program held the library
    /// too long, say): never a failed reload; the next one tries again.
    public var retentionSkipped: String?
    /// Feeds that brought new articles (what `notify-command`'s `%f` counts).
    public var feedsWithNewArticles = 0
    /// Feeds not tried: disabled by a setting, or their reload interval has not passed.
    public var disabled = 0
    public var notDue = 0
    /// Server accounts synced beside the feeds (not counted in `feeds`), each said in
    /// `accountNotes` ("FreshRSS: 3 new, 2 changes sent"); a failed one is also
    /// in `accountFailures` (what `!` says). Their new articles are in `newArticles` too.
    public var accounts = 0
    public var accountFailures: [ReloadFailure] = []
    public var accountNewArticles = 0
    public var accountNotes: [String] = []

    public init(
        feeds: Int, newArticles: Int, notModified: Int, failures: [ReloadFailure],
        waiting: [ReloadFailure] = [], readWithErrors: [ReloadFailure] = []
    ) {
        self.feeds = feeds
        self.newArticles = newArticles
        self.notModified = notModified
        self.failures = failures
        self.waiting = waiting
        self.readWithErrors = readWithErrors
    }

    /// True when feeds (or accounts) were tried and every one failed.
    public var allFailed: Bool {
        let failed = failures.count + accountFailures.count
        return failed > 0 && failed + waiting.count + disabled + notDue == feeds + accounts
    }
}

/// Something that reloads feeds for the reader (the real one fetches, parses and stores).
public protocol FeedReloading: Sendable {
    /// Reloads every feed, or the one whose id is `only`, reporting progress as it goes.
    func reloadFeeds(
        only: String?, progress: @escaping @Sendable (ReloadProgress) -> Void
    ) async throws -> ReloadSummary

    /// Adds to the search indexes the articles reloads stored without their entries, a
    /// little at a time so the reader's own requests go between; `progress` hears how many
    /// still wait (0 at the end). Cancelling stops it; the next run goes on.
    func indexForSearch(progress: @escaping @Sendable (Int) -> Void) async throws

    /// The failures a reload would put in `accountFailures` as things stand before one runs:
    /// the server account's last sync failed (by this reader or another process, `herald
    /// reload` from cron), or the config cannot set it up. `!` lists them from the start.
    func standingFailures() async -> [ReloadFailure]
}

extension FeedReloading {
    /// Nothing to index: a reloader that stores nothing itself.
    public func indexForSearch(progress: @escaping @Sendable (Int) -> Void) async throws {}

    /// No account: nothing stands failed.
    public func standingFailures() async -> [ReloadFailure] { [] }
}
