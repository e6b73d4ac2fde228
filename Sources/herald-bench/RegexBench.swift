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
        print("library: \(total) articles; \(runs) runs, medians (ms)")
        print("query                                   matches   count ms   page ms")
        for text in queries {
            let query = try ArticleQuery.parse(text)
            var matches = 0
            let (count, _) = try await ListBench.time(runs) {
                matches = try await store.count(matching: query).total
            }
            let (page, _) = try await ListBench.time(runs) {
                _ = try await store.articles(matching: query, limit: 50)
            }
            let padded = text.padding(toLength: 38, withPad: " ", startingAt: 0)
            print(String(format: "%@ %8d %10.2f %9.2f", padded, matches, count, page))
        }
    }
}
