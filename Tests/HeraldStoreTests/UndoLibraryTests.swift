import Foundation
import HeraldCore
import Testing

@testable import HeraldStore
@testable import HeraldUI
@testable import HeraldConfig

/// `u` and the `:` flag commands over a real library file: what changed is written in one
/// transaction, and undo takes back exactly those articles.
@Suite("Undo and bulk commands over the library")
@MainActor
struct UndoLibraryTests {
    /// Two feeds of four articles ("F0 N0" … newest first); feed 0 is tagged `news`; `F0 N3`
    /// is read and `F1 N0` starred before the reader starts.
    func withLibrary(_ body: (LibraryStore, ReaderApp) async throws -> Void) async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        for f in 0..<2 {
            try await store.subscribe(
                Subscription(url: "feed-\(f)", title: "Feed \(f)", tags: f == 0 ? ["news"] : []))
            try await store.upsertArticles(
                feedURL: "feed-\(f)", items: (0..<4).map { item("\(f)-\($0)", "F\(f) N\($0)", day: 10 - $0) })
        }
        try await store.setRead(true, articleID: try await id(store, "F0 N3"))
        try await store.setStarred(true, articleID: try await id(store, "F1 N0"))
        let app = ReaderApp(repository: store, size: Size(width: 70, height: 14))
        app.start()
        await app.settle()
        try await body(store, app)
    }

    func id(_ store: LibraryStore, _ title: String) async throws -> String {
        try #require(try await store.articles(in: .all, page: .first(limit: 100)).first { $0.title == title })
            .id
    }

    /// The titles of the library's unread (or starred) articles, sorted.
    func titles(_ store: LibraryStore, _ source: ArticleSource) async throws -> [String] {
        try await store.articles(in: source, page: .first(limit: 100)).map(\.title).sorted()
    }

    func press(_ app: ReaderApp, _ keys: [Key]) async {
        for key in keys {
            app.handle(key)
            await app.settle()
        }
    }

    /// Types a command line and runs it.
    func command(_ app: ReaderApp, _ line: String) async {
        await press(app, [.character(":")] + line.map { .character($0) } + [.enter])
    }

    func openList(_ app: ReaderApp) -> ArticleListModel? {
        for screen in app.stack.reversed() { if case .articles(let list) = screen { return list } }
        return nil
    }

    @Test("U after N marks the article unread again: in the library, the list and the counts")
    func undoRead() async throws {
        try await withLibrary { store, app async throws in
            await press(app, [.enter, .character("N")])
            #expect(try await store.feedSummaries().map(\.unread) == [2, 4])
            await press(app, [.character("U")])
            #expect(app.message == "undid: 1 article marked read")
            #expect(try await store.feedSummaries().map(\.unread) == [3, 4])
            #expect(app.feedList.feeds.map(\.unread) == [3, 4])
            #expect(openList(app)?.article(at: 0)?.isRead == false)
            #expect(openList(app)?.unread == 3)
            await press(app, [.character("U")])
            #expect(app.message == "nothing to undo")
        }
    }

    @Test("U after * unstars the article again, and the Starred counts follow")
    func undoStar() async throws {
        try await withLibrary { store, app async throws in
            await press(app, [.enter, .character("*")])
            #expect(try await titles(store, .starred) == ["F0 N0", "F1 N0"])
            await press(app, [.character("U")])
            #expect(app.message == "undid: 1 article starred")
            #expect(try await titles(store, .starred) == ["F1 N0"])
            #expect(app.feedList.starred.total == 1)
            #expect(openList(app)?.article(at: 0)?.isStarred == false)
        }
    }

    @Test("U after A makes unread exactly the articles A marked: one read before stays read")
    func undoMarkFeedRead() async throws {
        try await withLibrary { store, app async throws in
            await press(app, [.enter, .character("A")])
            #expect(try await store.feedSummaries().map(\.unread) == [0, 4])
            await press(app, [.character("U")])
            #expect(app.message == "undid: 3 articles marked read")
            #expect(
                try await titles(store, .unread) == [
                    "F0 N0", "F0 N1", "F0 N2", "F1 N0", "F1 N1", "F1 N2", "F1 N3",
                ])
            #expect(app.feedList.feeds.map(\.unread) == [3, 4])
            #expect(openList(app)?.unread == 3)
            #expect((0..<4).map { openList(app)?.article(at: $0)?.isRead } == [false, false, false, true])
        }
    }

    @Test("U after C (answered y) takes back the whole library's mark, and only it")
    func undoMarkAllRead() async throws {
        try await withLibrary { store, app async throws in
            await press(app, [.character("C"), .character("y")])
            #expect(try await titles(store, .unread).isEmpty)
            await press(app, [.character("U")])
            #expect(app.message == "undid: 7 articles marked read")
            #expect(try await titles(store, .unread).count == 7)
            #expect(app.feedList.feeds.map(\.unread) == [3, 4])
        }
    }

    @Test(":mark-read over a feed's list marks what was unread, and U takes it back")
    func bulkOverFeed() async throws {
        try await withLibrary { store, app async throws in
            await press(app, [.character("j"), .enter])
            #expect(openList(app)?.list.title == "Feed 1")
            await command(app, "mark-read")
            #expect(app.message == "4 articles marked read (U undoes)")
            #expect(try await store.feedSummaries().map(\.unread) == [3, 0])
            #expect(openList(app)?.unread == 0)
            #expect(app.feedList.feeds.map(\.unread) == [3, 0])
            await press(app, [.character("U")])
            #expect(app.message == "undid: 4 articles marked read")
            #expect(try await store.feedSummaries().map(\.unread) == [3, 4])
        }
    }

    @Test(":star and :mark-unread over the river (All articles) change only what differs")
    func bulkOverRiver() async throws {
        try await withLibrary { store, app async throws in
            // The cursor starts on the first feed; the river is the first row.
            await press(app, [.home, .enter])
            #expect(openList(app)?.list.source == .all)
            await command(app, "star")
            #expect(app.message == "7 articles starred (U undoes)")
            #expect(try await titles(store, .starred).count == 8)
            await command(app, "mark-unread")
            #expect(app.message == "1 article marked unread (U undoes)")
            await press(app, [.character("U")])
            #expect(try await titles(store, .unread).count == 7)
            await press(app, [.character("U")])
            #expect(app.message == "undid: 7 articles starred")
            #expect(try await titles(store, .starred) == ["F1 N0"])
        }
    }

    @Test(":mark-read on the feed list works on the selected row, a tag's list on its feeds")
    func bulkFromFeedListAndTag() async throws {
        try await withLibrary { store, app async throws in
            await command(app, "mark-read")
            #expect(app.message == "3 articles marked read (U undoes)")
            #expect(try await store.feedSummaries().map(\.unread) == [0, 4])
            await press(app, [.character("U")])
            await press(app, [.character("t"), .enter])
            #expect(openList(app)?.list.source == .tag("news"))
            await command(app, "mark-read")
            #expect(try await store.feedSummaries().map(\.unread) == [0, 4])
        }
    }

    @Test("the library sets a flag in bulk and returns only the ids it changed")
    func storeReturnsChangedIDs() async throws {
        try await withLibrary { store, _ async throws in
            let read = try await store.setFlag(.read, true, in: .feed("feed-0"))
            #expect(read.count == 3)
            #expect(try await store.setFlag(.read, true, in: .feed("feed-0")).isEmpty)
            let unread = try await id(store, "F1 N1")
            #expect(try await store.article(id: unread).summary.isRead == false)
            let back = try await store.setFlag(.read, false, articleIDs: read + [unread])
            #expect(Set(back) == Set(read))
            #expect(try await store.setFlag(.starred, true, in: .tag("news")).count == 4)
            #expect(try await store.setFlag(.starred, false, in: .starred).count == 5)
        }
    }
}
