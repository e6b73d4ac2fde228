import Foundation
import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

/// A repository whose query counts wait at a gate (to see a query row before it is counted).
actor SlowCountRepository: WrappingRepository {
    let inner: InMemoryArticleRepository
    let gate: Gate

    init(inner: InMemoryArticleRepository, gate: Gate) {
        (self.inner, self.gate) = (inner, gate)
    }

    func counts(in source: ArticleSource) async throws -> ArticleCounts {
        await gate.pass()
        return try await inner.counts(in: source)
    }
}

/// The config's `query "Name" EXPR` lines as rows of the feed list: counted, opened as a
/// list, marked read, undone, counted again after reading.
@Suite("Query feeds in the reader")
@MainActor
struct QueryFeedTests {
    let size = Size(width: 80, height: 14)  // 11 body rows

    /// Feed 0: A0 unread, A1 read, A2 unread (tagged `news`); feed 1: A0, A1 unread.
    func library() -> InMemoryArticleRepository {
        flaggedLibrary([[false, true, false], [false, false]], tags: [["news"], []])
    }

    func started(_ repository: any ArticleRepository, config: String) async -> ReaderApp {
        await AppDriver.started(repository, size: size, config: config)
    }

    func titles(_ app: ReaderApp) -> [String] {
        guard case .articles(let list) = app.screen else { return [] }
        return (0..<list.count).compactMap { list.article(at: $0)?.title }
    }

    static let config = """
        query "News, unread" tag:news unread
        query "Second articles" title:A1
        """

    @Test(
        "queries are rows after Starred with their counts; the feeds keep their numbers and the cursor starts on the first"
    )
    func rows() async throws {
        let app = await started(library(), config: Self.config)
        let rows = app.feedList.rows
        #expect(
            rows.map(\.list.title) == [
                "All articles", "Unread", "Starred", "News, unread", "Second articles", "Feed 0", "Feed 1",
            ])
        #expect(rows[3].list.source == .query("tag:news unread"))
        #expect(rows.map(\.list.unread) == [4, 4, 0, 2, 1, 2, 2])
        #expect(rows.map(\.list.total) == [5, 4, 0, 2, 2, 3, 2])
        #expect(app.feedList.selected?.list.title == "Feed 0")
        #expect(app.feedList.selectedFeed?.id == "feed-0")
        let text = app.render().text()
        #expect(text.contains("(2/2)  News, unread"), "\(text)")
        #expect(text.contains("(1/2)  Second articles"))
        #expect(text.contains("2  (2/2)  Feed 1"))
        // `2` starts `:2`, whose Enter selects feed 2 (not the second row); Enter opens it.
        await AppDriver.press(app, [.character("2"), .enter, .enter])
        #expect(titles(app) == ["F1 A0", "F1 A1"])
    }

    @Test(
        "Enter opens a query's articles newest first with their feeds; A marks them read and U takes it back")
    func openAndMark() async throws {
        let repository = library()
        let app = await started(repository, config: Self.config)
        await AppDriver.press(app, [.character("k"), .character("k"), .enter])
        #expect(app.windowTitle == "Herald · News, unread")
        #expect(titles(app) == ["F0 A0", "F0 A2"])
        #expect(app.render().text().contains("Feed 0"))
        await AppDriver.press(app, [.character("A")])
        #expect(await repository.feedSummaries().map(\.unread) == [0, 2])
        await AppDriver.press(app, [.character("q")])
        #expect(app.feedList.rows[3].list.unread == 0, "counted again after the write")
        #expect(app.feedList.rows[3].list.total == 0)
        await AppDriver.press(app, [.character("U")])
        #expect(await repository.feedSummaries().map(\.unread) == [2, 2])
        #expect(app.feedList.rows[3].list.unread == 2)
    }

    @Test("reading an article of a query and going back counts the query again")
    func recountAfterReading() async throws {
        let app = await started(library(), config: Self.config)
        await AppDriver.press(app, [.character("k"), .enter, .character("J"), .enter])
        guard case .article(let viewer) = app.screen else {
            Issue.record("no article open")
            return
        }
        #expect(viewer.summary.title == "F1 A1")
        await AppDriver.press(app, [.character("q")])
        // Still listed in the open query (read rows stay until the list is read again).
        #expect(titles(app) == ["F0 A1", "F1 A1"])
        #expect(app.feedList.rows[4].list.unread == 1, "not counted on every key")
        await AppDriver.press(app, [.character("q")])
        #expect(app.feedList.rows[4].list.unread == 0)
        #expect(app.feedList.rows[4].list.total == 2)
    }

    @Test("a query not yet counted shows … and opens all the same; its count reaches the open list")
    func counting() async throws {
        let gate = Gate()
        let repository = SlowCountRepository(inner: library(), gate: gate)
        let app = ReaderApp(repository: repository, size: size)
        app.apply(ConfigFile.parse(Self.config, file: "config"))
        app.start()
        // The feeds arrive; the counts wait at the gate.
        while app.feedList.state.value == nil { await Task.yield() }
        #expect(app.feedList.rows[3].isCounting)
        #expect(app.render().text().contains("(…)  News, unread"))
        app.handle(.character("k"))
        app.handle(.character("k"))
        app.handle(.enter)
        await gate.open()
        await app.settle()
        #expect(titles(app) == ["F0 A0", "F0 A2"])
        guard case .articles(let list) = app.screen else { return }
        #expect(list.count == 2 && list.unread == 2)
        #expect(!app.feedList.rows[3].isCounting)
    }

    @Test("show-read-articles no shows a query's unread articles only; the list opened last reopens on start")
    func unreadOnlyAndRestore() async throws {
        let repository = library()
        let app = await started(repository, config: Self.config + "\nset show-read-articles no")
        await AppDriver.press(app, [.character("k"), .enter])
        #expect(titles(app) == ["F1 A1"])
        let again = await started(repository, config: Self.config)
        #expect(again.feedList.selected?.list.title == "Second articles")
    }
}
