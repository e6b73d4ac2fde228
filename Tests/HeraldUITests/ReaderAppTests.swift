import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

@Suite("Reader app")
@MainActor
struct ReaderAppTests {
    let size = Size(width: 60, height: 13)  // 10 body rows

    func started(_ repository: any ArticleRepository) async -> ReaderApp {
        await AppDriver.started(repository, size: size)
    }

    func press(_ app: ReaderApp, _ keys: Key...) async {
        await AppDriver.press(app, keys)
    }

    @Test("the feed list shows loading, then the feeds")
    func loadingThenLoaded() async throws {
        let repository = GatedRepository(inner: makeLibrary())
        let app = ReaderApp(repository: repository, size: size)
        app.start()
        await Task.yield()
        #expect(app.render().text().contains("loading…"))
        await repository.openGate()
        await app.settle()
        let text = app.render().text()
        #expect(!text.contains("loading…"))
        #expect(text.contains("Feed 0") && text.contains("Feed 1"))
    }

    @Test("a repository error is shown, not thrown")
    func errorState() async throws {
        let repository = GatedRepository(inner: makeLibrary(), failure: "disk on fire")
        await repository.openGate()
        let app = await started(repository)
        #expect(app.render().text().contains("Could not read feeds: disk on fire"))
    }

    @Test("Enter opens a feed, Enter an article, q goes back each time and quits last")
    func navigation() async throws {
        let app = await started(makeLibrary())
        await press(app, .down, .enter)
        guard case .articles(let list) = app.screen else { Issue.record("not on the article list"); return }
        #expect(list.list.title == "Feed 1")
        await press(app, .enter)
        guard case .article(let viewer) = app.screen else { Issue.record("not on an article"); return }
        #expect(viewer.summary.title == "Article 29")
        #expect(app.render().text().contains("Paragraph 0 of article 29."))
        await press(app, .character("q"))
        #expect(app.stack.count == 2)
        await press(app, .escape)
        #expect(app.stack.count == 1)
        #expect(!app.isFinished)
        await press(app, .character("q"))
        #expect(app.isFinished)
    }

    @Test("opening an article marks it read in the list, the feed counts and the repository")
    func openingMarksRead() async throws {
        let repository = makeLibrary()
        let app = await started(repository)
        await press(app, .enter, .character("J"), .enter, .character("h"))
        guard case .articles(let list) = app.screen else { Issue.record("not on the article list"); return }
        #expect(list.article(at: 1)!.isRead)
        #expect(!list.article(at: 0)!.isRead)
        #expect(app.feedList.feeds[0].unread == 29)
        #expect(try await repository.article(id: list.article(at: 1)!.id).summary.isRead)
        await press(app, .character("N"))
        #expect(!list.article(at: 1)!.isRead)
        #expect(app.feedList.feeds[0].unread == 30)
    }

    @Test("page keys move a page; End and Home jump to the ends; the list scrolls with the selection")
    func paging() async throws {
        let app = await started(makeLibrary())
        await press(app, .enter)
        guard case .articles(let list) = app.screen else { Issue.record("not on the article list"); return }
        await press(app, .pageDown)
        #expect(list.cursor.selected == 10)
        await press(app, .end)
        #expect(list.cursor.selected == 29)
        #expect(list.cursor.top == 20)
        let text = app.render().text()
        #expect(text.contains("Article 0") && !text.contains("Article 29 "))
        await press(app, .home)
        #expect(list.cursor.selected == 0 && list.cursor.top == 0)
        await press(app, .up)
        #expect(list.cursor.selected == 0)
    }

    @Test("the article view scrolls no further than its last screenful")
    func articleScroll() async throws {
        let app = await started(makeLibrary())
        await press(app, .enter, .enter)
        guard case .article(let viewer) = app.screen else { Issue.record("not on an article"); return }
        let lines = viewer.lines(width: size.width, theme: app.theme).count
        await press(app, .end)
        #expect(viewer.top == lines - 10)
        await press(app, .pageDown)
        #expect(viewer.top == lines - 10)
        #expect(app.render().text().contains("100%"))
        await press(app, .character("g"))
        #expect(viewer.top == 0)
    }

    @Test("a resize rewraps the article at the new width")
    func resizeRewraps() async throws {
        let app = await started(makeLibrary())
        await press(app, .enter, .enter)
        guard case .article(let viewer) = app.screen else { Issue.record("not on an article"); return }
        let wide = viewer.lines(width: 60, theme: app.theme)
        app.size = Size(width: 20, height: 13)
        app.handle(.resize)
        let narrow = viewer.lines(width: 20, theme: app.theme)
        #expect(narrow.count > wide.count)
        #expect(app.render().size == Size(width: 20, height: 13))
    }

    @Test("* stars an article in the list and in the repository; * again unstars it")
    func star() async throws {
        let repository = makeLibrary()
        let app = await started(repository)
        await press(app, .enter, .character("*"))
        guard case .articles(let list) = app.screen else { Issue.record("not on the article list"); return }
        let id = try #require(list.article(at: 0)?.id)
        #expect(list.article(at: 0)?.isStarred == true)
        #expect(try await repository.article(id: id).summary.isStarred)
        #expect(app.render().text().contains("N* "))
        await press(app, .character("*"))
        #expect(try await repository.article(id: id).summary.isStarred == false)
    }

    @Test("A marks the selected feed read, in the counts and the repository")
    func markFeedRead() async throws {
        let repository = makeLibrary()
        let app = await started(repository)
        await press(app, .down, .character("A"))
        #expect(app.feedList.feeds.map(\.unread) == [30, 0])
        #expect(await repository.feedSummaries().map(\.unread) == [30, 0])
    }

    @Test("C asks first: y marks everything read, any other key leaves it")
    func markAllReadAsks() async throws {
        let repository = makeLibrary()
        let app = await started(repository)
        await press(app, .character("C"))
        #expect(app.render().text().contains("Mark every article of every feed read? (y/n)"))
        await press(app, .character("n"))
        #expect(await repository.feedSummaries().map(\.unread) == [30, 30])
        #expect(!app.render().text().contains("(y/n)"))
        await press(app, .enter, .character("C"), .character("y"))
        #expect(await repository.feedSummaries().map(\.unread) == [0, 0])
        guard case .articles(let list) = app.screen else { Issue.record("not on the article list"); return }
        #expect(list.unread == 0 && list.article(at: 0)?.isRead == true)
        #expect(app.feedList.feeds.map(\.unread) == [0, 0])
    }

    @Test("N in the article view toggles the read flag of the list below it")
    func readToggleInArticle() async throws {
        let repository = makeLibrary()
        let app = await started(repository)
        await press(app, .enter, .enter)
        guard case .articles(let list) = app.stack[1] else { Issue.record("no article list"); return }
        #expect(list.article(at: 0)?.isRead == true)
        await press(app, .character("N"))
        #expect(list.article(at: 0)?.isRead == false)
        #expect(app.feedList.feeds[0].unread == 30)
        let id = try #require(list.article(at: 0)?.id)
        #expect(try await repository.article(id: id).summary.isRead == false)
    }

    @Test("Ctrl-C quits from any screen")
    func controlC() async throws {
        let app = await started(makeLibrary())
        await press(app, .enter, .enter, .control("c"))
        #expect(app.isFinished)
    }
}

@Suite("Render loop")
@MainActor
struct FrameRendererTests {
    @Test("many frame requests before the main actor is free draw one frame")
    func coalesces() async {
        let surface = HeadlessSurface(size: Size(width: 10, height: 2))
        let renderer = FrameRenderer(surface: surface)
        @MainActor final class Counter { var value = 0 }
        let counter = Counter()
        for _ in 0..<50 {
            counter.value += 1
            renderer.setNeedsFrame {
                var canvas = Canvas(size: Size(width: 10, height: 2))
                canvas.write("n=\(counter.value)", x: 0, y: 0)
                return canvas
            }
        }
        for _ in 0..<5 { await Task.yield() }
        #expect(renderer.framesDrawn == 1)
        #expect(surface.screen.text().hasPrefix("n=50"))
    }

    @Test("the headless surface receives only the changed cells after the first frame")
    func onlyChanges() {
        final class Recorder: FrameSurface {
            let size = Size(width: 10, height: 3)
            var batches: [(Int, Bool)] = []
            func present(_ changes: [CellChange], clear: Bool) { batches.append((changes.count, clear)) }
        }
        let recorder = Recorder()
        let renderer = FrameRenderer(surface: recorder)
        var canvas = Canvas(size: recorder.size)
        canvas.write("> one", x: 0, y: 0)
        renderer.draw(canvas)
        canvas.write(" ", x: 0, y: 0)
        canvas.write(">", x: 0, y: 1)
        renderer.draw(canvas)
        #expect(recorder.batches.map(\.0) == [30, 2])
        #expect(recorder.batches.map(\.1) == [true, false])
    }
}

@Suite("List cursor")
struct ListCursorTests {
    @Test("the selection stays inside the list and the window follows it")
    func clamps() {
        var cursor = ListCursor()
        cursor.move(by: 12, count: 30, visible: 10)
        #expect(cursor.selected == 12 && cursor.top == 3)
        cursor.move(by: -5, count: 30, visible: 10)
        #expect(cursor.selected == 7 && cursor.top == 3)
        cursor.move(by: 100, count: 30, visible: 10)
        #expect(cursor.selected == 29 && cursor.top == 20)
    }

    @Test("an empty list keeps the cursor at zero")
    func empty() {
        var cursor = ListCursor()
        cursor.move(by: 1, count: 0, visible: 10)
        #expect(cursor.selected == 0 && cursor.top == 0)
    }

    @Test("a taller window after a resize shows more rows above")
    func resize() {
        var cursor = ListCursor(selected: 29, top: 25)
        cursor.clamp(count: 30, visible: 20)
        #expect(cursor.top == 10)
    }
}
