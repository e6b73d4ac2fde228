import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

@MainActor
final class RecordingOpener: ProgramRunning {
    var opened: [String] = []
    var played: [String] = []
    var copied: [String] = []
    var notified: [(command: String, newArticles: Int, feeds: Int)] = []
    var failure: String?
    func open(_ url: String) -> String? {
        opened.append(url)
        return failure
    }
    func play(_ url: String) -> String? {
        played.append(url)
        return failure
    }
    /// What `edit(file:)` writes into the file it is given (nil: leaves it as it is).
    var editing: ((String) -> String)?
    var edited: [String] = []
    func edit(file: String) -> String? {
        edited.append(file)
        if let editing, let text = try? String(contentsOfFile: file, encoding: .utf8) {
            try? editing(text).write(toFile: file, atomically: false, encoding: .utf8)
        }
        return failure
    }
    var playedFiles: [String] = []
    func play(file: String) -> String? {
        playedFiles.append(file)
        return failure
    }
    func copy(_ text: String) -> String? {
        copied.append(text)
        return nil
    }
    func notify(_ command: String, newArticles: Int, feeds: Int) async -> String? {
        notified.append((command, newArticles, feeds))
        return failure
    }
    var piped: [(text: String, command: String)] = []
    func pipe(_ text: String, to command: String) -> String? {
        piped.append((text, command))
        return failure
    }
    var bookmarked: [(command: String, arguments: [String])] = []
    func bookmark(_ command: String, arguments: [String]) async -> String? {
        bookmarked.append((command, arguments))
        return failure
    }
}

@Suite("Opening an article's links, media and the clipboard")
@MainActor
struct LinkOpeningTests {
    static let html =
        "<p>See <a href=\"https://a.example/1\">this</a> and <a href=\"https://b.example/2\">that</a>.</p>"
    static let episode = Enclosure(
        url: "https://cdn.example/e1.mp3", type: "audio/mpeg", length: 48_000_000, duration: 3733)

    /// An app with one feed of one article, opened from the feed list (`keys`, by default
    /// Enter Enter: the feed, then the article).
    func openedApp(
        html: String?, text: String = "", link: String? = "https://site.example/post",
        enclosures: [Enclosure] = [],
        image: String? = nil, keys: [Key] = [.enter, .enter]
    ) async -> (ReaderApp, RecordingOpener) {
        let feed = Feed(url: "f", title: "F")
        let article = Article(
            summary: ArticleSummary(id: "a", feedID: "f", title: "Linked"), feedTitle: "F", link: link,
            text: text,
            html: html, enclosures: enclosures, image: image)
        let app = ReaderApp(
            repository: InMemoryArticleRepository(feeds: [(feed, [article])]),
            size: Size(width: 70, height: 14))
        let opener = RecordingOpener()
        app.programs = opener
        app.start()
        await app.settle()
        await press(app, keys)
        return (app, opener)
    }

    func press(_ app: ReaderApp, _ keys: [Key]) async {
        for key in keys {
            app.handle(key)
            await app.settle()
        }
    }

    @Test("o opens the article's own link; a digit opens that link of the text at once")
    func opens() async {
        let (app, opener) = await openedApp(html: Self.html)
        await press(app, [.character("o")])
        #expect(opener.opened == ["https://site.example/post"])
        await press(app, [.character("2")])
        #expect(app.commandPrompt == nil, "no command line in an article")
        #expect(opener.opened == ["https://site.example/post", "https://b.example/2"])
        #expect(app.render().text().contains("Opened [2]: https://b.example/2"))
    }

    @Test("o on the article list opens the selected article's link without opening the article")
    func opensFromTheList() async {
        let (app, opener) = await openedApp(html: Self.html, keys: [.enter, .character("o")])
        #expect(opener.opened == ["https://site.example/post"])
        #expect(app.screenKind == .articles)
    }

    @Test("a digit past the last link (0 is link 10), or an article without links, says so")
    func missing() async {
        let (app, opener) = await openedApp(html: Self.html)
        await press(app, [.character("9")])
        #expect(app.render().text().contains("No link 9: the text has 2."))
        await press(app, [.character("0")])
        #expect(app.render().text().contains("No link 10: the text has 2."))
        await press(app, [.character(":")])
        for c in "link 9" { await press(app, [.character(c)]) }
        await press(app, [.enter])
        #expect(app.render().text().contains("No link 9: the text has 2."))
        let (plain, plainOpener) = await openedApp(html: nil, text: "No links here.", link: nil)
        await press(plain, [.character("o")])
        #expect(plain.render().text().contains("This article has no link."))
        await press(plain, [.character("L")])
        #expect(plain.render().text().contains("This article has no links."))
        await press(plain, [.character("P")])
        #expect(plain.render().text().contains("This article has no podcast or video."))
        #expect(opener.opened == [] && plainOpener.opened.isEmpty && plainOpener.played.isEmpty)
    }

    @Test("a browser failure is shown on the status line")
    func failure() async {
        let (app, opener) = await openedApp(html: Self.html)
        opener.failure = "w3m exited with status 1"
        await press(app, [.character("o")])
        #expect(app.render().text().contains("Could not open article: w3m exited with status 1"))
    }

    @Test("L lists the article's link, its podcast, the text's links and its picture; Enter opens, y copies")
    func linksView() async {
        let (app, opener) = await openedApp(
            html: Self.html, enclosures: [Self.episode], image: "https://cdn.example/cover.jpg")
        await press(app, [.character("L")])
        guard case .links(let model) = app.screen else {
            Issue.record("not on the links view")
            return
        }
        #expect(
            model.links.map(\.url) == [
                "https://site.example/post", "https://cdn.example/e1.mp3", "https://a.example/1",
                "https://b.example/2",
                "https://cdn.example/cover.jpg",
            ])
        let screen = app.render().text()
        #expect(
            screen.contains("podcast")
                && screen.contains("https://cdn.example/e1.mp3 (audio/mpeg, 48 MB, 1:02:13)"))
        #expect(screen.contains("[2]") && screen.contains("https://b.example/2"))
        // The podcast goes to the player, a link of the text to the browser.
        await press(app, [.character("j"), .enter])
        #expect(opener.played == ["https://cdn.example/e1.mp3"])
        await press(app, [.character("j"), .character("j"), .enter])
        #expect(opener.opened == ["https://b.example/2"])
        await press(app, [.character("y")])
        #expect(opener.copied == ["https://b.example/2"])
        #expect(app.render().text().contains("Copied https://b.example/2"))
        await press(app, [.character("q")])
        #expect(app.screenKind == .article)
    }

    @Test("P plays the podcast; y copies the article's link")
    func playAndCopy() async {
        let (app, opener) = await openedApp(html: Self.html, enclosures: [Self.episode])
        await press(app, [.character("P"), .character("y")])
        #expect(opener.played == ["https://cdn.example/e1.mp3"])
        #expect(opener.copied == ["https://site.example/post"])
    }

    @Test("a podcast shows in the article's header with its type, size and length")
    func podcastHeader() async {
        let (app, _) = await openedApp(html: nil, text: "Show notes.", enclosures: [Self.episode])
        let screen = app.render().text()
        #expect(screen.contains("Podcast: https://cdn.example/e1.mp3 (audio/mpeg, 48 MB, 1:02:13)"))
        #expect(screen.contains("Show notes."))
    }

    @Test("the link list in the article is the one a digit opens")
    func linkList() async {
        let (app, opener) = await openedApp(html: Self.html)
        let screen = app.render().text()
        #expect(screen.contains("See this[1] and that[2]."))
        #expect(screen.contains("[2] https://b.example/2"))
        await press(app, [.character("2")])
        #expect(opener.opened == ["https://b.example/2"])
    }
}
