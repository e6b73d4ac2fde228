import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

@Suite("The query language in the search box")
struct QuerySearchTests {
    @Test("plain words go to the ranked search, spelt as it reads them")
    func plainWords() throws {
        #expect(try LibraryStore.searchPlan("garden") == .words("garden"))
        #expect(try LibraryStore.searchPlan("garden ") == .words("garden "))
        #expect(try LibraryStore.searchPlan("\"quiet garden\" -river") == .words("\"quiet garden\" -river"))
        #expect(try LibraryStore.searchPlan("  ") == .words("  "))
        #expect(try LibraryStore.searchPlan("title:") == .words("title:"))
        #expect(try LibraryStore.searchPlan("garden not river and tree") == .words("garden -river tree"))
        // Text the language refuses, without a field in it, is searched as before.
        #expect(try LibraryStore.searchPlan("\"quiet gar") == .words("\"quiet gar"))
        #expect(try LibraryStore.searchPlan("AND(OR)") == .words("AND(OR)"))
        #expect(try LibraryStore.searchPlan("garden or") == .words("garden or"))
        #expect(try LibraryStore.searchPlan("https://example.org (") == .words("https://example.org ("))
    }

    @Test("a query with flags, fields or or is run as a query; a bad field or age is an error")
    func queries() throws {
        #expect(
            try LibraryStore.searchPlan("unread gard")
                == .query(.and([.flag(.unread), .text(FreeText("gard", isPrefix: true))])))
        #expect(
            try LibraryStore.searchPlan("a or b ")
                == .query(.or([.text(FreeText("a")), .text(FreeText("b"))])))
        #expect(throws: QueryError(column: 1, message: "unknown field \"auhtor\" — did you mean \"author\"?"))
        {
            try LibraryStore.searchPlan("auhtor:x")
        }
        #expect(throws: QueryError(column: 13, message: "age needs a number and a unit: age<7d")) {
            try LibraryStore.searchPlan("garden (age<d ")
        }
    }

    @Test("search runs a query newest first, with its feed titles")
    func searchRunsQueries() async throws {
        let library = try await QueryLibrary.make()
        defer { library.library.cleanUp() }
        let hits = try await library.store.search("starred -podcast", limit: 50)
        let query = try ArticleQuery.parse("starred -podcast")
        #expect(hits.map(\.id) == library.expected(query))
        #expect(!hits.isEmpty)
        #expect(hits.allSatisfy { hit in QueryLibrary.feeds.contains { $0.title == hit.feedTitle } })
        await #expect(throws: QueryError.self) { try await library.store.search("tag: x", limit: 5) }
    }
}
