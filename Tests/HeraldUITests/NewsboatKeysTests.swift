import Foundation
import HeraldCore
import Testing

@testable import HeraldConfig
@testable import HeraldUI

/// newsboat 2.21's default keys, where Herald has the operation: what each does, pressed as a
/// user presses it.
@Suite("newsboat's default keys")
@MainActor
struct NewsboatKeysTests {
    let size = Size(width: 80, height: 16)

    /// A reader over `repository` with `config` applied and a recording opener, started and
    /// settled, then `keys` pressed.
    func started(
        _ repository: any ArticleRepository, config: String = "", keys: [Key] = []
    ) async -> (ReaderApp, RecordingOpener) {
        let app = ReaderApp(repository: repository, size: size)
        if !config.isEmpty {
            let parsed = ConfigFile.parse(config, file: "c")
            #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)")
            app.apply(parsed)
        }
        let opener = RecordingOpener()
        app.programs = opener
        app.start()
        await app.settle()
        await AppDriver.press(app, keys)
        return (app, opener)
    }

    func type(_ app: ReaderApp, _ text: String) async {
        await AppDriver.press(app, text.map { .character($0) })
    }

    func list(_ app: ReaderApp) -> ArticleListModel? {
        for screen in app.stack.reversed() { if case .articles(let list) = screen { return list } }
        return nil
    }

    func titles(_ app: ReaderApp) -> [String] {
        guard let list = list(app) else { return [] }
        return (0..<list.count).compactMap { list.article(at: $0)?.title }
    }

    func openArticle(_ app: ReaderApp) -> ArticleViewModel? {
        if case .article(let viewer) = app.screen { viewer } else { nil }
    }

    func feedTitles(_ app: ReaderApp) -> [String] {
        app.feedList.rows.compactMap { $0.feed?.title }
    }

    /// One feed of one article whose text has `links` numbered links.
    func linkedLibrary(links: Int, html: String? = nil) -> InMemoryArticleRepository {
        let feed = Feed(url: "f", title: "The Feed")
        let body =
            html ?? "<p>" + (1...links).map { "<a href=\"https://l.example/\($0)\">link \($0)</a>" }
            .joined(separator: " ") + "</p>"
        let article = Article(
            summary: ArticleSummary(id: "a", feedID: "f", title: "Linked"), feedTitle: "The Feed",
            link: "https://site.example/post", text: "", html: body)
        return InMemoryArticleRepository(feeds: [(feed, [article])])
    }

    // MARK: Keys that changed meaning

    @Test("u shows the links (newsboat's show-urls), in the article and on its row")
    func uShowsLinks() async {
        let (app, _) = await started(linkedLibrary(links: 2), keys: [.enter, .enter])
        await AppDriver.press(app, [.character("u")])
        guard case .links(let links) = app.screen else {
            Issue.record("u did not open the links: \(app.screenKind)")
            return
        }
        #expect(links.links.map(\.url) == ["https://site.example/post", "https://l.example/1", "https://l.example/2"])
        await AppDriver.press(app, [.character("q"), .character("q"), .character("u")])
        #expect(app.screenKind == .links, "u on the article list too")
    }

    @Test("U undoes the last change of flags; u no longer does")
    func capitalUUndoes() async throws {
        let repository = flaggedLibrary([[false, false]])
        let (app, _) = await started(repository, keys: [.enter, .character("N")])
        #expect(try await repository.article(id: "f0-0").summary.isRead)
        await AppDriver.press(app, [.character("U")])
        #expect(app.message == "undid: 1 article marked read")
        #expect(try await repository.article(id: "f0-0").summary.isRead == false)
        #expect(list(app)?.article(at: 0)?.isRead == false)
        await AppDriver.press(app, [.character("U")])
        #expect(app.message == "nothing to undo")
    }

    @Test("* stars and unstars (newsboat's flags come over as the star); Ctrl-E does the same")
    func starKeys() async throws {
        let repository = flaggedLibrary([[false, false]])
        let (app, _) = await started(repository, keys: [.enter, .character("*")])
        #expect(try await repository.article(id: "f0-0").summary.isStarred)
        #expect(app.render().text().contains("Starred."))
        await AppDriver.press(app, [.character("*")])
        #expect(try await repository.article(id: "f0-0").summary.isStarred == false)
        await AppDriver.press(app, [.control("e")])
        #expect(try await repository.article(id: "f0-0").summary.isStarred)
    }

    @Test("s begins :save with save-path and the title as a file name; :save writes the text; an existing file asks first")
    func saveToAFile() async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("herald-save-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (app, _) = await started(
            flaggedLibrary([[false, false]]), config: "set save-path \(folder.path)", keys: [.enter, .enter])
        await AppDriver.press(app, [.character("s")])
        #expect(app.commandPrompt?.text == "save \(folder.path)/F0_A0.txt")
        #expect(app.render().text().contains(":save \(folder.path)/F0_A0.txt"))
        await AppDriver.press(app, [.enter])
        let file = folder.appendingPathComponent("F0_A0.txt")
        #expect(app.message == "Saved to \(file.path)")
        let saved = try String(contentsOf: file, encoding: .utf8)
        #expect(saved.contains("Title:") && saved.contains("F0 A0"), "\(saved)")
        #expect(saved.contains("Feed 0"), "\(saved)")
        #expect(saved.contains("Paragraph 0 of F0 A0.") && saved.contains("Paragraph 5 of F0 A0."), "\(saved)")

        // Saved again over it: asked first; n keeps the file, y writes it.
        try "old".write(to: file, atomically: true, encoding: .utf8)
        await AppDriver.press(app, [.character(":")])
        await type(app, "save \(file.path)")
        await AppDriver.press(app, [.enter])
        #expect(app.confirmation?.question == "\(file.path) exists: overwrite it? (y/n)")
        await AppDriver.press(app, [.character("n")])
        #expect(try String(contentsOf: file, encoding: .utf8) == "old")
        await AppDriver.press(app, [.character(":")])
        await type(app, "save \(file.path)")
        await AppDriver.press(app, [.enter, .character("y")])
        #expect(try String(contentsOf: file, encoding: .utf8).contains("Paragraph 0 of F0 A0."))
        #expect(app.message == "Saved to \(file.path)")
    }

    @Test("s on the article list saves the selected article; a folder that is not there says so")
    func saveFromTheList() async throws {
        let (app, _) = await started(flaggedLibrary([[false, false]]), keys: [.enter, .character("J")])
        await AppDriver.press(app, [.character("s")])
        #expect(app.commandPrompt?.text.hasSuffix("/F0_A1.txt") == true, "\(app.commandPrompt?.text ?? "-")")
        await AppDriver.press(app, [.escape, .character(":")])
        let missing = "/nonexistent-herald-\(UUID().uuidString)/x.txt"
        await type(app, "save \(missing)")
        await AppDriver.press(app, [.enter])
        #expect(app.message?.hasPrefix("Could not save to \(missing): ") == true, "\(app.message ?? "-")")
    }

    @Test("O opens the article's link and marks it read, from the list without opening it")
    func openAndMarkRead() async throws {
        let repository = flaggedLibrary([[false, false]])
        let (app, opener) = await started(repository, keys: [.enter, .character("J"), .character("O")])
        #expect(opener.opened == ["https://example.org/0/1"])
        #expect(try await repository.article(id: "f0-1").summary.isRead)
        #expect(try await repository.article(id: "f0-0").summary.isRead == false)
        #expect(list(app)?.article(at: 1)?.isRead == true)
        #expect(app.screenKind == .articles)
    }

    @Test("O on a search result reads the result's article (this library's have no link) and marks it read")
    func openAndMarkReadFromSearch() async throws {
        let h = await SearchHarness()
        let opener = RecordingOpener()
        h.app.programs = opener
        await h.search("article 29")
        let hit = try #require(h.model?.hits.first)
        #expect(!hit.article.isRead)
        h.press(.tab, .character("O"))
        await h.settle()
        let article = try await h.repository.article(id: hit.article.id)
        #expect(article.link == nil && opener.opened.isEmpty)
        #expect(h.app.message == "This article has no link.", "\(h.app.message ?? "-")")
        #expect(article.summary.isRead)
        #expect(h.model?.hits.first?.article.isRead == true)
        #expect(h.app.screenKind == .results)
    }

    @Test("l on the feed list hides the feeds with nothing unread, and l again shows them")
    func lTogglesReadFeeds() async {
        let (app, _) = await started(flaggedLibrary([[false], [true, true], [false]]))
        #expect(feedTitles(app) == ["Feed 0", "Feed 1", "Feed 2"])
        await AppDriver.press(app, [.character("l")])
        #expect(feedTitles(app) == ["Feed 0", "Feed 2"])
        #expect(app.message == "Hiding the feeds with nothing unread.")
        #expect(app.screenKind == .feeds, "l no longer opens")
        await AppDriver.press(app, [.character("l")])
        #expect(feedTitles(app) == ["Feed 0", "Feed 1", "Feed 2"])
        #expect(app.message == "Showing every feed.")
    }

    @Test("l on an article list hides the articles already read, and l again shows them")
    func lTogglesReadArticles() async {
        let (app, _) = await started(flaggedLibrary([[false, true, false, true]]), keys: [.enter])
        #expect(titles(app) == ["F0 A0", "F0 A1", "F0 A2", "F0 A3"])
        await AppDriver.press(app, [.character("l")])
        #expect(titles(app) == ["F0 A0", "F0 A2"])
        #expect(app.message == "Hiding the articles already read.")
        #expect(app.stack.count == 2, "the list is read again in its own place")
        await AppDriver.press(app, [.character("l")])
        #expect(titles(app) == ["F0 A0", "F0 A1", "F0 A2", "F0 A3"])
        #expect(app.message == "Showing every article.")
    }

    @Test("j and k on the article list open the next and previous feed's list in its place")
    func jkWalkFeeds() async {
        let (app, _) = await started(flaggedLibrary([[false], [false, false], [false]]), keys: [.enter])
        #expect(list(app)?.list.title == "Feed 0")
        await AppDriver.press(app, [.character("j")])
        #expect(list(app)?.list.title == "Feed 1")
        #expect(titles(app) == ["F1 A0", "F1 A1"])
        #expect(app.stack.count == 2)
        await AppDriver.press(app, [.character("k")])
        #expect(list(app)?.list.title == "Feed 0")
    }

    @Test("J and K on the article list move a row (and the arrows still do); in the article they walk articles")
    func capitalJKMoveRows() async {
        let (app, _) = await started(flaggedLibrary([[false, false, false], [false]]), keys: [.enter])
        await AppDriver.press(app, [.character("J"), .character("J")])
        #expect(list(app)?.cursor.selected == 2)
        #expect(list(app)?.list.title == "Feed 0")
        await AppDriver.press(app, [.character("K"), .up, .down])
        #expect(list(app)?.cursor.selected == 1)
        await AppDriver.press(app, [.enter, .character("J")])
        #expect(openArticle(app)?.summary.title == "F0 A2")
    }

    // MARK: Digits and the command line

    @Test("a digit in the article opens that link of the text at once; 0 is link 10")
    func digitOpensLink() async {
        let (app, opener) = await started(linkedLibrary(links: 10), keys: [.enter, .enter])
        await AppDriver.press(app, [.character("3")])
        #expect(opener.opened == ["https://l.example/3"])
        #expect(app.commandPrompt == nil)
        await AppDriver.press(app, [.character("0")])
        #expect(opener.opened == ["https://l.example/3", "https://l.example/10"])
    }

    @Test("# begins :link and :link N opens link N of the text")
    func hashGotoURL() async {
        let (app, opener) = await started(linkedLibrary(links: 3), keys: [.enter, .enter])
        await AppDriver.press(app, [.character("#")])
        #expect(app.commandPrompt?.text == "link ")
        await AppDriver.press(app, [.character("2"), .enter])
        #expect(opener.opened == ["https://l.example/2"])
        await AppDriver.press(app, [.character("#")])
        await AppDriver.press(app, [.character("x"), .enter])
        #expect(app.message == ":link x: `link` needs a link's number: link 3", "\(app.message ?? "-")")
        #expect(opener.opened.count == 1)
    }

    @Test("| begins :pipe-to, and :pipe-to cat hands the article as text to the command")
    func pipeTo() async {
        let (app, opener) = await started(flaggedLibrary([[false]]), keys: [.enter, .enter])
        await AppDriver.press(app, [.character("|")])
        #expect(app.commandPrompt?.text == "pipe-to ")
        await type(app, "cat")
        await AppDriver.press(app, [.enter])
        #expect(opener.piped.map(\.command) == ["cat"])
        let text = opener.piped.first?.text ?? ""
        #expect(text.contains("Title:") && text.contains("F0 A0"), "\(text)")
        #expect(text.contains("Paragraph 0 of F0 A0.") && text.contains("Paragraph 5 of F0 A0."), "\(text)")
        #expect(!text.contains("\u{1B}"), "plain text, no terminal codes")
        opener.failure = "the command exited with status 1"
        await AppDriver.press(app, [.character("|")])
        await type(app, "false")
        await AppDriver.press(app, [.enter])
        #expect(app.message == "pipe-to: the command exited with status 1")
    }

    @Test("Ctrl-B runs bookmark-cmd with the link, the title, an empty description and the feed's title")
    func bookmark() async {
        let (app, opener) = await started(
            flaggedLibrary([[false]]), config: "set bookmark-cmd \"bm --save\"", keys: [.enter, .enter])
        await AppDriver.press(app, [.control("b")])
        #expect(opener.bookmarked.map(\.command) == ["bm --save"])
        #expect(opener.bookmarked.first?.arguments == ["https://example.org/0/0", "F0 A0", "", "Feed 0"])
        #expect(app.message == "Bookmarked https://example.org/0/0")
        let (plain, plainOpener) = await started(flaggedLibrary([[false]]), keys: [.enter, .enter])
        await AppDriver.press(plain, [.control("b")])
        #expect(plainOpener.bookmarked.isEmpty)
        #expect(plain.message?.hasPrefix("Set bookmark-cmd in the config") == true, "\(plain.message ?? "-")")
    }

    @Test("Ctrl-U shows the article's HTML as fetched, and Ctrl-U again its text")
    func sourceView() async {
        let html = "<p>Plain <b>bold</b> words.</p>"
        let (app, _) = await started(linkedLibrary(links: 0, html: html), keys: [.enter, .enter])
        #expect(app.render().text().contains("Plain bold words."))
        #expect(!app.render().text().contains("<b>"))
        await AppDriver.press(app, [.control("u")])
        #expect(openArticle(app)?.showsSource == true)
        #expect(app.render().text().contains(html), "\(app.render().text())")
        #expect(app.message == "The article's HTML as fetched (Ctrl-U: its text).")
        await AppDriver.press(app, [.control("u")])
        #expect(openArticle(app)?.showsSource == false)
        #expect(app.render().text().contains("Plain bold words."))
        #expect(!app.render().text().contains("<b>"))
    }

    @Test("Ctrl-K opens an unread article (over the list, in place of an open article); none left says so")
    func randomUnread() async {
        let (app, _) = await started(flaggedLibrary([[true, true], [true, false, true]]))
        await AppDriver.press(app, [.control("k")])
        #expect(openArticle(app)?.summary.title == "F1 A1")
        #expect(app.stack.count == 2)
        // That one is read now: no unread article is left.
        await AppDriver.press(app, [.control("k")])
        #expect(app.message == "No unread articles.")
        #expect(openArticle(app)?.summary.title == "F1 A1")
    }

    @Test("e without a library (feed files read with --feeds) says the queue needs one, and plays nothing")
    func enqueue() async {
        let (app, opener) = await started(flaggedLibrary([[false]]), keys: [.enter])
        await AppDriver.press(app, [.character("e")])
        #expect(app.message == "The podcast queue lives in a library (herald without --feeds).")
        #expect(opener.played.isEmpty)
        await AppDriver.press(app, [.character("d")])
        #expect(app.message == "The podcast queue lives in a library (herald without --feeds).")
    }
}

