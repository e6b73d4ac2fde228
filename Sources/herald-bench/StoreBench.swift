import Foundation
import HeraldCore
import HeraldStore

/// What storing parsed articles costs: the feeds of a directory (`herald-bench corpus`) are
/// parsed with Herald's parser first, then prepared and stored in batches as a reload does. Reports the wall and CPU time of the stores alone, the library's size per
/// article after a checkpoint that truncates the WAL (so the file is all there is), and the
/// CPU time of storing the same items again.
enum StoreBench {
    static func run(directory: String, path: String) async throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".xml") }.sorted()
        guard !names.isEmpty else { fail("no .xml feeds in \(directory)") }
        var feeds: [(url: String, items: [ParsedItem])] = []
        var htmlBytes = 0
        for name in names {
            let data = try Data(contentsOf: URL(fileURLWithPath: directory).appendingPathComponent(name))
            let url = "http://127.0.0.1/\(name)"
            let parsed = try XMLFeedParser.parse(data, baseURL: url)
            htmlBytes += parsed.items.reduce(0) { $0 + ($1.html?.utf8.count ?? 0) }
            feeds.append((url, parsed.items))
        }
        let articles = feeds.reduce(0) { $0 + $1.items.count }
        let store = try await LibraryStore.open(path: path)
        for feed in feeds { _ = try await store.subscribe(Subscription(url: feed.url)) }
        let wallStart = DispatchTime.now().uptimeNanoseconds
        let cpuStart = processCPUSeconds()
        // As a reload does: each feed prepared (off the database's thread in a reload), then
        // written in batches of about 400 articles.
        var prepareCPU = 0.0
        var batch: [FetchedFeed] = []
        for feed in feeds {
            let before = processCPUSeconds()
            let known = try await store.knownArticles(feedURL: feed.url, guids: feed.items.map(\.id))
            let prepared = LibraryStore.prepare(feed.items, known: known)
            prepareCPU += processCPUSeconds() - before
            batch.append(
                FetchedFeed(
                    url: feed.url, items: prepared, etag: nil, lastModified: nil, title: nil, siteURL: nil))
            if batch.reduce(0, { $0 + $1.items.count }) >= 400 {
                _ = try await store.storeFetched(batch, at: Date())
                batch = []
            }
        }
        if !batch.isEmpty { _ = try await store.storeFetched(batch, at: Date()) }
        let cpu = processCPUSeconds() - cpuStart
        let wall = Double(DispatchTime.now().uptimeNanoseconds - wallStart) / 1e9
        // A reload that finds every feed changed but its items the same (a feed that
        // rewrites its date on every request): every item is a known one.
        let againStart = processCPUSeconds()
        for feed in feeds { try await store.upsertArticles(feedURL: feed.url, items: feed.items) }
        let again = processCPUSeconds() - againStart
        try await store.checkpoint()
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        print(
            String(
                format: """
                    stored %d articles (%.0f B of HTML each) from %d feeds: %.2f s wall, %.2f s CPU, \
                    %.1f µs CPU per article (%.1f preparing, %.1f writing); database %.0f B per article (WAL checkpointed and truncated); \
                    stored again unchanged: %.1f µs CPU per article
                    """, articles, Double(htmlBytes) / Double(articles), feeds.count, wall, cpu,
                cpu / Double(articles) * 1e6, prepareCPU / Double(articles) * 1e6,
                (cpu - prepareCPU) / Double(articles) * 1e6, Double(size) / Double(articles),
                again / Double(articles) * 1e6)
        )
    }

    /// CPU time of the whole process (every thread), in seconds.
    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
