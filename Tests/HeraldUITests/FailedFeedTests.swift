import HeraldCore
import Testing

@testable import HeraldUI

/// A feed whose last reload failed says why when it is opened, not only in the feed list.
@MainActor
@Suite("A failing feed's list")
struct FailedFeedTests {
    func opened(articles: [Article], error: String?) async -> ReaderApp {
        let feed = Feed(url: "f", title: "Broken", lastError: error)
        let app = await AppDriver.started(
            InMemoryArticleRepository(feeds: [(feed, articles)]), size: Size(width: 90, height: 12))
        // Feeds are numbered from 1 after the virtual ones (All, Unread, Starred).
        await AppDriver.press(app, [.character("1"), .enter, .enter])
        return app
    }

    @Test("an empty feed that failed says why in its body and on the status line")
    func emptyFeedSaysWhy() async {
        let app = await opened(articles: [], error: "HTTP 404\u{1B}[2J")
        let screen = app.render().text()
        #expect(screen.contains("Herald · Broken"), "\(screen)")
        #expect(screen.contains("This feed has no articles: its last reload failed (HTTP 404"), "\(screen)")
        #expect(screen.contains("last reload failed: HTTP 404"), "\(screen)")
        #expect(!screen.contains("\u{1B}"))
    }

    @Test("a feed that works says nothing of failures; one with old articles still shows the error")
    func otherwiseQuiet() async {
        let working = await opened(articles: [], error: nil)
        #expect(working.render().text().contains("This feed has no articles."))
        #expect(!working.render().text().contains("failed"))
        let article = Article(
            summary: ArticleSummary(id: "a", feedID: "f", title: "Kept"), feedTitle: "Broken", link: nil,
            text: "")
        let stale = await opened(articles: [article], error: "timed out")
        let screen = stale.render().text()
        #expect(screen.contains("Kept") && screen.contains("last reload failed: timed out"), "\(screen)")
    }
}
