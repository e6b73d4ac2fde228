import HeraldCore
import Testing

@testable import HeraldUI

@MainActor
final class RecordingOpener: LinkOpening {
    var opened: [String] = []
    var failure: String?
    var played: [String] = []
    var copied: [String] = []
    func open(_ url: String) -> String? {
        opened.append(url)
        return failure
    }
    func play(_ url: String) -> String? {
        played.append(url)
        return failure
    }
    func copy(_ text: String) -> String? {
        copied.append(text)
        return nil
    }
}

@Suite("Opening an article's links")
@MainActor
struct LinkOpeningTests {
    func appOnArticle(html: String?, text: String = "") async -> (ReaderApp, RecordingOpener) {
        let feed = Feed(id: "f", title: "F")
        let article = Article(
            summary: ArticleSummary(id: "a", feedID: "f", title: "Linked"), feedTitle: "F", link: nil, text: text,
            html: html)
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

    static let html = "<p>See <a href=\"https://a.example/1\">this</a> and <a href=\"https://b.example/2\">that</a>.</p>"

    @Test("o opens the first link; a number then o opens that one")
    func opens() async {
        let (app, opener) = await appOnArticle(html: Self.html)
        app.handle(.character("o"))
        app.handle(.character("2"))
        #expect(app.render().text().contains("open link 2 with o"))
        app.handle(.character("o"))
        #expect(opener.opened == ["https://a.example/1", "https://b.example/2"])
    }

    @Test("a number past the last link, or an article without links, says so")
    func missing() async {
        let (app, opener) = await appOnArticle(html: Self.html)
        app.handle(.character("9"))
        app.handle(.character("o"))
        #expect(app.render().text().contains("No link 9: it has 2."))
        let (plain, _) = await appOnArticle(html: nil, text: "No links here.")
        plain.handle(.character("o"))
        #expect(plain.render().text().contains("This article has no links."))
        #expect(opener.opened.isEmpty)
    }

    @Test("a browser failure is shown on the status line")
    func failure() async {
        let (app, opener) = await appOnArticle(html: Self.html)
        opener.failure = "w3m exited with status 1"
        app.handle(.character("o"))
        #expect(app.render().text().contains("Could not open link 1: w3m exited with status 1"))
    }

    @Test("the link list in the article is the one o opens")
    func linkList() async {
        let (app, opener) = await appOnArticle(html: Self.html)
        let screen = app.render().text()
        #expect(screen.contains("See this[1] and that[2]."))
        #expect(screen.contains("[2] https://b.example/2"))
        app.handle(.character("2"))
        app.handle(.character("o"))
        #expect(opener.opened == ["https://b.example/2"])
    }
}
