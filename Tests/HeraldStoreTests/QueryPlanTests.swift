import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

/// Every way of reading a query's page gives the same rows: read by row id, the whole match
/// list looked up while the time index is walked, a probe asking the index row by row, and
/// a probe that stops short and leaves the rest to the plan.
@Suite("Query plans")
struct QueryPlanTests {
    static let plans: [(name: String, limits: QueryPlanLimits)] = [
        ("row ids first", QueryPlanLimits()),
        ("match lists, no probe", QueryPlanLimits(probeRows: 0, fewMatches: 0)),
        (
            "probe of the whole library",
            QueryPlanLimits(probeRows: 600, fewMatches: 0, skipsSparseWords: false)
        ),
        ("probe cut short", QueryPlanLimits(probeRows: 2, fewMatches: 0, skipsSparseWords: false)),
        ("probe of a few windows", QueryPlanLimits(probeRows: 7, fewMatches: 0, skipsSparseWords: false)),
    ]

    static let queries = [
        "swift", "garden", "\"main actor\"", "swift -rust", "garden -read", "swift -\"main actor\"",
        "한국어", "東京 -swift", "KTX에서", "swift or café", "(swift or rust) (ann or bob)", "-swift -rust",
        "title:swift", "title:/^episode 1[23]/", "author:ann", "author:/lee$/", "title:café -podcast",
        "unread swift", "title:swift unread", "podcast", "-podcast", "read", "-unread", "-starred tag:news",
        "gard", "e-mail", "e-mail -swift", "swift fts5",
    ]

    @Test("each plan reads the same pages as memory", arguments: plans.indices)
    func plansAgree(plan: Int) async throws {
        let library = try await QueryLibrary.make()
        defer { library.library.cleanUp() }
        await library.store.setQueryPlanLimits(Self.plans[plan].limits)
        var generator = QueryGenerator(seed: 0x9_1A45)
        let generated = (0..<120).map { _ in generator.query(depth: 2) }
        for text in Self.queries + generated {
            let query = try ArticleQuery.parse(text, typing: text == "gard")
            let expected = library.expected(query)
            #expect(try await library.found(query) == expected, "\(Self.plans[plan].name): \(text)")
            // Page by page, three rows at a time.
            let seen = try await library.foundInPages(query)
            #expect(seen == expected, "\(Self.plans[plan].name), in pages: \(text)")
        }
    }

    @Test("a query feed reads its pages through the same plans, both ways")
    func queryFeedPages() async throws {
        let library = try await QueryLibrary.make()
        defer { library.library.cleanUp() }
        await library.store.setQueryPlanLimits(
            QueryPlanLimits(probeRows: 3, fewMatches: 0, skipsSparseWords: false))
        for text in ["swift", "garden or café", "title:swift", "-swift"] {
            let expected = library.expected(try ArticleQuery.parse(text))
            let source = ArticleSource.query(text)
            let first = try await library.store.articles(in: source, page: .first(limit: 100))
            let last = try await library.store.articles(in: source, page: .last(limit: 2))
            #expect(first.map(\.id) == expected, "\(text)")
            #expect(last.map(\.id) == Array(expected.suffix(2)), "\(text)")
        }
    }
}
