import Foundation
import HeraldCore
import HeraldStore

/// Search latency over a populated library: p50 and p99 per query, over `runs` runs.
enum SearchBench {
    static let queries = [
        "garden", "river mountain", "gard", "moun", "perpustakaan", "sungai", "바다", "도서관",
        "東京", "図書館", "電車", "\"quiet garden\"", "terminal -winter",
    ]

    static func run(path: String, runs: Int) async throws {
        let store = try await LibraryStore.open(path: path)
        print("query                    hits   p50 ms   p99 ms")
        var medians: [Double] = []
        for query in queries {
            var times: [Double] = []
            var hits = 0
            for _ in 0..<runs {
                let start = DispatchTime.now().uptimeNanoseconds
                hits = try await store.search(query, limit: 200).count
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            times.sort()
            let p50 = times[times.count / 2]
            let p99 = times[min(times.count - 1, Int(Double(times.count) * 0.99))]
            medians.append(p50)
            let padded = query.padding(toLength: 22, withPad: " ", startingAt: 0)
            print(String(format: "%@ %6d %8.2f %8.2f", padded, hits, p50, p99))
        }
        medians.sort()
        print(String(format: "median of the per-query p50s: %.2f ms", medians[medians.count / 2]))
    }
}
