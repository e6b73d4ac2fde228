import Foundation
import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

/// A reloader that reports progress, waits for the test, then adds three newer articles to
/// feed 0 and reports feed 1 as failed.
actor FakeReloader: FeedReloading {
    let library: InMemoryArticleRepository
    private var gate: CheckedContinuation<Void, Never>?
    private var open = false
    private(set) var requests: [String?] = []
    /// What the next reloads report as read with errors.
    var readWithErrors: [ReloadFailure] = []

    init(library: InMemoryArticleRepository) { self.library = library }

    func report(readWithErrors: [ReloadFailure]) { self.readWithErrors = readWithErrors }

    /// Stores the new articles and reports them before waiting for the test, as a reload
    /// that has stored its first feed and waits for a slow one.
    var storesBeforeWaiting = false
    /// Stores a second feed's articles after the first's, when the test opens a second
    /// gate, before waiting at the first.
    var storesTwice = false
    private var secondGate: CheckedContinuation<Void, Never>?
    private var secondOpen = false

    func releaseSecond() {
        secondOpen = true
        secondGate?.resume()
        secondGate = nil
    }

    func storeBeforeWaiting(twice: Bool = false) { (storesBeforeWaiting, storesTwice) = (true, twice) }

    func release() {
        open = true
        gate?.resume()
        gate = nil
    }

    func reloadFeeds(only: String?, progress: @escaping @Sendable (ReloadProgress) -> Void) async throws
        -> ReloadSummary
    {
        requests.append(only)
        if storesBeforeWaiting {
            try await addFresh()
            progress(ReloadProgress(done: 1, total: 2, failed: 0, newArticles: 3))
            if storesTwice {
                if !secondOpen { await withCheckedContinuation { secondGate = $0 } }
                try await addFresh(to: "feed-1")
                progress(ReloadProgress(done: 2, total: 3, failed: 0, newArticles: 6))
            }
        } else {
            progress(ReloadProgress(done: 1, total: 2, failed: 1, newArticles: 0))
        }
        if !open { await withCheckedContinuation { gate = $0 } }
        if !storesBeforeWaiting { try await addFresh() }
        // As the real reloader does, the failure is kept with the feed.
        await library.setFeedError("feed-1", "HTTP 404")
        return ReloadSummary(
            feeds: 2, newArticles: 3, notModified: 0,
            failures: [ReloadFailure(url: "feed-1", title: "Feed 1", reason: "HTTP 404")],
            readWithErrors: readWithErrors)
    }

    /// Three newer articles in feed 0 (or `id`).
    private func addFresh(to id: String = "feed-0") async throws {
        let feed = Feed(url: id, title: id == "feed-0" ? "Feed 0" : "Feed 1")
        let old = try await library.articles(inFeed: FeedID(id), page: .first(limit: 1000))
        var articles: [Article] = []
        for summary in old { articles.append(try await library.article(id: summary.id)) }
        let newest = old.first?.published ?? Date()
        for n in 0..<3 {
            articles.append(
                Article(
                    summary: ArticleSummary(
                        id: "\(id)/new\(n)", feedID: FeedID(id), title: "Fresh \(n)",
                        published: newest.addingTimeInterval(Double(n + 1) * 60)),
                    feedTitle: feed.title, link: nil, text: "New."))
        }
        await library.add(feed, articles: articles)
    }
}

@Suite("Reloading from the reader")
@MainActor
struct ReaderReloadTests {
    let size = Size(width: 70, height: 13)  // 10 body rows

    func press(_ app: ReaderApp, _ keys: Key...) async {
        for key in keys {
            app.handle(key)
            await app.settle()
        }
    }

    /// The reader started on a two-feed library with a `FakeReloader`, set up first by
    /// `configure` (opened, told what to report).
    func started(_ configure: (FakeReloader) async -> Void = { _ in }) async -> (ReaderApp, FakeReloader) {
        let library = makeLibrary()
        let reloader = FakeReloader(library: library)
        await configure(reloader)
        let app = ReaderApp(repository: library, size: size)
        app.reloads.reloader = reloader
        app.start()
        await app.settle()
        return (app, reloader)
    }

    @Test("R reloads in the background: keys answer, progress shows, the cursor stays on its article")
    func reloadKeepsCursor() async throws {
        let (app, reloader) = await started()
        await press(app, .enter, .down, .down, .down, .down, .down)
        guard case .articles(let list) = app.screen else { Issue.record("not on the list"); return }
        #expect(list.selected?.title == "Article 24")

        app.handle(.character("R"))  // no settle: the reload waits for the test
        for _ in 0..<20 { await Task.yield() }
        #expect(app.render().text().contains("reloading 1/2"))
        app.handle(.down)  // keys still answer while it runs
        await Task.yield()
        #expect(list.selected?.title == "Article 23")
        #expect(list.cursor.selected == 6)

        await reloader.release()
        await app.settle()
        #expect(list.count == 33)
        #expect(list.selected?.title == "Article 23", "the cursor stays on the article it was on")
        #expect(list.cursor.selected == 9 && list.cursor.selected - list.cursor.top == 6)
        let screen = app.render().text()
        #expect(screen.contains("Reloaded 2 feeds: 3 new, 1 failed (!: why)"))
        #expect(!screen.contains("reloading"))
        #expect(app.feedList.feeds[0].total == 33)
        #expect(await reloader.requests == [nil])
    }

    @Test("r reloads the selected feed only; E lists the failures and why")
    func reloadOneAndErrors() async throws {
        let (app, reloader) = await started { await $0.release() }
        await press(app, .down, .character("r"))
        #expect(await reloader.requests == ["feed-1"])
        await press(app, .character("!"))
        guard case .errors = app.screen else { Issue.record("no error view"); return }
        let text = app.render().text()
        #expect(text.contains("Feed 1") && text.contains("HTTP 404"))
        await press(app, .character("q"))
        guard case .feeds = app.screen else { Issue.record("q should go back"); return }
    }

    @Test("a feed read with errors is counted after R and listed by E under the failed ones")
    func readWithErrorsShown() async throws {
        let broken = ReloadFailure(
            url: "feed-0", title: "Feed 0", reason: "read with errors: parse error at line 2: Extra content")
        let (app, reloader) = await started {
            await $0.release()
            await $0.report(readWithErrors: [broken])
        }
        await press(app, .character("R"))
        #expect(
            app.render().text().contains("Reloaded 2 feeds: 3 new, 1 failed, 1 read with errors (!: why)"))
        await press(app, .character("!"))
        guard case .errors = app.screen else { Issue.record("no error view"); return }
        let lines = app.render().text().split(separator: "\n")
        let failed = try #require(lines.firstIndex { $0.contains("HTTP 404") })
        let read = try #require(lines.firstIndex { $0.contains("read with errors: parse error") })
        #expect(failed < read && lines[read].contains("Feed 0"))
        #expect(lines.contains { $0.contains("1 feed failed · 1 feed read with errors") })
        // A reload of that feed alone that reads it whole takes it off the list.
        await press(app, .character("q"))
        await reloader.report(readWithErrors: [])
        await press(app, .character("r"))
        #expect(await reloader.requests == [nil, "feed-0"])
        await press(app, .character("!"))
        #expect(!app.render().text().contains("read with errors"))
    }

    @Test("the feed list's counts follow a reload's new articles before it ends")
    func countsDuringReload() async throws {
        let (app, reloader) = await started { await $0.storeBeforeWaiting() }
        #expect(app.feedList.feeds[0].total == 30)
        app.handle(.character("R"))  // no settle: the reload waits for the test
        var waited = 0
        while app.feedList.feeds[0].total != 33, waited < 500 {
            await Task.yield()
            try await Task.sleep(for: .milliseconds(2))
            waited += 1
        }
        #expect(app.feedList.feeds[0].total == 33, "the counts change while the reload runs")
        #expect(app.reloads.run != nil && app.render().text().contains("reloading 1/2"))
        await reloader.release()
        await app.settle()
        #expect(app.reloads.run == nil && app.feedList.feeds[0].total == 33)
    }

    @Test("feeds stored within a second of the last reading of the counts are read a second after it")
    func countsReadAgainAfterASecond() async throws {
        let (app, reloader) = await started { await $0.storeBeforeWaiting(twice: true) }
        app.handle(.character("R"))  // no settle: the reload waits for the test
        func wait(until done: () -> Bool) async throws {
            for _ in 0..<1_500 where !done() {
                await Task.yield()
                try await Task.sleep(for: .milliseconds(2))
            }
        }
        try await wait { app.feedList.feeds[0].total == 33 }
        #expect(app.feedList.feeds[0].total == 33 && app.feedList.feeds[1].total == 30)
        let first = try #require(app.reloads.run?.countsRead)
        // The second feed is stored right after that reading: it waits for the next.
        await reloader.releaseSecond()
        try await wait { app.feedList.feeds[1].total == 33 }
        #expect(app.feedList.feeds[1].total == 33, "read after the last reading")
        let second = try #require(app.reloads.run?.countsRead)
        #expect(second - first >= .seconds(1), "not read twice within a second")
        #expect(app.reloads.run != nil, "while the reload still runs")
        await reloader.release()
        await app.settle()
        #expect(app.reloads.run == nil)
    }

    @Test("without a library, r says why nothing happens")
    func noReloader() async throws {
        let app = ReaderApp(repository: makeLibrary(), size: size)
        app.start()
        await app.settle()
        await press(app, .character("R"))
        #expect(app.render().text().contains("Nothing to reload"))
    }
}
