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
        // As a reload stores them: the articles wait for the search indexer, which runs once
        // they are all in (timed apart, and together). HERALD_BENCH_INDEX_NOW=1 indexes each
        // batch as it goes in, as before deferred indexing.
        let deferred = ProcessInfo.processInfo.environment["HERALD_BENCH_INDEX_NOW"] != "1"
        if deferred { try await store.deferSearchIndexing() }
        let start = Date()
        let epoch = Date(timeIntervalSince1970: 1_700_000_000)
        var written = 0
        var lastReport = 0
        // Feed by feed, in batches of `batch` articles, one transaction each: memory stays
        // flat however large the library. Article n belongs to feed n % feeds. The next batch
        // is generated while the store writes the current one (the machine has two cores).
        var generator = BatchGenerator(articles: articles, feeds: feeds, seed: seed, rng: rng, epoch: epoch)
        var next = generator.next()
        while let current = next {
            let store = store
            // Packed (deflate) off the database's thread, as a reload's parse threads do.
            let writing = Task {
                if !dryRun {
                    let url = feedURLs[current.feed]
                    let known = try await store.knownArticles(feedURL: url, guids: current.items.map(\.id))
                    let prepared = LibraryStore.prepare(current.items, known: known)
                    try await store.upsertArticles(feedURL: url, prepared: prepared)
                }
            }
            next = generator.next()
            try await writing.value
            written += current.items.count
            if written - lastReport >= 50_000 || next == nil {
                lastReport = written
                let rate = Double(written) / Date().timeIntervalSince(start)
                FileHandle.standardError.write(Data("\r\(written)/\(articles) (\(Int(rate))/s)".utf8))
            }
        }
        let seconds = Date().timeIntervalSince(start)
        let indexStart = Date()
        let waiting = try await store.articlesWaitingForIndex()
        // HERALD_BENCH_INDEX_BATCH=200 indexes as the reader does (batches of 200, one task
        // splitting), to time a batch; by default, as a search or `reload --index-now` does.
        let readerBatch = Int(ProcessInfo.processInfo.environment["HERALD_BENCH_INDEX_BATCH"] ?? "")
        if !dryRun {
            try await store.runSearchIndexer(batch: readerBatch ?? 2000, parts: readerBatch == nil ? 2 : 1)
        }
        let indexSeconds = Date().timeIntervalSince(indexStart)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        print(
            String(
                format: "\npopulated %d articles in %d feeds: %.1f s, %.0f articles/s, database %.1f MB",
                written, feeds, seconds, Double(written) / seconds, Double(size + wal) / 1_048_576))
        if deferred {
            print(
                String(
                    format: "search index: %d articles in %.1f s afterwards; %.0f articles/s with it",
                    waiting, indexSeconds, Double(written) / (seconds + indexSeconds)))
            if let readerBatch, waiting > 0 {
                let batches = (waiting + readerBatch - 1) / readerBatch
                print(
                    String(
                        format: "  %d batches of %d: %.1f ms each", batches, readerBatch,
                        indexSeconds * 1000 / Double(batches)))
            }
        }
    }
}

/// The batches of `Populate`, in order: feed by feed, up to `Populate.batch` of a feed's
/// articles at a time (article n belongs to feed n % feeds).
struct BatchGenerator {
    let articles: Int
    let feeds: Int
    let seed: UInt64
    var rng: SplitMix64
    let epoch: Date
    private var feed = 0
    /// The next article of `feed`.
    private var n = 0

    init(articles: Int, feeds: Int, seed: UInt64, rng: SplitMix64, epoch: Date) {
        (self.articles, self.feeds, self.seed, self.rng, self.epoch) = (articles, feeds, seed, rng, epoch)
    }

    mutating func next() -> (feed: Int, items: [ParsedItem])? {
        while feed < feeds, n >= articles {
            feed += 1
            n = feed
        }
        guard feed < feeds else { return nil }
        let language = SyntheticText.Language.allCases[feed % SyntheticText.Language.allCases.count]
        var items: [ParsedItem] = []
        while n < articles, items.count < Populate.batch {
            let bytes = Int(1000 * pow(10, rng.unit()))
            items.append(
                ParsedItem(
                    id: "bench-\(seed)-\(n)",
                    title: SyntheticText.title(language, rng: &rng),
                    link: "https://bench.example.org/a/\(n)",
                    author: "Author \(rng.below(200))",
                    published: epoch.addingTimeInterval(Double(n) * 90 + Double(rng.below(60))),
                    text: SyntheticText.body(language, bytes: bytes, rng: &rng)))
            n += feeds
        }
        return (feed, items)
    }
}
