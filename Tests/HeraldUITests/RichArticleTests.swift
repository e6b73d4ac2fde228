import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

@Suite("The article view draws rich text")
@MainActor
struct RichArticleTests {
    static let html = """
        <h2>Counting</h2><p>Count <b>blocks</b>, not <em>birds</em>; run <code>tally</code>.</p>
        <ul><li>first item that wraps onto another line</li><li>second</li></ul>
        <blockquote>quoted words</blockquote>
        """

    func appOnArticle(width: Int) async -> ReaderApp {
        let feed = Feed(url: "f", title: "F")
        let article = Article(
            summary: ArticleSummary(id: "a", feedID: "f", title: "Rich"), feedTitle: "F", link: nil, text: "",
            html: Self.html)
        let app = ReaderApp(
            repository: InMemoryArticleRepository(feeds: [(feed, [article])]), size: Size(width: width, height: 20))
        app.start()
        await app.settle()
        for key in [Key.enter, .enter] {
            app.handle(key)
            await app.settle()
        }
        return app
    }

    /// The style of the first cell of `word` on the screen.
    func style(of word: String, in canvas: Canvas) -> Style? {
        let lines = canvas.text().split(separator: "\n", omittingEmptySubsequences: false)
        for (y, line) in lines.enumerated() {
            guard let range = line.range(of: word) else { continue }
            return canvas[line.distance(from: line.startIndex, to: range.lowerBound), y].style
        }
        return nil
    }

    @Test("strong is bold, emphasis italic, code and headings coloured, quotes marked")
    func styles() async {
        let app = await appOnArticle(width: 60)
        let canvas = app.render()
        let theme = app.theme
        #expect(style(of: "blocks", in: canvas)?.bold == true)
        #expect(style(of: "birds", in: canvas)?.italic == true)
        #expect(style(of: "Count ", in: canvas) == theme.read)
        #expect(style(of: "tally", in: canvas)?.foreground == theme.code.foreground)
        #expect(style(of: "Counting", in: canvas) == theme.heading)
        #expect(style(of: "quoted", in: canvas) == theme.quote)
        #expect(canvas.text().contains("> quoted words"))
    }

    @Test("a narrower terminal rewraps the body; list items hang under their text")
    func rewrap() async {
        let app = await appOnArticle(width: 60)
        #expect(app.render().text().contains("- first item that wraps onto another line"))
        app.size = Size(width: 24, height: 20)
        app.handle(.resize)
        let lines = app.render().text().split(separator: "\n").map { String($0.reversed().drop { $0 == " " }.reversed()) }
        let item = lines.firstIndex(of: "- first item that wraps")
        #expect(item != nil)
        if let item { #expect(Array(lines[item...].prefix(3)) == ["- first item that wraps", "  onto another line", "- second"]) }
    }
}
