public import HeraldCore
public import HeraldConfig

/// One row of the feed list: a virtual feed (All articles, Unread, Starred, a query) or a
/// feed.
public struct FeedListRow: Sendable, Hashable {
    public var list: ArticleListSummary
    /// The feed, for a feed's row; nil for a virtual feed.
    public var feed: Feed?
    /// The feed's number (1 is the first feed), what `7 Enter` jumps to.
    public var number: Int?
    /// A query's counts are still being counted (its row shows `…`).
    public var isCounting = false
}

/// The feed list: the virtual feeds, the config's queries, then every feed with its unread
/// and total counts.
@MainActor
public final class FeedListModel {
    public private(set) var state: ViewState<[FeedSummary]> = .idle {
        didSet { rebuildRows() }
    }
    public private(set) var starred = ArticleCounts(total: 0, unread: 0) {
        didSet { rebuildRows() }
    }
    /// Feeds without unread articles are listed (`set show-read-feeds`).
    public var showReadFeeds = true {
        didSet { rebuildRows() }
    }
    /// The order of the feeds (`set feed-sort`).
    public var sort = FeedSort.config {
        didSet { rebuildRows() }
    }
    /// The order turned around (`G`, newsboat's rev-sort).
    public var reversed = false {
        didSet { rebuildRows() }
    }
    /// Every row: All articles, Unread, Starred, then the feeds shown in the list's order
    /// (made when the feeds or their counts change, not on every frame and key).
    public private(set) var rows = FeedListModel.rows([], starred: ArticleCounts(total: 0, unread: 0))
    /// The feeds as the list shows them (the feed rows, in order).
    public private(set) var shownFeeds: [FeedSummary] = []
    public var cursor = ListCursor()
    private let repository: any ArticleRepository
    /// The config's `query` lines: rows after the virtual feeds, counted in the background
    /// each time the feeds' counts change (a query's count costs its condition's scan).
    public var queries: [NamedQuery] = [] {
        didSet {
            queryCounts = [:]
            rebuildRows()
        }
    }
    /// The queries' counts as they arrive, by expression.
    private var queryCounts: [String: ArticleCounts] = [:]
    /// An article's flag changed since the last count: the queries are counted again when
    /// the feed list is back on screen (not on every key: a count can cost a scan).
    private var queriesStale = false
    /// The loads and the counting of queries under way (`.load`, `.counts`: a new round of
    /// counting cancels the last, so its late answers are never shown).
    let effects: Effects
    /// `load` was called: queries are counted from then on.
    private var started = false
    /// What runs once the load under way has shown the feeds.
    private var afterLoad: [@MainActor () -> Void] = []
    /// Hears each query's fresh counts (an open query list follows them).
    public var onQueryCounted: @MainActor (ArticleListSummary) -> Void = { _ in }
    /// The list to select once the feeds arrive (the one open when the reader last closed).
    private var restore: ArticleSource?
    private var loadedOnce = false

    /// How many built-in virtual feeds (All articles, Unread, Starred) come first.
    public static let virtualRows = 3
    /// The row of the first feed: after the virtual feeds and the queries.
    public var firstFeedRow: Int { Self.virtualRows + queries.count }

    public init(repository: any ArticleRepository, work: PendingWork) {
        self.repository = repository
        self.effects = Effects(work: work)
    }

    public var feeds: [FeedSummary] { state.value ?? [] }

    private func rebuildRows() {
        // A feed keeps its number (config order) whatever the order shown: `7 Enter` opens it.
        var shown = feeds.enumerated().map { (number: $0.offset + 1, feed: $0.element) }
        if !showReadFeeds { shown.removeAll { $0.feed.unread == 0 } }
        switch sort {
        case .config: break
        case .title:
            shown.sort {
                $0.feed.feed.title.localizedStandardCompare($1.feed.feed.title) == .orderedAscending
            }
        case .unread: shown.sort { $0.feed.unread > $1.feed.unread }
        }
        if reversed { shown.reverse() }
        shownFeeds = shown.map(\.feed)
        rows = Self.rows(feeds, starred: starred, shown: shown)
        rows.insert(contentsOf: queryRows, at: Self.virtualRows)
    }

    /// A row for each query, with its counts once counted.
    private var queryRows: [FeedListRow] {
        queries.map { query in
            let counts = queryCounts[query.text]
            return FeedListRow(
                list: ArticleListSummary(
                    source: .query(query.text), title: query.name, total: counts?.total ?? 0,
                    unread: counts?.unread ?? 0),
                feed: nil, number: nil, isCounting: counts == nil)
        }
    }

    /// Counts the queries again if a flag changed since they were counted.
    public func countQueriesIfStale() {
        if queriesStale { countQueries() }
    }

    /// True while the search indexer works through articles a reload left waiting: a query
    /// that reads the search indexes would first index them all in one hold of the library,
    /// so the counts wait (`countQueriesIfStale` when the indexer is done).
    public var holdsQueryCounts = false

    /// Counts every query again, one after another off the main actor; each row shows its
    /// counts as they arrive (until then, the ones it had).
    public func countQueries() {
        guard started, !queries.isEmpty else { return }
        guard !holdsQueryCounts else {
            queriesStale = true
            return
        }
        queriesStale = false
        let queries = self.queries
        effects.stream(.counts) { [repository] send in
            for query in queries {
                guard !Task.isCancelled else { return }
                if let counts = try? await repository.counts(in: .query(query.text)) { send((query, counts)) }
            }
        } each: { (counted: (query: NamedQuery, counts: ArticleCounts)) in
            let (query, counts) = counted
            self.queryCounts[query.text] = counts
            self.rebuildRows()
            self.onQueryCounted(
                ArticleListSummary(
                    source: .query(query.text), title: query.name, total: counts.total, unread: counts.unread))
        }
    }

    static func rows(
        _ feeds: [FeedSummary], starred: ArticleCounts,
        shown: [(number: Int, feed: FeedSummary)]? = nil
    ) -> [FeedListRow] {
        let unread = feeds.reduce(0) { $0 + $1.unread }
        let total = feeds.reduce(0) { $0 + $1.total }
        let virtual = [
            ArticleListSummary(source: .all, title: "All articles", total: total, unread: unread),
            ArticleListSummary(source: .unread, title: "Unread", total: unread, unread: unread),
            ArticleListSummary(
                source: .starred, title: "Starred", total: starred.total, unread: starred.unread),
        ]
        return virtual.map { FeedListRow(list: $0, feed: nil, number: nil) }
            + (shown ?? feeds.enumerated().map { ($0.offset + 1, $0.element) }).map {
                FeedListRow(list: $0.feed.list, feed: $0.feed.feed, number: $0.number)
            }
    }

    public var selected: FeedListRow? {
        let rows = self.rows
        return rows.indices.contains(cursor.selected) ? rows[cursor.selected] : nil
    }

    /// The selected row's feed, when a feed (not a virtual feed) is selected.
    public var selectedFeed: FeedSummary? {
        let index = cursor.selected - firstFeedRow
        return shownFeeds.indices.contains(index) ? shownFeeds[index] : nil
    }

    /// Every tag with the counts of its feeds, by name.
    public var tags: [ArticleListSummary] {
        var counts: [String: (total: Int, unread: Int)] = [:]
        for feed in feeds {
            for tag in Set(feed.feed.tags) {
                counts[tag, default: (0, 0)].total += feed.total
                counts[tag, default: (0, 0)].unread += feed.unread
            }
        }
        return counts.keys.sorted { $0.localizedStandardCompare($1) == .orderedAscending }.map {
            ArticleListSummary(
                source: .tag($0), title: $0, total: counts[$0]!.total, unread: counts[$0]!.unread)
        }
    }

    /// The title of a feed by its id (the feed column of virtual lists).
    public func title(ofFeed id: FeedID) -> String {
        titles[id] ?? id.rawValue
    }

    private var titles: [FeedID: String] = [:]

    /// Loads the feeds and the starred counts off the main actor; the selection stays on the
    /// same row (on the first load, it goes to the list open when the reader last closed).
    /// `then` runs once they are shown (or failed to load); a newer load replaces one under
    /// way, and its `then` waits for the newer one.
    public func load(then: @escaping @MainActor () -> Void = {}) {
        started = true
        afterLoad.append(then)
        if state.value == nil { state = .loading }
        let keep = state.value == nil ? nil : selected?.list.source
        let first = !loadedOnce
        effects.run(.load) { [repository] in
            await Result {
                let feeds = try await repository.feedSummaries()
                let starred = try await repository.starredCounts()
                let restore = first ? await repository.lastOpenedList() : nil
                return (feeds, starred, restore)
            }
        } then: { read in
            switch read {
            case .success(let (feeds, starred, restore)):
                self.loadedOnce = true
                self.apply(feeds, starred: starred, keep: restore ?? keep)
            case .failure(let error):
                self.state = .failed("\(error)")
            }
            let waiting = self.afterLoad
            self.afterLoad = []
            for then in waiting { then() }
        }
    }

    /// Fresh counts (after a reload): the selection stays on the same row.
    public func replace(_ feeds: [FeedSummary], starred: ArticleCounts? = nil) {
        apply(feeds, starred: starred ?? self.starred, keep: selected?.list.source)
    }

    private func apply(_ feeds: [FeedSummary], starred: ArticleCounts, keep: ArticleSource?) {
        // The first time, the cursor starts on the first feed (the virtual feeds are above).
        if state.value == nil, !feeds.isEmpty { cursor = ListCursor(selected: firstFeedRow, top: 0) }
        state = .loaded(feeds)
        self.starred = starred
        titles = Dictionary(feeds.map { ($0.id, $0.feed.title) }, uniquingKeysWith: { a, _ in a })
        if let keep { select(keep) }
        countQueries()
    }

    /// Selects the row of a list (a feed or a virtual feed); false when there is none.
    @discardableResult
    public func select(_ source: ArticleSource, visible: Int? = nil) -> Bool {
        guard let index = rows.firstIndex(where: { $0.list.source == source }) else { return false }
        if let visible {
            cursor.select(index, count: rows.count, visible: visible)
        } else {
            cursor = ListCursor(selected: index, top: cursor.top)
        }
        return true
    }

    /// The first feed with unread articles after (or before) `feedID` in list order.
    public func feedWithUnread(from feedID: FeedID?, _ direction: ListDirection) -> FeedSummary? {
        let feeds = shownFeeds.contains { $0.id == feedID } || feedID == nil ? shownFeeds : self.feeds
        let start = feedID.flatMap { id in feeds.firstIndex { $0.id == id } }
        switch direction {
        case .forward:
            let from = start.map { $0 + 1 } ?? 0
            return feeds[min(from, feeds.count)...].first { $0.unread > 0 }
        case .backward:
            let to = start ?? feeds.count
            return feeds[..<to].last { $0.unread > 0 }
        }
    }

    /// Counts follow reading without a reload.
    public func articleRead(_ isRead: Bool, _ article: ArticleSummary) {
        guard case .loaded(var feeds) = state,
            let index = feeds.firstIndex(where: { $0.id == article.feedID })
        else { return }
        feeds[index].unread = max(0, min(feeds[index].total, feeds[index].unread + (isRead ? -1 : 1)))
        queriesStale = true
        state = .loaded(feeds)
        if article.isStarred { starred.unread = max(0, starred.unread + (isRead ? -1 : 1)) }
    }

    /// A whole list marked read: its feeds' unread counts drop to zero at once.
    public func listRead(_ source: ArticleSource) {
        guard case .loaded(var feeds) = state else { return }
        for index in feeds.indices {
            switch source {
            case .feed(let id) where feeds[index].id == id: feeds[index].unread = 0
            case .tag(let tag) where feeds[index].feed.tags.contains(tag): feeds[index].unread = 0
            case .all, .unread: feeds[index].unread = 0
            default: break
            }
        }
        state = .loaded(feeds)
        if source == .all || source == .unread || source == .starred { starred.unread = 0 }
    }

    /// Counts follow starring without a reload.
    public func articleStarred(_ isStarred: Bool, _ article: ArticleSummary) {
        queriesStale = true
        starred.total = max(0, starred.total + (isStarred ? 1 : -1))
        if !article.isRead { starred.unread = max(0, starred.unread + (isStarred ? 1 : -1)) }
    }
}
