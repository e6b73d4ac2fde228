import Foundation
import HeraldCore
import Testing

@testable import HeraldStore
@testable import HeraldUI
@testable import HeraldConfig

/// Virtual feeds over the real store: every source, every kind of page, against a reference
/// order computed by sorting everything.
@Suite("Lists of many feeds in the store")
struct ListSourceTests {
    static let feeds = 7
    static let perFeed = 60

    /// Feeds with interleaved, clumped dates: feed f's articles are spread unevenly in time,
    /// some share a second (so ties are broken by id). Every 3rd article is read, every 7th
    /// starred. Feeds 0, 2 and 5 are tagged `tech`; feed 5 also `rust`.
    static func library() async throws -> (LibraryStore, TemporaryLibrary) {
        let library = try TemporaryLibrary()
        let store = try await LibraryStore.open(path: library.path)
        for f in 0..<feeds {
            let tags = f == 5 ? ["tech", "rust"] : (f % 2 == 0 && f != 4 && f != 6 ? ["tech"] : [])
            try await store.subscribe(Subscription(url: "feed-\(f)", title: "Feed \(f)", tags: tags))
            let items = (0..<perFeed).map { n in
                ParsedItem(
                    id: "\(f)-\(n)", title: "F\(f) N\(n)",
                    published: Date(
                        timeIntervalSince1970: 1_790_000_000 + Double((n * 37 + f * 101) % 500) * 60),
                    text: "Body")
            }
            try await store.upsertArticles(feedURL: "feed-\(f)", items: items)
        }
        var index = 0
        for summary in try await store.articles(in: .all, page: .first(limit: 10_000)) {
            if index % 3 == 0 { try await store.setRead(true, articleID: summary.id) }
            if index % 7 == 0 { try await store.setStarred(true, articleID: summary.id) }
            index += 1
        }
        return (store, library)
    }

    /// Every article of a source, sorted in Swift: the reference.
    static func reference(_ store: LibraryStore, _ source: ArticleSource) async throws -> [ArticleSummary] {
        if case .unreadOf(let list) = source { return try await reference(store, list).filter { !$0.isRead } }
        if case .oldestFirst(let list) = source { return try await reference(store, list).reversed() }
        var all: [ArticleSummary] = []
        for f in 0..<feeds {
            all += try await store.articles(in: .feed(FeedID("feed-\(f)")), page: .first(limit: 10_000))
        }
        let urls = try await store.feedURLsByID()
        let tech: Set<String> = ["feed-0", "feed-2", "feed-5"]
        return all.filter { article in
            switch source {
            case .all: true
            case .unread: !article.isRead
            case .starred: article.isStarred
            case .tag("tech"): tech.contains(urls[article.feedID] ?? "")
            case .tag("rust"): urls[article.feedID] == "feed-5"
            case .feed(let id): urls[article.feedID] == id.rawValue
            case .query("tag:tech -starred"): tech.contains(urls[article.feedID] ?? "") && !article.isStarred
            case .query("feed:\"Feed 3\" or starred"): urls[article.feedID] == "feed-3" || article.isStarred
            case .query("tag:rust"): urls[article.feedID] == "feed-5"
            case .query("title:/ N1[0-9]$/"): article.title.wholeMatch(of: /F\d N1\d/) != nil
            default: false
            }
        }.sorted { $0.sortKey < $1.sortKey }
    }

    static let sources: [ArticleSource] = [
        .all, .unread, .starred, .tag("tech"), .tag("rust"), .tag("none"),
        // show-read-articles no: a list's unread articles.
        .unreadOf(.feed("feed-3")), .unreadOf(.starred), .unreadOf(.tag("tech")), .unreadOf(.tag("none")),
        // Query feeds (config `query` lines), whole and unread only.
        .query("tag:tech -starred"), .query("feed:\"Feed 3\" or starred"), .query("title:/ N1[0-9]$/"),
        .unreadOf(.query("tag:rust")),
        // set article-sort oldest: the same lists turned around.
        .oldestFirst(.all), .oldestFirst(.tag("tech")), .oldestFirst(.unreadOf(.feed("feed-3"))),
        .oldestFirst(.query("tag:tech -starred")),
    ]

    @Test("walking forward and backward in pages of 11 gives the reference order", arguments: sources)
    func paging(_ source: ArticleSource) async throws {
        let (store, library) = try await Self.library()
        defer { library.cleanUp() }
        let expected = try await Self.reference(store, source).map(\.id)
        // A query's reference is written by hand: it must select something.
        if source.isQuery { #expect(expected.count > 11, "\(source)") }
        var forward: [String] = []
        var page = try await store.articles(in: source, page: .first(limit: 11))
        while !page.isEmpty {
            forward += page.map(\.id)
            page = try await store.articles(in: source, page: .after(page.last!.sortKey, limit: 11))
        }
        #expect(forward == expected)
        var backward: [String] = []
        page = try await store.articles(in: source, page: .last(limit: 11))
        while !page.isEmpty {
            backward = page.map(\.id) + backward
            page = try await store.articles(in: source, page: .before(page.first!.sortKey, limit: 11))
        }
        #expect(backward == expected)
        let middle = try await store.articles(in: source, page: .offset(20, limit: 5)).map(\.id)
        #expect(middle == Array(expected.dropFirst(20).prefix(5)))
    }

    @Test(
        "positions (from the top, or from a known row) and the first unread either way agree with the reference",
        arguments: sources)
    func positionsAndUnread(_ source: ArticleSource) async throws {
        let (store, library) = try await Self.library()
        defer { library.cleanUp() }
        let expected = try await Self.reference(store, source)
        for index in stride(from: 0, to: expected.count, by: 13) {
            let key = expected[index].sortKey
            #expect(try await store.position(of: key, in: source) == index)
            let next = expected[(index + 1)...].first { !$0.isRead }
            #expect(try await store.firstUnread(in: source, after: key, direction: .forward)?.id == next?.id)
            let other = (index * 7 + 3) % expected.count
            #expect(
                try await store.rows(between: key, and: expected[other].sortKey, in: source)
                    == max(abs(other - index) - 1, 0))
            #expect(
                try await store.position(
                    of: expected[other].sortKey, in: source, near: (key: key, row: index)) == other)
            let previous = expected[..<index].last { !$0.isRead }
            #expect(
                try await store.firstUnread(in: source, after: key, direction: .backward)?.id == previous?.id)
        }
        #expect(
            try await store.firstUnread(in: source, after: nil, direction: .forward)?.id
                == expected.first { !$0.isRead }?.id)
    }

    @Test("starred counts, marking a tag read, and the last open list survive a reopen")
    func countsAndMarks() async throws {
        let (store, library) = try await Self.library()
        defer { library.cleanUp() }
        let starred = try await Self.reference(store, .starred)
        #expect(
            try await store.starredCounts()
                == ArticleCounts(total: starred.count, unread: starred.filter { !$0.isRead }.count))
        try await store.markRead(in: .tag("tech"))
        let summaries = try await store.feedSummaries()
        #expect(
            summaries.map(\.unread)
                == summaries.map { ["feed-0", "feed-2", "feed-5"].contains($0.id) ? 0 : $0.unread })
        #expect(summaries[1].unread > 0)
        #expect(summaries[5].feed.tags == ["tech", "rust"])
        await store.setLastOpenedList(.tag("rust"))
        let reopened = try await LibraryStore.open(path: library.path)
        #expect(await reopened.lastOpenedList() == .tag("rust"))
    }

    @Test("a query's counts, its bulk flags (the ids that changed) and its mark read follow its articles")
    func queryCountsAndMarks() async throws {
        let (store, library) = try await Self.library()
        defer { library.cleanUp() }
        let source = ArticleSource.query("feed:\"Feed 3\" or starred")
        let expected = try await Self.reference(store, source)
        let unread = expected.filter { !$0.isRead }
        #expect(!unread.isEmpty && unread.count < expected.count)
        #expect(
            try await store.counts(in: source) == ArticleCounts(total: expected.count, unread: unread.count))
        #expect(try await store.counts(in: .tag("tech")).total == 3 * Self.perFeed)
        #expect(
            try await store.counts(in: .unreadOf(.query("tag:rust"))).total
                == Self.reference(store, .unreadOf(.query("tag:rust"))).count)
        let starred = try await store.setFlag(.starred, true, in: source)
        #expect(Set(starred) == Set(expected.filter { !$0.isStarred }.map(\.id)))
        try await store.markRead(in: source)
        #expect(try await store.counts(in: source) == ArticleCounts(total: expected.count, unread: 0))
        #expect(try await store.feedSummaries()[3].unread == 0)
        #expect(try await store.feedSummaries()[1].unread > 0)
        await store.setLastOpenedList(source)
        #expect(await store.lastOpenedList() == source)
    }

    @Test(
        "All articles, Unread, Starred and a feed's next unread walk an index in order: no sort of the whole library"
    )
    func queryPlans() async throws {
        let (store, library) = try await Self.library()
        defer { library.cleanUp() }
        for (conditions, index) in [
            ([String](), "articles_by_time"), (["a.read = 0"], "articles_unread"),
            (["a.starred = 1"], "articles_starred"),
        ] {
            let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            let plan = try await store.queryPlan(
                "SELECT a.id FROM articles a CROSS JOIN feeds f ON f.id = a.feed_id \(filter) ORDER BY a.sort_time DESC, a.id DESC LIMIT 50"
            )
            #expect(plan.contains(index), "\(plan)")
            #expect(!plan.contains("TEMP B-TREE"), "\(plan)")
        }
        let unreadInFeed = try await store.queryPlan(
            "SELECT a.id FROM articles a CROSS JOIN feeds f ON f.id = a.feed_id WHERE a.feed_id = 3 AND a.read = 0 "
                + "AND (a.sort_time, a.id) < (5, 5) ORDER BY a.sort_time DESC, a.id DESC LIMIT 1")
        #expect(unreadInFeed.contains("articles_feed_unread"), "\(unreadInFeed)")
    }
}

/// Tags that hold a large share of the library are read by walking the time index first:
/// the same pages as the merge, whether the tag's articles are spread out or all old.
@Suite("Dense tags in the store")
struct DenseTagTests {
    @Test(
        "a tag of every other feed, and a tag of ten feeds whose articles are nearly all older, page like a sort"
    )
    func denseTags() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        // 40 feeds of 30: `dense` is every other feed; `old` the last ten (a quarter of the
        // library, so it is read by the walk first).
        for f in 0..<40 {
            var tags = f % 2 == 0 ? ["dense"] : []
            if f >= 30 { tags.append("old") }
            try await store.subscribe(Subscription(url: "feed-\(f)", title: "Feed \(f)", tags: tags))
            let items = (0..<30).map { n in
                // The `old` feeds have two recent articles each; the rest of theirs are older
                // than every other article (the walk finds a few, then the merge goes on).
                let minutes =
                    f >= 30
                    ? (n < 2 ? 10_000 + n * 400 + f * 9 : n * 3 + f) : 10_000 + (n * 53 + f * 17) % 900
                return ParsedItem(
                    id: "\(f)-\(n)", title: "F\(f) N\(n)",
                    published: Date(timeIntervalSince1970: 1_790_000_000 + Double(minutes) * 60), text: "Body"
                )
            }
            try await store.upsertArticles(feedURL: "feed-\(f)", items: items)
        }
        var all: [ArticleSummary] = []
        for f in 0..<40 { all += try await store.articles(in: .feed(FeedID("feed-\(f)")), page: .first(limit: 100)) }
        let urls = try await store.feedURLsByID()
        for (tag, member) in [("dense", { (f: Int) in f % 2 == 0 }), ("old", { (f: Int) in f >= 30 })] {
            let expected = all.filter { member(Int(urls[$0.feedID]!.dropFirst(5))!) }.sorted {
                $0.sortKey < $1.sortKey
            }.map(\.id)
            var forward: [String] = []
            var page = try await store.articles(in: .tag(tag), page: .first(limit: 11))
            while !page.isEmpty {
                forward += page.map(\.id)
                page = try await store.articles(in: .tag(tag), page: .after(page.last!.sortKey, limit: 11))
            }
            #expect(forward == expected, "\(tag)")
            var backward: [String] = []
            page = try await store.articles(in: .tag(tag), page: .last(limit: 11))
            while !page.isEmpty {
                backward = page.map(\.id) + backward
                page = try await store.articles(in: .tag(tag), page: .before(page.first!.sortKey, limit: 11))
            }
            #expect(backward == expected, "\(tag)")
            #expect(
                try await store.articles(in: .tag(tag), page: .offset(7, limit: 5)).map(\.id)
                    == Array(expected[7..<12]))
        }
    }
}

/// n across feeds with the reader over the real store.
@Suite("Reading on over the store")
@MainActor
struct StoreNavigationTests {
    @Test("n goes through the unread articles of one feed, then of the next, over SQLite")
    func nextUnreadOverSQLite() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        for f in 0..<2 {
            try await store.subscribe(Subscription(url: "feed-\(f)", title: "Feed \(f)"))
            try await store.upsertArticles(
                feedURL: "feed-\(f)", items: (0..<3).map { item("\(f)-\($0)", "F\(f) N\($0)", day: 10 - $0) })
        }
        let app = ReaderApp(repository: store, size: Size(width: 60, height: 12))
        app.start()
        await app.settle()
        var opened: [String] = []
        for key in [Key.enter] + Array(repeating: Key.character("n"), count: 7) {
            app.handle(key)
            await app.settle()
            if case .article(let viewer) = app.screen, opened.last != viewer.summary.title {
                opened.append(viewer.summary.title)
            }
        }
        #expect(opened == ["F0 N0", "F0 N1", "F0 N2", "F1 N0", "F1 N1", "F1 N2"])
        #expect(app.render().text().contains("No more unread articles."))
        #expect(try await store.feedSummaries().map(\.unread) == [0, 0])
    }
}
