import Foundation
import HeraldCore
import HeraldStore
import Synchronization

/// One match of an ordinary pattern on one title, as a query runs it (`QueryRegex.matches`,
/// within a `RegexBudget`) against a cached `NSRegularExpression.firstMatch` (how patterns
/// ran before their time budget): nanoseconds a match, the fastest of `runs` passes over the
/// library's titles (on a loaded machine the fastest is the better estimate of the work).
enum RegexMatchBench {
    static let patterns = ["^[a-z]+ [a-z]+", "(garden|river)$", #"\d+\. the"#, "^the .* river", "[aeiou]{3}"]

    static func run(path: String, runs: Int) async throws {
        let store = try await LibraryStore.open(path: path)
        var titles: [String] = []
        try await store.forEachArticle(matching: .everything) { page in titles += page.map(\.summary.title) }
        print("\(titles.count) titles; ns a match, fastest of \(runs) passes")
        print("pattern                 bare   budgeted   ratio")
        // As `QueryRegex` ran a pattern before: looked up among those compiled, then matched.
        let compiled = Mutex<[String: NSRegularExpression]>([:])
        for pattern in patterns {
            let regex = try NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
            compiled.withLock { $0[pattern] = regex }
            var found = (0, 0)
            let bare = passes(runs, titles.count) {
                found.0 = titles.count { title in
                    guard let regex = compiled.withLock({ $0[pattern] }) else { return false }
                    return regex.firstMatch(in: title, range: NSRange(title.startIndex..., in: title)) != nil
                }
            }
            let budgeted = passes(runs, titles.count) {
                found.1 = RegexBudget().run {
                    titles.count { (try? QueryRegex.matches(pattern, $0)) == true }
                }
            }
            precondition(found.0 == found.1, "\(pattern): \(found)")
            let padded = pattern.padding(toLength: 20, withPad: " ", startingAt: 0)
            print(String(format: "%@ %7.0f %10.0f %7.2f", padded, bare, budgeted, budgeted / bare))
        }
    }

    /// The fastest of `runs` calls of `body`, in ns per title.
    private static func passes(_ runs: Int, _ count: Int, _ body: () -> Void) -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(max(count, 1)))
        }
        return times.min() ?? 0
    }
}
