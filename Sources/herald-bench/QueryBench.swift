import Foundation
import HeraldCore
import HeraldStore

/// Query latency over a populated library: the first page (50 rows, newest first) of a
/// fixed set of queries of Herald's query language, p50 and p99 over `runs` runs.
///
/// The library is prepared as `lists` prepares it (tags `one`, `tenth`, `half`; a star on
/// every 100th article), and its older half is marked read, so that `unread` and `read`
/// are each half of it. `populate` writes no media files: `podcast` matches nothing and
/// shows the cost of a flag that walks the whole library.
enum QueryBench {
    static let queries = [
        "unread", "read", "starred", "-read starred", "podcast",
        "tag:one", "tag:tenth", "feed:0042.xml", "feed:feed/00",
        "author:\"Author 17\"", "author:/^author 1[0-9]$/", "title:garden", "title:/^the .* river/",
        "title:zzzzq",
        "age<7d", "age>2y", "after:2026-01-01", "before:2024-01-01",
        "garden", "river mountain", "\"quiet garden\"", "gard…", "東京", "바다", "perpustakaan",
        "garden unread", "garden or river", "garden -river", "바다 tag:half", "-garden tag:one",
        "(tag:tenth or starred) -read", "unread tag:half age<30d", "starred or title:/garden/",
        "garden (tag:one or tag:tenth)",
    ]

    static func run(path: String, runs: Int, only: [String] = []) async throws {
        let opening = DispatchTime.now().uptimeNanoseconds
        let store = try await LibraryStore.open(path: path) { from, to in
            // Unbuffered: a test kills the process when it reads this line.
            FileHandle.standardOutput.write(
                Data("migrating the library from schema \(from) to \(to)…\n".utf8))
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - opening) / 1e9
        print(String(format: "opened (with any migration) in %.1f s", seconds))
        try await ListBench.prepare(store)
        let newest = try await store.articles(in: .all, page: .first(limit: 1)).first?.sortTime ?? 0
        let oldest = try await store.articles(in: .all, page: .last(limit: 1)).first?.sortTime ?? 0
        if try await store.count(matching: .flag(.read)).total == 0 {
            try await store.setRead(true, matching: .before(oldest + (newest - oldest) / 2))
        }
        // Ages count from a day after the newest article, as if the library were read today.
        let now = Date(timeIntervalSince1970: Double(newest + 86_400))
        let total = try await store.count(matching: .everything).total
        print("library: \(total) articles; first page of 50 rows, \(runs) runs (ms)")
        print("query                            rows   p50 ms   p99 ms")
        var medians: [Double] = []
        for text in only.isEmpty ? queries : only {
            let typing = text.hasSuffix("…")
            let query = try ArticleQuery.parse(typing ? String(text.dropLast()) : text, typing: typing)
            var rows = 0
            let (p50, p99) = try await ListBench.time(runs) {
                rows = try await store.articles(matching: query, limit: 50, now: now).count
            }
            medians.append(p50)
            let padded = text.padding(toLength: 31, withPad: " ", startingAt: 0)
            print(String(format: "%@ %5d %8.2f %8.2f", padded, rows, p50, p99))
        }
        medians.sort()
        print(
            String(
                format: "median of the per-query p50s: %.2f ms (target: 50 ms at 1M articles)",
                medians[medians.count / 2]))
    }
}
