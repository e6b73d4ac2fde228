import Foundation
import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

/// A library whose articles' read flags are given: `feeds[f]` lists each article's state,
/// newest first (`true` read). Article `a` of feed `f` is "F\(f) A\(a)", id "f\(f)-\(a)".
func flaggedLibrary(_ feeds: [[Bool]], tags: [[String]] = []) -> InMemoryArticleRepository {
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    return InMemoryArticleRepository(
        feeds: feeds.enumerated().map { f, flags in
            let feed = Feed(url: "feed-\(f)", title: "Feed \(f)", tags: f < tags.count ? tags[f] : [])
            let articles = flags.enumerated().map { a, isRead in
                // Newest first: article 0 is the newest of its feed; feeds interleave in time.
                Article(
                    summary: ArticleSummary(
                        id: "f\(f)-\(a)", feedID: feed.id, title: "F\(f) A\(a)",
                        published: start.addingTimeInterval(Double(1000 - a * 10 - f) * 60), isRead: isRead),
                    feedTitle: feed.title, link: "https://example.org/\(f)/\(a)",
                    text: (0..<6).map { "Paragraph \($0) of F\(f) A\(a)." }.joined(separator: "\n\n"))
            }
            return (feed, articles)
        })
}

@Suite("Walking through articles: n, p, J, K, Space, digits and help")
@MainActor
struct NavigationTests {
    let size = Size(width: 70, height: 13)  // 10 body rows

    func started(_ repository: any ArticleRepository, size: Size? = nil) async -> ReaderApp {
        await AppDriver.started(repository, size: size ?? self.size)
    }

    func press(_ app: ReaderApp, _ keys: Key...) async {
        await AppDriver.press(app, keys)
    }

    func openTitle(_ app: ReaderApp) -> String? {
        if case .article(let viewer) = app.screen { viewer.summary.title } else { nil }
    }

    func list(_ app: ReaderApp) -> ArticleListModel? {
        for screen in app.stack.reversed() { if case .articles(let list) = screen { return list } }
        return nil
    }

    @Test("n reads the unread articles of a feed in order, then goes on to the next feed with unread ones")
    func nextUnreadAcrossFeeds() async throws {
        // Feed 0: A1 and A3 unread; feed 1: all read; feed 2: A0 unread.
        let library = flaggedLibrary([[true, false, true, false], [true, true], [false, true]])
        let app = await started(library)
        await press(app, .enter)  // Feed 0, cursor on A0 (read)
        await press(app, .character("n"))
        #expect(openTitle(app) == "F0 A1")
        await press(app, .character("n"))
        #expect(openTitle(app) == "F0 A3")
        #expect(list(app)?.cursor.selected == 3, "the list under follows the article")
        await press(app, .character("n"))
        #expect(openTitle(app) == "F2 A0", "Feed 1 has nothing unread: on to Feed 2")
        #expect(list(app)?.list.title == "Feed 2")
        #expect(app.stack.count == 3, "the next feed's list replaced the first one's")
        #expect(app.feedList.selected?.list.title == "Feed 2")
        #expect(app.render().text().contains("On to Feed 2"))
        #expect(try await library.article(id: "f2-0").summary.isRead)
        await press(app, .character("n"))
        #expect(openTitle(app) == "F2 A0")
        #expect(app.render().text().contains("No more unread articles."))
        // Back in the list, the cursor is on the article last read.
        await press(app, .character("q"))
        #expect(list(app)?.selected?.title == "F2 A0")
    }

    @Test("p walks back: the previous unread of the feed, then the last unread of an earlier feed")
    func previousUnread() async throws {
        let library = flaggedLibrary([[false, true, false], [true, false, true, false]])
        let app = await started(library)
        await press(app, .character("j"), .enter, .end, .enter)  // Feed 1, F1 A3 (unread) opened
        #expect(openTitle(app) == "F1 A3")
        await press(app, .character("p"))
        #expect(openTitle(app) == "F1 A1")
        await press(app, .character("p"))
        #expect(openTitle(app) == "F0 A2")
        await press(app, .character("p"))
        #expect(openTitle(app) == "F0 A0")
        await press(app, .character("p"))
        #expect(app.render().text().contains("No earlier unread article."))
    }

    @Test("n on the feed list selects the next feed with unread articles; n on a list opens its first unread")
    func nextUnreadFromLists() async throws {
        let library = flaggedLibrary([[true, true], [true, true], [true, false, false]])
        let app = await started(library)
        await press(app, .character("n"))
        #expect(app.feedList.selected?.list.title == "Feed 2")
        #expect(app.screenKind == .feeds)
        await press(app, .character("n"))
        #expect(app.render().text().contains("No later feed has unread articles."))
        await press(app, .enter, .character("n"))
        #expect(openTitle(app) == "F2 A1")
        await press(app, .character("q"), .character("n"))
        #expect(openTitle(app) == "F2 A2")
    }

    @Test("J and K step through the list whatever is read; the ends say so")
    func nextArticle() async throws {
        let library = flaggedLibrary([[true, true, false]])
        let app = await started(library)
        await press(app, .enter, .enter)
        #expect(openTitle(app) == "F0 A0")
        await press(app, .character("J"))
        #expect(openTitle(app) == "F0 A1")
        await press(app, .character("J"))
        #expect(openTitle(app) == "F0 A2")
        await press(app, .character("J"))
        #expect(app.render().text().contains("This is the last article."))
        await press(app, .character("K"), .character("K"))
        #expect(openTitle(app) == "F0 A0")
        #expect(list(app)?.cursor.selected == 0)
    }

    @Test("Space pages through an article and at its end opens the next unread one")
    func spaceReadsOn() async throws {
        let library = flaggedLibrary([[false, true, false]])
        let app = await started(library, size: Size(width: 70, height: 8))  // 5 body rows
        await press(app, .enter, .enter)
        guard case .article(let viewer) = app.screen else {
            Issue.record("not on an article")
            return
        }
        let lines = viewer.lines(width: 70, theme: app.theme).count
        #expect(lines > 10)
        var presses = 0
        while openTitle(app) == "F0 A0", presses < 20 {
            await press(app, .character(" "))
            presses += 1
        }
        #expect(openTitle(app) == "F0 A2", "the read A1 is skipped")
        #expect(presses == (lines - 5 + 4) / 5 + 1, "pages until the end, then one more Space")
    }

    @Test("j and k in a list open the next and previous feed in its place")
    func nextFeed() async throws {
        let app = await started(flaggedLibrary([[false], [false], [false]]))
        await press(app, .enter, .character("j"))
        #expect(list(app)?.list.title == "Feed 1")
        #expect(app.stack.count == 2)
        await press(app, .character("k"), .character("k"))
        #expect(list(app)?.list.title == "Starred", "above the feeds are the virtual feeds")
    }

    @Test("a digit on a list starts the command line with it; :3 Enter selects feed 3, :5 Enter row 5; past the end says so")
    func digitsStartTheCommandLine() async throws {
        let app = await started(
            flaggedLibrary([[false], [false], [false, false, false, false, false, false]]))
        await press(app, .character("3"))
        #expect(app.commandPrompt?.text == "3")
        #expect(app.render().text().contains(":3"))
        await press(app, .enter)
        #expect(app.commandPrompt == nil)
        #expect(app.screenKind == .feeds, ":3 selects, it does not open")
        #expect(app.feedList.selected?.list.title == "Feed 2")
        await press(app, .enter)
        #expect(list(app)?.list.title == "Feed 2")
        await press(app, .character("5"), .enter)
        #expect(list(app)?.cursor.selected == 4)
        #expect(app.screenKind == .articles)
        await press(app, .character("2"), .character("4"), .backspace, .enter)
        #expect(list(app)?.cursor.selected == 1, "the line is edited as text: 24, then 2")
        await press(app, .character("9"), .enter)
        #expect(app.render().text().contains("No row 9: the list has 6."))
        #expect(list(app)?.cursor.selected == 1, "the cursor stays")
        await press(app, .character("q"), .character("9"), .enter)
        #expect(app.render().text().contains("No feed 9: there are 3."))
    }

    @Test("Enter typed before the list's rows arrive opens the selected article once they do")
    func typedAhead() async throws {
        let app = await started(flaggedLibrary([[false, false], [false]]))
        app.handle(.enter)  // opens Feed 0's list; its rows are still being read
        #expect(list(app)?.selected == nil)
        app.handle(.enter)
        await app.settle()
        #expect(openTitle(app) == "F0 A0")
        #expect(list(app)?.cursor.selected == 0)
    }

    @Test("a key that does nothing says so for one frame, and ? shows the keys of the screen")
    func unknownKeyAndHelp() async throws {
        let app = await started(flaggedLibrary([[false]]))
        await press(app, .character("z"))
        #expect(app.render().text().contains("unknown key z — ? for help"))
        await press(app, .character("j"))
        #expect(!app.render().text().contains("unknown key"))
        // A key of another screen says where it works (J does nothing on the feed list).
        await press(app, .character("J"))
        #expect(
            app.render().text().contains("J works in: article list (down a row), article (next article of"))
        await press(app, .enter, .enter, .character("?"))
        guard case .page(let help) = app.screen else {
            Issue.record("? did not open the help")
            return
        }
        #expect(help.title == "Keys · article")
        let text = help.paragraphs.map { "\($0.label) \($0.text)" }
        let own = try #require(text.firstIndex { $0.contains("Space") && $0.contains("next unread") })
        let everywhere = try #require(text.firstIndex { $0.contains("Everywhere") })
        #expect(own < everywhere, "the screen's own keys come first")
        #expect(text[everywhere...].contains { $0.contains("/") && $0.contains("search") })
        await press(app, .character("q"))
        #expect(app.screenKind == .article)
    }

    @Test(
        "every screen keeps its cursor when left and found again; the last open list is selected on the next start"
    )
    func placesSurvive() async throws {
        let library = flaggedLibrary([[false, false, false], [false, false, false]])
        let app = await started(library)
        await press(app, .character("j"), .enter, .character("J"), .character("J"), .enter, .character("q"))
        #expect(list(app)?.cursor.selected == 2)
        await press(app, .character("q"))
        #expect(app.feedList.selected?.list.title == "Feed 1")
        let again = await started(library)
        #expect(again.feedList.selected?.list.title == "Feed 1")
    }

    @Test("a resize keeps the paragraph at the top of the article in view")
    func resizeKeepsPlace() async throws {
        let app = await started(flaggedLibrary([[false]]), size: Size(width: 70, height: 8))  // 5 body rows
        await press(app, .enter, .enter)
        guard case .article(let viewer) = app.screen else {
            Issue.record("not on an article")
            return
        }
        let lines = viewer.lines(width: 70, theme: app.theme)
        let paragraph2 = try #require(lines.firstIndex { $0.text.contains("Paragraph 2 of") })
        // `:N` Enter goes to line N of the article (a digit alone would open link N).
        await press(app, .character(":"))
        for digit in String(paragraph2 + 1) { await press(app, .character(digit)) }
        await press(app, .enter)
        #expect(viewer.top == paragraph2)
        app.size = Size(width: 20, height: 8)
        app.handle(.resize)
        let narrow = viewer.lines(width: 20, theme: app.theme)
        #expect(narrow[viewer.top].text.hasPrefix("Paragraph 2"), "top line: \(narrow[viewer.top].text)")
        #expect(viewer.top > paragraph2, "the header wraps to more lines at 20 columns")
        app.size = Size(width: 70, height: 8)
        app.handle(.resize)
        #expect(viewer.top == paragraph2)
    }
}
