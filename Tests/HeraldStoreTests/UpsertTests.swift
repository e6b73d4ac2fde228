import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

@Suite("Storing articles")
struct UpsertTests {
    let feed = "https://a.example/feed"

    func store(_ library: TemporaryLibrary) async throws -> LibraryStore {
        try await library.open(withFeed: feed)
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
        let rows = try await store.articles(inFeed: FeedID(feed), page: .first(limit: 10))
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
        let rows = try await store.articles(inFeed: FeedID(feed), page: .first(limit: 10))
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

    @Test("new items go in several to a statement: each keeps its own words, counts and order")
    func manyNewItemsInOneGo() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await store(library)
        // 150 rows: statements of 64, 64, 16, 4 and 2; one guid twice, the later copy winning.
        var items = (0..<150).map { item("g\($0)", "Title \($0)", "w\($0)z common", day: $0) }
        items.append(item("g7", "Title 7 again", "changed7 common", day: 7))
        #expect(try await store.upsertArticles(feedURL: feed, items: items) == 150)
        for n in [0, 63, 64, 127, 128, 143, 144, 147, 148, 149] {
            #expect(try await store.search("w\(n)z", limit: 5).map(\.article.title) == ["Title \(n)"])
        }
        #expect(try await store.search("w7z", limit: 5).isEmpty)
        #expect(try await store.search("changed7", limit: 5).map(\.article.title) == ["Title 7 again"])
        #expect(try await store.integer("SELECT total_count FROM feeds") == 150)
        #expect(try await store.integer("SELECT unread_count FROM feeds") == 150)
        // Each row got its own columns: the guid, title and date that went in with it.
        #expect(
            try await store.integer(
                "SELECT count(*) FROM articles WHERE 'g' || substr(title, 7) != guid AND guid != 'g7'") == 0)
        #expect(
            try await store.integer(
                "SELECT count(*) FROM articles WHERE sort_time != 1790000000 + CAST(substr(guid, 2) AS INTEGER) * 86400"
            ) == 0)
    }
}
