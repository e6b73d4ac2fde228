import Foundation
import HeraldCore
@testable import HeraldUI
import Testing

@testable import HeraldStore
@testable import HeraldConfig

/// The reader's article list over the real store, at the far end of a 10,000-article feed.
@Suite("Paging a large feed")
@MainActor
struct PagingTests {
    static let count = 10_000

    func bigLibrary() async throws -> (LibraryStore, TemporaryLibrary) {
        let library = try TemporaryLibrary()
        let store = try await LibraryStore.open(path: library.path)
        try await store.upsertFeed(url: "big", title: "Big feed", siteURL: nil)
        let items = (0..<Self.count).map { n in
            item(String(format: "%05d", n), String(format: "Article %05d", n), "Body \(n)", day: n / 24)
        }
        for chunk in stride(from: 0, to: items.count, by: 2000) {
            try await store.upsertArticles(
                feedURL: "big", items: Array(items[chunk..<min(chunk + 2000, items.count)]))
        }
        return (store, library)
    }

    func press(_ app: ReaderApp, _ keys: Key...) async {
        for key in keys {
            app.handle(key)
            await app.settle()
        }
    }

    func titles(_ app: ReaderApp) -> [String] {
        app.render().text().split(separator: "\n").compactMap { line in
            line.range(of: "Article ").map {
                String(line[$0.lowerBound...]).trimmingCharacters(in: .whitespaces)
            }
        }
    }

    @Test("keyset pages read directly give every article once, in order")
    func keysetWalk() async throws {
        let (store, library) = try await bigLibrary()
        defer { library.cleanUp() }
        var seen: [String] = []
        var page = try await store.articles(inFeed: "big", page: .first(limit: 999))
        while !page.isEmpty {
            seen += page.map(\.title)
            page = try await store.articles(inFeed: "big", page: .after(page.last!.sortKey, limit: 999))
        }
        #expect(seen.count == Self.count)
        #expect(seen.first == "Article 09999" && seen.last == "Article 00000")
        #expect(seen == seen.sorted(by: >))
        let tail = try await store.articles(inFeed: "big", page: .last(limit: 3))
        #expect(tail.map(\.title) == ["Article 00002", "Article 00001", "Article 00000"])
        let before = try await store.articles(inFeed: "big", page: .before(tail[0].sortKey, limit: 2))
        #expect(before.map(\.title) == ["Article 00004", "Article 00003"])
    }

    @Test("End shows the oldest articles at the end; K, PgUp and Home walk back over pages")
    func endOfBigFeed() async throws {
        let (store, library) = try await bigLibrary()
        defer { library.cleanUp() }
        let app = ReaderApp(repository: store, size: Size(width: 60, height: 13))  // 10 rows
        app.start()
        await app.settle()
        await press(app, .enter, .end)
        #expect(titles(app) == (0..<10).reversed().map { String(format: "Article %05d", $0) })
        #expect(app.render().text().contains("10000/10000 articles"))
        await press(app, .character("K"))
        #expect(app.render().text().contains("9999/10000 articles"))
        // 300 rows up: past the first window that G read, so pages before it are read.
        for _ in 0..<30 { await press(app, .pageUp) }
        let shown = titles(app)
        #expect(shown.count == 10)
        #expect(shown == shown.sorted(by: >))
        guard case .articles(let list) = app.screen else { Issue.record("not on the list"); return }
        let expectedTop = Self.count - 1 - list.cursor.top
        #expect(shown.first == String(format: "Article %05d", expectedTop))
        await press(app, .home)
        #expect(titles(app).first == "Article 09999")
        #expect(list.window.count <= list.maxWindow)
    }
}
