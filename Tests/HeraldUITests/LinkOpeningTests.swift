import HeraldCore
import Testing

@testable import HeraldUI

@MainActor
final class RecordingOpener: LinkOpening {
    var opened: [String] = []
    var failure: String?
    func open(_ url: String) -> String? {
        opened.append(url)
        return failure
    }
}

@Suite("Opening an article's links")
@MainActor
struct LinkOpeningTests {
    func appOnArticle(text: String) async -> (ReaderApp, RecordingOpener) {
        let feed = Feed(id: "f", title: "F")
        let article = Article(
            summary: ArticleSummary(id: "a", feedID: "f", title: "Linked"), feedTitle: "F", link: nil, text: text)
        let app = ReaderApp(repository: InMemoryArticleRepository(feeds: [(feed, [article])]), size: Size(width: 60, height: 12))
        let opener = RecordingOpener()
        app.linkOpener = opener
        app.start()
        await app.settle()
        for key in [Key.enter, .enter] {
            app.handle(key)
            await app.settle()
        }
        return (app, opener)
    }

    static let text = "See this[1] and that[2].\n\nLinks:\n[1] https://a.example/1\n[2] https://b.example/2"

    @Test("o opens the first link; a number then o opens that one")
    func opens() async {
        let (app, opener) = await appOnArticle(text: Self.text)
        app.handle(.character("o"))
        app.handle(.character("2"))
        #expect(app.render().text().contains("open link 2 with o"))
        app.handle(.character("o"))
        #expect(opener.opened == ["https://a.example/1", "https://b.example/2"])
    }

    @Test("a number past the last link, or an article without links, says so")
    func missing() async {
        let (app, opener) = await appOnArticle(text: Self.text)
        app.handle(.character("9"))
        app.handle(.character("o"))
        #expect(app.render().text().contains("No link 9: it has 2."))
        let (plain, _) = await appOnArticle(text: "No links here.")
        plain.handle(.character("o"))
        #expect(plain.render().text().contains("This article has no links."))
        #expect(opener.opened.isEmpty)
    }

    @Test("a browser failure is shown on the status line")
    func failure() async {
        let (app, opener) = await appOnArticle(text: Self.text)
        opener.failure = "w3m exited with status 1"
        app.handle(.character("o"))
        #expect(app.render().text().contains("Could not open link 1: w3m exited with status 1"))
    }

    @Test("a Links: line in the body that is not the list is not taken for it")
    func linksParsing() async {
        let (app, _) = await appOnArticle(text: "Links:\nnot a list\n\nLinks:\n[1] https://x.example/\n[3] https://skipped/")
        guard case .article(let model) = app.screen else { Issue.record("not on the article"); return }
        #expect(model.links == ["https://x.example/"])
    }
}
