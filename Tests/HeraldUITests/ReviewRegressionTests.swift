import Foundation
import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

/// Counts list reads and, past a limit, fails them (so a read loop ends and can be seen).
actor CountingRepository: WrappingRepository {
    nonisolated let inner: InMemoryArticleRepository
    private(set) var pageReads = 0
    let limit: Int

    struct TooManyReads: Error, CustomStringConvertible { var description: String { "too many reads" } }

    init(inner: InMemoryArticleRepository, limit: Int = 500) {
        self.inner = inner
        self.limit = limit
    }

    func articles(in source: ArticleSource, page: ArticlePage) async throws -> [ArticleSummary] {
        pageReads += 1
        if pageReads > limit { throw TooManyReads() }
        return try await inner.articles(in: source, page: page)
    }
}

/// A repository whose `position` and `firstUnread` wait until the test opens a gate.
actor SlowNavigationRepository: WrappingRepository {
    nonisolated let inner: InMemoryArticleRepository
    private let gate = Gate()

    init(inner: InMemoryArticleRepository) { self.inner = inner }

    func closeGate() async { await gate.close() }
    func openGate() async { await gate.open() }

    func firstUnread(in source: ArticleSource, after key: ArticleSortKey?, direction: ListDirection)
        async throws
        -> ArticleSummary?
    {
        await gate.pass()
        return try await inner.firstUnread(in: source, after: key, direction: direction)
    }

    func position(of key: ArticleSortKey, in source: ArticleSource) async throws -> Int {
        await gate.pass()
        return try await inner.position(of: key, in: source)
    }

    func article(id: String) async throws -> Article {
        await gate.pass()
        return try await inner.article(id: id)
    }
}

/// A repository whose `markRead` waits until the test opens a gate (a big UPDATE).
actor SlowMarkReadRepository: WrappingRepository {
    nonisolated let inner: InMemoryArticleRepository
    private let gate = Gate()

    init(inner: InMemoryArticleRepository) { self.inner = inner }

    func openGate() async { await gate.open() }

    func markRead(in source: ArticleSource) async throws {
        await gate.pass()
        try await inner.markRead(in: source)
    }
}

/// One feed, one article of one long paragraph: "w001 w002 … w600".
func longParagraphLibrary() -> InMemoryArticleRepository {
    let feed = Feed(url: "long", title: "Long")
    let text = (1...600).map { "w" + String(format: "%03d", $0) }.joined(separator: " ")
    let article = Article(
        summary: ArticleSummary(
            id: "long-1", feedID: "long", title: "Long", published: Date(timeIntervalSince1970: 1_790_000_000)
        ),
        feedTitle: "Long", link: nil, text: text)
    return InMemoryArticleRepository(feeds: [(feed, [article])])
}

@Suite("Regressions found in review")
@MainActor
struct ReviewRegressionTests {
    let size = Size(width: 70, height: 13)  // 10 body rows

    func list(_ app: ReaderApp) -> ArticleListModel? {
        for screen in app.stack.reversed() { if case .articles(let list) = screen { return list } }
        return nil
    }

    func openTitle(_ app: ReaderApp) -> String? {
        if case .article(let viewer) = app.screen { viewer.summary.title } else { nil }
    }

    @Test("n in the Unread list moves the list's cursor to each article it opens")
    func unreadListCursorFollowsN() async throws {
        let app = await AppDriver.started(flaggedLibrary([[false, false, false, false]]), size: size)
        // Feed list: cursor starts on Feed 0 (row 3); Unread is row 1.
        await AppDriver.press(app, [.character("k"), .character("k"), .enter])
        #expect(list(app)?.list.title == "Unread")
        await AppDriver.press(app, [.character("n")])  // opens F0 A0 (selected, unread)
        #expect(openTitle(app) == "F0 A0")
        await AppDriver.press(app, [.character("n")])
        #expect(openTitle(app) == "F0 A1")
        #expect(list(app)?.selected?.title == "F0 A1", "the list under follows the article")
        await AppDriver.press(app, [.character("n")])
        #expect(openTitle(app) == "F0 A2")
        #expect(list(app)?.selected?.title == "F0 A2", "the list under follows the article")
        await AppDriver.press(app, [.character("q")])
        #expect(
            list(app)?.selected?.title == "F0 A2", "back in the list, the cursor is on the article last read")
    }

    @Test(
        "in the Unread list, after reading a few, G then scrolling back to the top reads a bounded number of pages and loads the top"
    )
    func unreadListReadLoop() async throws {
        let library = CountingRepository(
            inner: flaggedLibrary([Array(repeating: false, count: 260)]), limit: 400)
        let app = await AppDriver.started(library, size: size)
        await AppDriver.press(app, [.character("k"), .character("k"), .enter])
        #expect(list(app)?.list.title == "Unread")
        // Read three articles in place (N), as a newsboat user does.
        await AppDriver.press(
            app, [.character("N"), .character("J"), .character("N"), .character("J"), .character("N")])
        await AppDriver.press(app, [.end])
        for _ in 0..<30 { await AppDriver.press(app, [.pageUp]) }
        let reads = await library.pageReads
        #expect(reads < 50, "list reads: \(reads)")
        #expect(list(app)?.failure == nil, "failure: \(list(app)?.failure ?? "")")
        #expect(list(app)?.selected != nil, "the top row is loaded")
        // Read articles have left Unread in the library: read again, the list starts with
        // the first one still unread.
        #expect(list(app)?.selected?.title == "F0 A3")
    }

    @Test("L on a list row, then q before the article is read: no links screen opens over the feed list")
    func staleLinksScreen() async throws {
        let library = SlowNavigationRepository(inner: flaggedLibrary([[false, false]]))
        await library.openGate()
        let app = await AppDriver.started(library, size: size)
        await AppDriver.press(app, [.enter])  // Feed 0's list
        await library.closeGate()
        app.handle(.character("L"))  // reads the article for its links...
        app.handle(.character("q"))  // ...but the user leaves the list meanwhile
        await library.openGate()
        await app.settle()
        #expect(app.screenKind == .feeds, "the links of an article of a list already left: \(app.screenKind)")
    }

    @Test("A on a big feed, then j: when the counts come back the cursor stays where the user moved it")
    func feedCursorSnapsBack() async throws {
        let library = SlowMarkReadRepository(inner: flaggedLibrary([[false], [false], [false]]))
        let app = await AppDriver.started(library, size: size)
        #expect(app.feedList.selected?.list.title == "Feed 0")
        app.handle(.character("A"))
        app.handle(.character("j"))
        app.handle(.character("j"))
        #expect(app.feedList.selected?.list.title == "Feed 2")
        await library.openGate()
        await app.settle()
        #expect(
            app.feedList.selected?.list.title == "Feed 2",
            "the user moved on: \(app.feedList.selected?.list.title ?? "")")
    }

    @Test("a resize while C asks y/n keeps the question and is handled")
    func resizeDuringConfirmation() async throws {
        let app = await AppDriver.started(flaggedLibrary([[false], [false]]), size: size)
        app.handle(.character("C"))
        #expect(app.render().text().contains("(y/n)"))
        app.size = Size(width: 60, height: 12)
        app.handle(.resize)
        #expect(app.render().text().contains("(y/n)"), "the question is still asked after a resize")
    }

    @Test("a narrower window keeps the text that was at the top inside a long paragraph")
    func resizeInsideLongParagraph() async throws {
        let app = await AppDriver.started(longParagraphLibrary(), size: Size(width: 70, height: 13))
        await AppDriver.press(app, [.enter, .enter])
        guard case .article(let viewer) = app.screen else {
            Issue.record("not on an article")
            return
        }
        // Down 40 lines into the paragraph.
        for digit in "40" { await AppDriver.press(app, [.character(digit)]) }
        await AppDriver.press(app, [.character("j")])
        let wide = viewer.lines(width: 70, theme: app.theme)
        let firstWord = String(wide[viewer.top].text.split(separator: " ").first ?? "")
        app.size = Size(width: 20, height: 13)
        app.handle(.resize)
        let narrow = viewer.lines(width: 20, theme: app.theme)
        let shown = narrow[viewer.top..<min(viewer.top + 10, narrow.count)].map(\.text).joined(separator: " ")
        #expect(shown.contains(firstWord), "top was \(firstWord); now shows \(narrow[viewer.top].text)")
    }

    @Test("every screen renders at tiny sizes without trapping")
    func tinySizes() async throws {
        let library = flaggedLibrary([[false, true, false], [false]], tags: [["tech"], ["news"]])
        await library.setFeedError("feed-1", "boom\u{1b}[2J")
        let scripts: [[Key]] = [
            [], [.enter], [.enter, .enter], [.enter, .enter, .character("L")], [.character("t")],
            [.character("!")], [.character("?")], [.character("/"), .character("F")],
            [.home, .enter],
        ]
        for script in scripts {
            for width in [1, 2, 3, 5, 8] {
                for height in [1, 2, 3, 4, 6] {
                    let app = await AppDriver.started(
                        library, size: Size(width: 40, height: 12), clock: ImmediateDebounceClock())
                    await AppDriver.press(app, script)
                    app.size = Size(width: width, height: height)
                    app.handle(.resize)
                    await app.settle()
                    _ = app.render()
                    await AppDriver.press(
                        app, [.character("j"), .end, .pageDown, .home])
                    _ = app.render()
                }
            }
        }
    }

    @Test(
        "Enter on All articles while the feed list is still loading says so instead of opening an empty list")
    func enterWhileFeedListLoads() async throws {
        let library = GatedRepository(
            inner: flaggedLibrary([Array(repeating: false, count: 150), Array(repeating: false, count: 150)]))
        let app = ReaderApp(repository: library, size: size)
        app.start()
        #expect(app.feedList.selected?.list.title == "All articles")
        app.handle(.enter)
        #expect(app.render().text().contains("The feeds are still loading."))
        #expect(list(app) == nil, "no list of unknown length is opened")
        await library.openGate()
        await app.settle()
        await AppDriver.press(app, [.home, .enter])
        #expect(list(app)?.count == 300, "count: \(list(app)?.count ?? -1)")
    }

    @Test(":500 Enter in a long feed selects row 500 (read as it comes), and Enter opens article 500")
    func rowCommandFar() async throws {
        let app = await AppDriver.started(flaggedLibrary([Array(repeating: false, count: 600)]), size: size)
        await AppDriver.press(app, [.enter, .character("5"), .character("0"), .character("0"), .enter])
        #expect(list(app)?.cursor.selected == 499)
        #expect(list(app)?.selected?.title == "F0 A499", "the row far down was read")
        await AppDriver.press(app, [.enter])
        #expect(
            openTitle(app) == "F0 A499",
            "screen: \(app.screenKind), \(app.render().text().split(separator: "\n").suffix(2))")
    }

    @Test("on the feed list :2 names a feed as numbered on screen, not the second row")
    func rowCommandOnFeedList() async throws {
        let app = await AppDriver.started(flaggedLibrary([[false], [false], [false]]), size: size)
        await AppDriver.press(app, [.character(":"), .character("2"), .enter])
        #expect(
            app.feedList.selected?.list.title == "Feed 1",
            ":2 selected \(app.feedList.selected?.list.title ?? "")")
        #expect(app.screenKind == .feeds, "selected, not opened")
    }

    @Test("in the Unread list, K after J goes back to the article just read")
    func unreadListKGoesBack() async throws {
        let app = await AppDriver.started(flaggedLibrary([[false, false, false]]), size: size)
        await AppDriver.press(app, [.character("k"), .character("k"), .enter, .enter])
        #expect(openTitle(app) == "F0 A0")
        await AppDriver.press(app, [.character("J")])
        #expect(openTitle(app) == "F0 A1")
        await AppDriver.press(app, [.character("K")])
        #expect(
            openTitle(app) == "F0 A0",
            "K: \(openTitle(app) ?? "-"); \(app.render().text().split(separator: "\n").suffix(2).first ?? "")"
        )
    }

    @Test("in the Starred list, unstarring then J/K and n still work from the row")
    func starredListAfterUnstar() async throws {
        let library = flaggedLibrary([[false, false, false, false]])
        for id in ["f0-0", "f0-1", "f0-2", "f0-3"] { try await library.setStarred(true, articleID: id) }
        let app = await AppDriver.started(library, size: size)
        await AppDriver.press(app, [.character("k"), .enter])
        #expect(list(app)?.list.title == "Starred")
        await AppDriver.press(app, [.character("*"), .character("J"), .character("*"), .character("J")])  // unstar A0, A1; on A2
        await AppDriver.press(app, [.enter, .character("K")])
        #expect(openTitle(app) == "F0 A1", "K from A2: \(openTitle(app) ?? "-")")
    }

    @Test("n in flight, then / opens search over the list: the late answer opens nothing over it")
    func staleNUnderSearch() async throws {
        let library = SlowNavigationRepository(inner: flaggedLibrary([[true, false], [false, false]]))
        await library.openGate()
        let app = await AppDriver.started(library, size: size)
        await AppDriver.press(app, [.enter])  // Feed 0, cursor on A0 (read)
        await library.closeGate()
        app.handle(.character("n"))  // looks for F0 A1 ...
        app.handle(.character("/"))  // ... but the user searches
        await library.openGate()
        await app.settle()
        #expect(app.screenKind == .search, "the late n acted over the search screen")
        #expect(app.stack.count == 3)
        // Back in the list, n works again.
        app.handle(.escape)
        app.handle(.character("n"))
        await app.settle()
        #expect(openTitle(app) != nil)
    }

    @Test("n in flight, q, Enter on another feed: the late answer does not act on the new list")
    func staleNAfterLeavingList() async throws {
        var hits = 0
        for _ in 0..<20 {
            let library = SlowNavigationRepository(inner: flaggedLibrary([[true, false], [false, false]]))
            await library.openGate()
            let app = await AppDriver.started(library, size: size)
            await AppDriver.press(app, [.enter])  // Feed 0, cursor on A0 (read)
            var old: ObjectIdentifier?
            if case .articles(let l) = app.screen { old = ObjectIdentifier(l) }
            await library.closeGate()
            app.handle(.character("n"))  // looks for F0 A1 ...
            app.handle(.character("q"))  // ... but the user leaves
            app.handle(.character("j"))
            app.handle(.enter)  // and opens Feed 1
            var new: ObjectIdentifier?
            if case .articles(let l) = app.screen { new = ObjectIdentifier(l) }
            await library.openGate()
            await app.settle()
            if openTitle(app) != nil {
                hits += 1
                Issue.record(
                    "stale n opened \(openTitle(app)!) over \(list(app)?.list.title ?? "-"); same identifier: \(old == new)"
                )
                break
            }
        }
        #expect(hits == 0)
    }

    @Test("J in flight, q, Enter on another row: the late answer does not replace the new article")
    func staleJAfterLeavingArticle() async throws {
        for _ in 0..<20 {
            let library = SlowNavigationRepository(inner: flaggedLibrary([[false, false, false, false]]))
            await library.openGate()
            let app = await AppDriver.started(library, size: size)
            await AppDriver.press(app, [.enter, .enter])  // F0 A0 open
            await library.closeGate()
            app.handle(.character("J"))  // reads the article after A0 ...
            app.handle(.character("q"))
            app.handle(.end)
            app.handle(.enter)  // ... the user opened A3 meanwhile
            await library.openGate()
            await app.settle()
            if openTitle(app) != "F0 A3" {
                Issue.record("the user's A3 was replaced by \(openTitle(app) ?? "-")")
                break
            }
        }
    }
}
