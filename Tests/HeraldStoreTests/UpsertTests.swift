import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

@Suite("Storing articles")
struct UpsertTests {
    let feed = "https://a.example/feed"

    func store(_ library: TemporaryLibrary) async throws -> LibraryStore {
        let store = try await LibraryStore.open(path: library.path)
        try await store.upsertFeed(url: feed, title: "A", siteURL: nil)
        return store
    }

    @Test("an item read again unchanged writes nothing")
    func unchangedWritesNothing() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await store(library)
        var items = [item("1", "One", "garden text", day: 1), item("2", "Two", "river text", day: 2)]
        items[0].html = "<p>garden text</p>"
        try await store.upsertArticles(feedURL: feed, items: items)
        let before = try await store.integer("SELECT total_changes()")
        #expect(try await store.upsertArticles(feedURL: feed, items: items) == 0)
        #expect(try await store.integer("SELECT total_changes()") == before)
        items[1].link = "https://a.example/moved"
        try await store.upsertArticles(feedURL: feed, items: items)
        #expect(try await store.integer("SELECT total_changes()") == before + 1)
        #expect(try await store.search("river", limit: 10).map(\.article.title) == ["Two"])
    }

    @Test("a changed text replaces the article's words in the search index")
    func changedTextReindexed() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await store(library)
        try await store.upsertArticles(feedURL: feed, items: [item("1", "One", "garden 도서관 first")])
        try await store.upsertArticles(feedURL: feed, items: [item("1", "One", "harbour 바다 second")])
        #expect(try await store.search("garden", limit: 10).isEmpty)
        #expect(try await store.search("도서관", limit: 10).isEmpty)
        #expect(try await store.search("harbour", limit: 10).map(\.article.title) == ["One"])
        #expect(try await store.search("바다", limit: 10).map(\.article.title) == ["One"])
        try await store.execute("INSERT INTO articles_fts(articles_fts) VALUES ('integrity-check')")
        try await store.execute("INSERT INTO articles_cjk(articles_cjk) VALUES ('integrity-check')")
    }

    @Test("an id given twice in one batch is stored once, the later copy winning")
    func duplicateInBatch() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await store(library)
        let added = try await store.upsertArticles(
            feedURL: feed, items: [item("1", "First", "garden"), item("1", "Second", "river")])
        #expect(added == 1)
        let rows = try await store.articles(inFeed: feed, page: .first(limit: 10))
        #expect(rows.map(\.title) == ["Second"])
        #expect(try await store.search("garden", limit: 10).isEmpty)
        #expect(try await store.search("river", limit: 10).map(\.article.title) == ["Second"])
    }

    @Test("the text and HTML read back are those stored, HTML absent when there was none")
    func bodyReadBack() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await store(library)
        var rich = item("1", "Rich", String(repeating: "한국어 text [1]\n\n", count: 50), day: 1)
        rich.html = String(repeating: "<p>한국어 <a href=\"https://x.example\">text</a></p>", count: 50)
        try await store.upsertArticles(feedURL: feed, items: [rich, item("2", "Plain", "just text", day: 2)])
        let rows = try await store.articles(inFeed: feed, page: .first(limit: 10))
        let plain = try await store.article(id: rows[0].id)
        let article = try await store.article(id: rows[1].id)
        #expect((plain.text, plain.html) == ("just text", nil))
        #expect((article.text, article.html) == (rich.text, rich.html))
    }

    @Test("removing a feed removes its articles from the search index")
    func unsubscribeClearsIndex() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await store(library)
        try await store.upsertArticles(
            feedURL: feed, items: [item("1", "One", String(repeating: "garden 도서관 ", count: 30))])
        #expect(try await store.unsubscribe(url: feed))
        #expect(try await store.search("garden", limit: 10).isEmpty)
        #expect(try await store.search("도서관", limit: 10).isEmpty)
        #expect(try await store.integer("SELECT count(*) FROM articles_vocab") == 0)
    }
}
