import Foundation
import HeraldStore

/// Hands parsed feeds to the library in batches: while one batch is being written, the feeds
/// parsed meanwhile wait, and go in together in the next transaction (up to
/// `articlesPerBatch` articles, so the database is never held long for the reader's own
/// queries). With nothing waiting, a feed is written at once, alone.
actor ReloadWriter {
    private let store: LibraryStore
    private let articlesPerBatch: Int
    private var waiting: [(feed: FetchedFeed, done: CheckedContinuation<Result<Int, any Error>, Never>)] = []
    private var writing = false

    init(store: LibraryStore, articlesPerBatch: Int = 400) {
        self.store = store
        self.articlesPerBatch = articlesPerBatch
    }

    /// Stores a feed; returns how many of its articles were new, or why it could not be stored.
    func write(_ feed: FetchedFeed) async -> Result<Int, any Error> {
        await withCheckedContinuation { done in
            waiting.append((feed, done))
            if !writing {
                writing = true
                Task { await drain() }
            }
        }
    }

    private func drain() async {
        while !waiting.isEmpty {
            var count = 0
            var take = 0
            for entry in waiting {
                if take > 0 && count + entry.feed.items.count > articlesPerBatch { break }
                count += entry.feed.items.count
                take += 1
            }
            let batch = Array(waiting.prefix(take))
            waiting.removeFirst(take)
            let feeds = batch.map(\.feed)
            let results: [Result<Int, any Error>]
            do {
                results = try await store.storeFetchedFiltered(feeds, at: Date())
            } catch {
                results = Array(repeating: .failure(error), count: batch.count)
            }
            for (entry, result) in zip(batch, results) { entry.done.resume(returning: result) }
        }
        writing = false
    }
}
