import Foundation
import HeraldCore
import HeraldStore

/// How long the reader waits to open a list of many feeds: All articles, Unread, Starred and
/// tags of several sizes, each read as the article list reads its first window (the first
/// 200 rows), its last window (`G`) and, from the middle of the list, the next unread
/// article with its row (`n`).
///
/// A library built by `populate` is given its tags and stars here if it has none: `one`
/// (the first feed), `tenth` (every 10th feed), `half` (every other feed), and a star on
/// every 100th article. At 1M articles `tenth` holds 100k articles.
enum ListBench {
    static func run(path: String, runs: Int) async throws {
        let store = try await LibraryStore.open(path: path)
        try await prepare(store)
        let feeds = try await store.feedSummaries()
        let total = feeds.reduce(0) { $0 + $1.total }
        let starred = try await store.starredCounts()
        print("library: \(total) articles in \(feeds.count) feeds, \(starred.total) starred")

        var sources: [(String, ArticleSource, Int)] = [
            ("All articles", .all, total),
            ("Unread", .unread, feeds.reduce(0) { $0 + $1.unread }),
            ("Starred", .starred, starred.total),
        ]
        for tag in ["one", "tenth", "half"] {
            let count = feeds.filter { $0.feed.tags.contains(tag) }.reduce(0) { $0 + $1.total }
            let feedCount = feeds.filter { $0.feed.tags.contains(tag) }.count
            sources.append(("tag \(tag) (\(feedCount) feeds)", .tag(tag), count))
        }
        print(
            "list                          articles  open p50  open p99   G p50   n mid p50   (ms, \(runs) runs)"
        )
        var worst = 0.0
        for (name, source, count) in sources {
            let open = try await time(runs) {
                _ = try await store.articles(in: source, page: .first(limit: 200))
            }
            let end = try await time(runs) {
                _ = try await store.articles(in: source, page: .last(limit: 200))
            }
            // n from the middle of the list: the next unread and its row (counted from the top).
            let middle = try await store.articles(in: source, page: .offset(count / 2, limit: 1)).first
            let next = try await time(runs) {
                if let found = try await store.firstUnread(
                    in: source, after: middle?.sortKey, direction: .forward)
                {
                    // The reader counts rows from the article it starts from (row known).
                    _ = try await store.position(
                        of: found.sortKey, in: source, near: middle.map { (key: $0.sortKey, row: count / 2) })
                }
            }
            worst = max(worst, open.p99)
            let padded = name.padding(toLength: 28, withPad: " ", startingAt: 0)
            print(
                String(
                    format: "%@ %9d %9.2f %9.2f %7.2f %7.2f", padded, count, open.p50, open.p99, end.p50,
                    next.p50))
        }
        let counts = try await time(runs) {
            _ = try await store.feedSummaries()
            _ = try await store.starredCounts()
        }
        print(String(format: "feed list with its counts: p50 %.2f ms", counts.p50))
        print(String(format: "slowest open (p99): %.2f ms (target: 50 ms at 1M articles)", worst))
    }

    /// Median and 99th percentile of `runs` timings of `body`, in milliseconds.
    static func time(_ runs: Int, _ body: () async throws -> Void) async throws -> (p50: Double, p99: Double)
    {
        var times: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            try await body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        times.sort()
        return (times[times.count / 2], times[min(times.count - 1, Int(Double(times.count) * 0.99))])
    }

    /// Tags and stars for a library that has none (as `populate` builds them).
    static func prepare(_ store: LibraryStore) async throws {
        let feeds = try await store.feedSummaries()
        if !feeds.contains(where: { !$0.feed.tags.isEmpty }) {
            for (index, feed) in feeds.enumerated() {
                var tags: [String] = []
                if index == 0 { tags.append("one") }
                if index % 10 == 0 { tags.append("tenth") }
                if index % 2 == 0 { tags.append("half") }
                _ = try await store.subscribe(Subscription(url: feed.feed.url, title: feed.feed.title, tags: tags))
            }
        }
        if try await store.starredCounts().total == 0 {
            let total = feeds.reduce(0) { $0 + $1.total }
            for id in stride(from: 100, through: total, by: 100) {
                try? await store.setStarred(true, articleID: String(id))
            }
        }
    }
}
