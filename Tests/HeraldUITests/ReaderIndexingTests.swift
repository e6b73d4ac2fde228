import Foundation
import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

/// A reloader whose articles wait for the search index: it reports 8,214 waiting, then waits
/// for the test before it reports none.
actor IndexingReloader: FeedReloading {
    private let gate = Gate()
    private(set) var runs = 0

    func release() async { await gate.open() }

    func reloadFeeds(only: String?, progress: @escaping @Sendable (ReloadProgress) -> Void) async throws
        -> ReloadSummary
    {
        ReloadSummary(feeds: 0, newArticles: 0, notModified: 0, failures: [])
    }

    func indexForSearch(progress: @escaping @Sendable (Int) -> Void) async throws {
        runs += 1
        progress(8214)
        await gate.pass()
        progress(0)
    }
}

@Suite("The search indexer in the reader")
@MainActor
struct ReaderIndexingTests {
    @Test("the status line says how many articles wait for the index while the keys keep working")
    func statusWhileIndexing() async throws {
        let library = makeLibrary()
        let reloader = IndexingReloader()
        let app = ReaderApp(repository: library, size: Size(width: 70, height: 13))
        app.reloads.reloader = reloader
        app.start()  // no settle: the indexer waits for the test
        for _ in 0..<20 { await Task.yield() }
        #expect(app.render().text().contains("indexing 8,214"))
        app.handle(.enter)  // a key answers while it runs
        for _ in 0..<20 { await Task.yield() }
        guard case .articles = app.screen else {
            Issue.record("Enter did not open the list while indexing")
            return
        }
        #expect(app.render().text().contains("indexing 8,214"))
        await reloader.release()
        await app.settle()
        #expect(!app.render().text().contains("indexing"))
        #expect(await reloader.runs == 1)
    }

    @Test("query feeds are counted once the indexer is done (counting first would index all at once)")
    func queryCountsWaitForTheIndexer() async throws {
        let reloader = IndexingReloader()
        let app = ReaderApp(repository: flaggedLibrary([[false, true]]), size: Size(width: 70, height: 13))
        app.reloads.reloader = reloader
        app.apply(ConfigFile.parse(#"query "Second" title:A1"#, file: "config"))
        app.start()
        while app.feedList.state.value == nil { await Task.yield() }
        for _ in 0..<20 { await Task.yield() }
        #expect(app.feedList.rows[3].isCounting)
        #expect(app.render().text().contains("(…)  Second"))
        await reloader.release()
        await app.settle()
        #expect(!app.feedList.rows[3].isCounting)
        #expect(app.render().text().contains("(0/1)  Second"))
    }

    @Test("thousands are grouped in the indicator")
    func grouping() {
        #expect(IndexingIndicator.text(waiting: 7) == "indexing 7")
        #expect(IndexingIndicator.text(waiting: 1234567) == "indexing 1,234,567")
    }
}
