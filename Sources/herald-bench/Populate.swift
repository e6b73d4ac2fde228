import Foundation
import HeraldCore
import HeraldStore

/// Fills a library with synthetic articles: mixed languages, 1–10 KB bodies (log-uniform),
/// dates 90 s apart, article n in feed n % feeds. Deterministic per seed.
enum Populate {
    static let batch = 1000

    static func run(articles: Int, feeds: Int, seed: UInt64, path: String) async throws {
        let store = try await LibraryStore.open(path: path)
        var rng = SplitMix64(seed: seed)
        let languages = SyntheticText.Language.allCases
        let feedURLs = (0..<feeds).map { String(format: "https://bench.example.org/feed/%04d.xml", $0) }
        for (index, url) in feedURLs.enumerated() {
            let language = languages[index % languages.count]
            let title = "\(index + 1). " + SyntheticText.title(language, rng: &rng)
            // Subscribed as a user would, so the library counts as set up (the reader then
            // adds no demo feeds to it).
            _ = try await store.subscribe(Subscription(url: url, title: title))
        }
        // HERALD_BENCH_DRY=1 generates without writing: to see what the generator costs.
        let dryRun = ProcessInfo.processInfo.environment["HERALD_BENCH_DRY"] == "1"
        let start = Date()
        let epoch = Date(timeIntervalSince1970: 1_700_000_000)
        var written = 0
        var lastReport = 0
        // Feed by feed, in batches of `batch` articles, one transaction each: memory stays
        // flat however large the library. Article n belongs to feed n % feeds.
        for feed in 0..<feeds {
            let language = languages[feed % languages.count]
            var items: [ParsedItem] = []
            for n in stride(from: feed, to: articles, by: feeds) {
                let bytes = Int(1000 * pow(10, rng.unit()))
                items.append(
                    ParsedItem(
                        id: "bench-\(seed)-\(n)",
                        title: SyntheticText.title(language, rng: &rng),
                        link: "https://bench.example.org/a/\(n)",
                        author: "Author \(rng.below(200))",
                        published: epoch.addingTimeInterval(Double(n) * 90 + Double(rng.below(60))),
                        text: SyntheticText.body(language, bytes: bytes, rng: &rng)))
                if items.count == batch || n + feeds >= articles {
                    if !dryRun { try await store.upsertArticles(feedURL: feedURLs[feed], items: items) }
                    written += items.count
                    items.removeAll(keepingCapacity: true)
                }
            }
            if written - lastReport >= 50_000 || feed == feeds - 1 {
                lastReport = written
                let rate = Double(written) / Date().timeIntervalSince(start)
                FileHandle.standardError.write(Data("\r\(written)/\(articles) (\(Int(rate))/s)".utf8))
            }
        }
        let seconds = Date().timeIntervalSince(start)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        print(
            String(
                format: "\npopulated %d articles in %d feeds: %.1f s, %.0f articles/s, database %.1f MB",
                written, feeds, seconds, Double(written) / seconds, Double(size + wal) / 1_048_576))
    }
}
