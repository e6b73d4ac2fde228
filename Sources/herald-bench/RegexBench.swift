import Foundation
import HeraldCore
import HeraldStore

/// What ordinary regular expressions cost in queries over a populated library: for each
/// pattern, counting every match (the pattern runs on every title or author its trigram
/// candidates give, all of them when it has no three literal characters in a row) and the
/// first page of 50, median over `runs`. Before and after a change to how patterns run
/// (issue 23: their time budget), on the same library. Only the store's public API, so the
/// same file measures an older Herald too.
enum RegexBench {
    static let queries = [
        "title:/^[a-z]+ [a-z]+/", "title:/(garden|river)$/", #"title:/\d+\. the/"#, "title:/^the .* river/",
        "author:/^author 1[0-9]$/", "title:/[aeiou]{3}/ or author:/7$/",
    ]

    static func run(path: String, runs: Int) async throws {
        let store = try await LibraryStore.open(path: path)
        let total = try await store.count(matching: .everything).total
        print("library: \(total) articles; \(runs) runs, fastest and median (ms: on a loaded machine the")
        print("fastest run is the better estimate of the work)")
        print("query                                   matches   count min/p50     page min/p50")
        for text in queries {
            let query = try ArticleQuery.parse(text)
            var matches = 0
            let count = try await times(runs) { matches = try await store.count(matching: query).total }
            let page = try await times(runs) { _ = try await store.articles(matching: query, limit: 50) }
            let padded = text.padding(toLength: 38, withPad: " ", startingAt: 0)
            print(
                String(
                    format: "%@ %8d %8.2f %7.2f %8.2f %7.2f", padded, matches, count.min, count.p50, page.min,
                    page.p50))
        }
    }

    /// The fastest and the median of `runs` calls, in ms.
    static func times(_ runs: Int, _ body: () async throws -> Void) async throws -> (min: Double, p50: Double)
    {
        var times: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            try await body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        times.sort()
        return (times[0], times[times.count / 2])
    }
}
