import Foundation
import HeraldCore
import Synchronization
import HeraldStore

/// Fills a library with synthetic articles: mixed languages, 1–10 KB bodies (log-uniform),
/// dates 90 s apart, article n in feed n % feeds. Deterministic per seed.
enum Populate {
    static let batch = 1000
    /// Batches made and not yet written, at most.
    static let window = 3

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
        let cpuBefore = SyncBench.cpuSeconds()
        let epoch = Date(timeIntervalSince1970: 1_700_000_000)
        var written = 0
        var lastReport = 0
        // Feed by feed, in batches of `batch` articles, one transaction each: memory stays
        // flat however large the library. Article n belongs to feed n % feeds. While the
        // generator makes the next batches on a thread of its own, up to `window` batches are
        // looked up and packed, and written in the order they were made (so each run numbers
        // the articles the same). A batch is looked up before the one before it is written:
        // a feed's batches never share a guid.
        let generator = GeneratorThread(
            BatchGenerator(articles: articles, feeds: feeds, seed: seed, rng: rng, epoch: epoch),
            ahead: Self.window)
        defer { generator.stop() }
        // A dry run prints a digest of what it made: the same seed makes the same library.
        var digest = Digest()
        var inFlight: [Task<Int, any Error>] = []
        var previous: Task<Int, any Error>?
        func report() {
            guard written - lastReport >= 50_000 || written == articles else { return }
            lastReport = written
            let rate = Double(written) / Date().timeIntervalSince(start)
            FileHandle.standardError.write(Data("\r\(written)/\(articles) (\(Int(rate))/s)".utf8))
        }
        for await current in generator.batches {
            if dryRun { for part in current { for item in part.items { digest.add(item) } } }
            let (store, before) = (store, previous)
            let writing = Task {
                if !dryRun {
                    // One lookup for the batch's feeds: each would wait behind a batch's write.
                    let known = try await store.knownArticles(
                        current.map { (feedURLs[$0.feed], $0.items.map(\.id)) })
                    let feeds = zip(current, known).map { part, known in
                        // Packed off the database's thread, as a reload's parse threads do.
                        FetchedFeed(
                            url: feedURLs[part.feed], items: LibraryStore.prepare(part.items, known: known),
                            etag: nil,
                            lastModified: nil, title: nil, siteURL: nil)
                    }
                    _ = try await before?.value
                    if deferred {
                        // As a reload stores them: the batch's feeds in one transaction.
                        for result in try await store.storeFetched(feeds, at: Date()) { _ = try result.get() }
                    } else {
                        for feed in feeds {
                            try await store.upsertArticles(feedURL: feed.url, prepared: feed.items)
                        }
                    }
                }
                return current.reduce(0) { $0 + $1.items.count }
            }
            previous = writing
            inFlight.append(writing)
            if inFlight.count >= Self.window {
                written += try await inFlight.removeFirst().value
                generator.took()
                report()
            }
        }
        for writing in inFlight {
            written += try await writing.value
            report()
        }
        let seconds = Date().timeIntervalSince(start)
        let cpu = SyncBench.cpuSeconds()
        if dryRun { print("\ngenerated: digest \(String(digest.value, radix: 16))") }
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
                format:
                    "\npopulated %d articles in %d feeds: %.1f s (%.1f CPU-s), %.0f articles/s, database %.1f MB",
                written, feeds, seconds, cpu.user + cpu.system - cpuBefore.user - cpuBefore.system,
                Double(written) / seconds, Double(size + wal) / 1_048_576))
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

/// A `BatchGenerator` on a thread of its own, at most `ahead` batches ahead of those taken
/// (`took()`). A long synchronous loop must not hold one of the cooperative pool's two
/// threads: the batches' tasks waited for it to start, and their lookups then queued behind
/// the writes, so that packing and writing took turns (16,800 articles/s instead of 20,000+).
final class GeneratorThread: Sendable {
    typealias Batch = [(feed: Int, items: [ParsedItem])]
    let batches: AsyncStream<Batch>
    private let slots: DispatchSemaphore
    private let stopped = Mutex(false)

    init(_ generator: BatchGenerator, ahead: Int) {
        let (batches, continuation) = AsyncStream.makeStream(of: Batch.self)
        // Made at 0 and signalled up: libdispatch traps when a semaphore is freed below the
        // value it was made with, as this one is when the run ends with batches unwritten.
        let slots = DispatchSemaphore(value: 0)
        for _ in 0..<ahead { slots.signal() }
        (self.batches, self.slots) = (batches, slots)
        let thread = Thread { [self] in
            var generator = generator
            while true {
                slots.wait()
                guard !self.stopped.withLock({ $0 }), let batch = generator.next() else { break }
                continuation.yield(batch)
            }
            continuation.finish()
        }
        thread.start()
    }

    /// A batch was written: the generator may make one more.
    func took() { slots.signal() }

    /// Ends the generator (it finishes the batch it is making).
    func stop() {
        stopped.withLock { $0 = true }
        slots.signal()
    }
}

/// FNV-1a over the articles' fields, to check that a generator still makes the same library.
struct Digest {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ item: ParsedItem) {
        for field in [item.id, item.title, item.link ?? "", item.author ?? "", item.text] {
            for byte in field.utf8 { add(byte) }
            add(0)
        }
        add(UInt8(truncatingIfNeeded: Int(item.published?.timeIntervalSince1970 ?? 0)))
    }

    private mutating func add(_ byte: UInt8) { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
}

/// The batches of `Populate`, in order: feed by feed, `Populate.batch` articles at a time
/// (the last of a batch's feeds may go on in the next), article n in feed n % feeds.
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

    mutating func next() -> [(feed: Int, items: [ParsedItem])]? {
        var batch: [(feed: Int, items: [ParsedItem])] = []
        var count = 0
        while count < Populate.batch, let part = next(atMost: Populate.batch - count) {
            batch.append(part)
            count += part.items.count
        }
        return batch.isEmpty ? nil : batch
    }

    private mutating func next(atMost limit: Int) -> (feed: Int, items: [ParsedItem])? {
        while feed < feeds, n >= articles {
            feed += 1
            n = feed
        }
        guard feed < feeds else { return nil }
        let language = SyntheticText.Language.allCases[feed % SyntheticText.Language.allCases.count]
        var items: [ParsedItem] = []
        while n < articles, items.count < limit {
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
