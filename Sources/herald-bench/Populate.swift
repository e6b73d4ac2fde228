import Foundation
import HeraldCore
import HeraldStore

/// Fills a library with synthetic articles: mixed languages, 1–10 KB bodies (log-uniform),
/// dates over three years, spread round-robin over `feeds` feeds. Deterministic per seed.
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
            _ = try await store.upsertFeed(url: url, title: title, siteURL: nil)
        }
        // HERALD_BENCH_DRY=1 generates without writing: to see what the generator costs.
        let dryRun = ProcessInfo.processInfo.environment["HERALD_BENCH_DRY"] == "1"
        let start = Date()
        let epoch = Date(timeIntervalSince1970: 1_700_000_000)
        var written = 0
        var pending: [Int: [ParsedItem]] = [:]
        for n in 0..<articles {
            let feed = n % feeds
            let language = languages[feed % languages.count]
            let bytes = Int(1000 * pow(10, rng.unit()))
            let item = ParsedItem(
                id: "bench-\(seed)-\(n)",
                title: SyntheticText.title(language, rng: &rng),
                link: "https://bench.example.org/a/\(n)",
                author: "Author \(rng.below(200))",
                published: epoch.addingTimeInterval(Double(n) * 90 + Double(rng.below(60))),
                text: SyntheticText.body(language, bytes: bytes, rng: &rng))
            pending[feed, default: []].append(item)
            if pending[feed]!.count == batch || n == articles - 1 {
                for (f, items) in pending where !items.isEmpty && (f == feed || n == articles - 1) {
                    if !dryRun { try await store.upsertArticles(feedURL: feedURLs[f], items: items) }
                    written += items.count
                    pending[f] = []
                }
                if written % 50_000 < batch {
                    let rate = Double(written) / Date().timeIntervalSince(start)
                    FileHandle.standardError.write(Data("\r\(written)/\(articles) (\(Int(rate))/s)".utf8))
                }
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
