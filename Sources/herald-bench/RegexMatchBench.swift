import Foundation
import HeraldCore
import HeraldStore

/// One match of an ordinary pattern on one title, as a query runs it (`QueryRegex.matches`,
/// within a `RegexBudget`) against a bare `NSRegularExpression.firstMatch` (how patterns ran
/// before their time budget): nanoseconds a match, median over `runs` passes over the
/// library's titles.
enum RegexMatchBench {
    static let patterns = ["^[a-z]+ [a-z]+", "(garden|river)$", #"\d+\. the"#, "^the .* river", "[aeiou]{3}"]

    static func run(path: String, runs: Int) async throws {
        let store = try await LibraryStore.open(path: path)
        var titles: [String] = []
        try await store.forEachArticle(matching: .everything) { page in titles += page.map(\.summary.title) }
        print("\(titles.count) titles; ns a match, median of \(runs) passes")
        print("pattern                 bare   budgeted   ratio")
        for pattern in patterns {
            let regex = try NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
            var found = (0, 0)
            let bare = passes(runs, titles.count) {
                found.0 = titles.count {
                    regex.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil
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

    /// The median time of `runs` calls of `body`, in ns per title.
    private static func passes(_ runs: Int, _ count: Int, _ body: () -> Void) -> Double {
        var times: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(max(count, 1)))
        }
        return times.sorted()[times.count / 2]
    }
}
