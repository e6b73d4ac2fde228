import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

/// A pattern too slow in a query (`RegexBudget`, through the SQL function `regexp`): the
/// query fails with `SlowRegexError` within its budget, in every use of a query, and a bulk
/// change with it changes nothing.
@Suite("Regular expressions too slow in the store")
struct SlowRegexStoreTests {
    /// `aaaaaaaaaaaaaaaaaaaa!` … 32 `a`, and an ordinary title.
    static let titles = (20...32).map { String(repeating: "a", count: $0) + "!" } + ["Rust news"]
    static let url = "https://slow.example/feed"

    func library() async throws -> (LibraryStore, TemporaryLibrary) {
        let library = try TemporaryLibrary()
        let store = try await library.open(withFeed: Self.url)
        try await store.upsertArticles(
            feedURL: Self.url,
            items: Self.titles.enumerated().map { index, title in item("t\(index)", title, "", day: index) })
        return (store, library)
    }

    func expectTooSlow(
        _ pattern: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
    ) async {
        do {
            try await body()
            Issue.record("/\(pattern)/ ran to its end", sourceLocation: sourceLocation)
        } catch let error as SlowRegexError {
            #expect(error.pattern == pattern, sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test(
        "a query with a pattern that backtracks without end fails, in a page, a count, a list and a listing",
        arguments: [#"(\w+\s?)+$"#, "((a+)+)+$", "(a+)+$"])
    func queries(pattern: String) async throws {
        let (store, library) = try await library()
        defer { library.cleanUp() }
        let text = "title:/\(pattern)/"
        let query = try ArticleQuery.parse(text)
        let started = ContinuousClock.now
        await expectTooSlow(pattern) { _ = try await store.articles(matching: query, limit: 50) }
        await expectTooSlow(pattern) { _ = try await store.count(matching: query) }
        await expectTooSlow(pattern) {
            _ = try await store.articles(in: .query(text), page: .first(limit: 50))
        }
        await expectTooSlow(pattern) { _ = try await store.counts(in: .query(text)) }
        await expectTooSlow(pattern) { try await store.forEachArticle(matching: query) { _ in } }
        // Five queries, each stopped once: seconds at most on a loaded machine, where each
        // took 13 s to minutes.
        #expect(ContinuousClock.now - started < .seconds(30))
        // Ordinary patterns still work, in the same library.
        #expect(try await store.articles(matching: ArticleQuery.parse("title:/^rust/"), limit: 50).count == 1)
        #expect(try await store.count(matching: ArticleQuery.parse("title:/a{30}/")).total == 3)
    }

    @Test("a bulk change whose pattern is too slow changes nothing, negated or not")
    func bulkChanges() async throws {
        let (store, library) = try await library()
        defer { library.cleanUp() }
        for text in ["-title:/(a+)+$/", "title:/(a+)+$/ or unread"] {
            await expectTooSlow("(a+)+$") {
                _ = try await store.setRead(true, matching: ArticleQuery.parse(text))
            }
            await expectTooSlow("(a+)+$") { _ = try await store.setFlag(.read, true, in: .query(text)) }
            await expectTooSlow("(a+)+$") { try await store.markRead(in: .query(text)) }
            #expect(try await store.count(matching: .flag(.read)).total == 0, "\(text)")
        }
    }

    @Test("config check's trial names the patterns too slow on the field they match")
    func trial() async throws {
        let (store, library) = try await library()
        defer { library.cleanUp() }
        let slow = try await store.slowPatterns([
            (.title, "(a+)+$"), (.title, "^rust"), (.author, "((a+)+)+$"), (.title, "(a+)+$"),
        ])
        #expect(slow == ["(a+)+$"], "authors are empty here: the author pattern is fine")
    }
}
