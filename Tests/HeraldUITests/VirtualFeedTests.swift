import Foundation
import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

@Suite("Virtual feeds, tags, stars, errors and search on results")
@MainActor
struct VirtualFeedTests {
    let size = Size(width: 80, height: 13)  // 10 body rows

    func started(_ repository: any ArticleRepository) async -> ReaderApp {
        await AppDriver.started(repository, size: size)
    }

    func press(_ app: ReaderApp, _ keys: Key...) async {
        await AppDriver.press(app, keys)
    }

    func titles(_ app: ReaderApp) -> [String] {
        guard case .articles(let list) = app.screen else { return [] }
        return (0..<list.count).compactMap { list.article(at: $0)?.title }
    }

    @Test("the feed list starts with All articles, Unread and Starred, with their counts")
    func virtualRows() async throws {
        let app = await started(flaggedLibrary([[false, true], [false, false, true]]))
        let rows = app.feedList.rows
        #expect(rows.map(\.list.title) == ["All articles", "Unread", "Starred", "Feed 0", "Feed 1"])
        #expect(rows.map(\.list.total) == [5, 3, 0, 2, 3])
        #expect(rows.map(\.list.unread) == [3, 3, 0, 1, 2])
        #expect(app.feedList.selected?.list.title == "Feed 0", "the cursor starts on the first feed")
        let text = app.render().text()
        #expect(text.contains("(3/5)  All articles") && text.contains("1  (1/2)  Feed 0"))
    }

    @Test("All articles is every feed's articles, newest first, each row naming its feed")
    func river() async throws {
        let app = await started(flaggedLibrary([[false, true], [false, false]]))
        await press(app, .home, .enter)
        #expect(titles(app) == ["F0 A0", "F1 A0", "F0 A1", "F1 A1"])
        let text = app.render().text()
        #expect(text.contains("Herald · All articles"))
        #expect(text.contains("Feed 1") && text.contains("F1 A0"))
        // Unread holds only the unread ones; reading one there keeps it on screen, marked read.
        await press(app, .character("q"), .character("j"), .enter)
        #expect(titles(app) == ["F0 A0", "F1 A0", "F1 A1"])
        await press(app, .enter, .character("q"))
        #expect(titles(app) == ["F0 A0", "F1 A0", "F1 A1"])
        guard case .articles(let list) = app.screen else { return }
        #expect(list.article(at: 0)?.isRead == true && list.unread == 2)
        #expect(app.feedList.rows[1].list.unread == 2)
    }

    @Test("* stars with a message and a * in every list; Starred lists the starred articles")
    func stars() async throws {
        let library = flaggedLibrary([[false, false], [true]])
        let app = await started(library)
        await press(app, .enter, .character("J"), .character("*"))
        #expect(app.render().text().contains("Starred."))
        #expect(app.render().text().contains("N* "))
        #expect(app.feedList.starred == ArticleCounts(total: 1, unread: 1))
        await press(app, .character("q"), .character("k"), .enter)
        #expect(app.render().text().contains("Herald · Starred"))
        #expect(titles(app) == ["F0 A1"])
        await press(app, .character("*"))
        #expect(app.render().text().contains("Unstarred."))
        #expect(app.feedList.starred.total == 0)
        #expect(!(try await library.article(id: "f0-1").summary.isStarred))
    }

    @Test("t lists the tags with their counts; Enter opens the articles of the tagged feeds")
    func tags() async throws {
        let library = flaggedLibrary(
            [[false, true], [false], [true]], tags: [["tech"], ["news"], ["tech", "rust"]])
        let app = await started(library)
        await press(app, .character("t"))
        guard case .tags(let model) = app.screen else {
            Issue.record("t did not open the tags")
            return
        }
        #expect(model.tags.map(\.title) == ["news", "rust", "tech"])
        #expect(model.tags.map(\.total) == [1, 1, 3])
        #expect(model.tags.map(\.unread) == [1, 0, 1])
        #expect(app.render().text().contains("(1/3)  tech"))
        await press(app, .end, .enter)
        #expect(app.render().text().contains("Herald · tech"))
        #expect(titles(app) == ["F0 A0", "F2 A0", "F0 A1"])
        await press(app, .character("A"))
        await app.settle()
        #expect(try await library.article(id: "f0-0").summary.isRead)
        #expect(
            !(try await library.article(id: "f1-0").summary.isRead), "a feed without the tag is untouched")
    }

    @Test("t without tags says how to tag feeds")
    func noTags() async throws {
        let app = await started(flaggedLibrary([[false]]))
        await press(app, .character("t"))
        #expect(app.screenKind == .feeds)
        #expect(app.render().text().contains("No feed has a tag yet"))
    }

    @Test("E lists the feeds whose last load failed, kept in the library; Enter shows the whole message")
    func errorsSurviveRestart() async throws {
        let library = flaggedLibrary([[false], [false]])
        let reason =
            "could not connect to https://feeds.example.org/very/long/path/to/a/feed.xml: "
            + String(repeating: "the server refused the connection again ", count: 3)
        await library.setFeedError("feed-1", reason)
        let app = await started(library)
        #expect(app.render().text().contains("!"))
        await press(app, .character("!"))
        guard case .errors = app.screen else {
            Issue.record("E did not list the errors")
            return
        }
        await press(app, .enter)
        guard case .page(let page) = app.screen else {
            Issue.record("Enter did not open the message")
            return
        }
        let lines = page.lines(width: 80).map(\.text).joined(separator: " ")
        #expect(lines.contains("feed-1"))
        #expect(
            lines.replacingOccurrences(of: " ", with: "").contains(
                reason.replacingOccurrences(of: " ", with: "")))
        await press(app, .character("q"), .character("q"))
        #expect(app.screenKind == .feeds)
    }

    @Test(
        "search: Tab moves to the results, where s, N and n act on them; an opened result opens at its match")
    func searchResults() async throws {
        let library = flaggedLibrary([[false, false, false]])
        let app = ReaderApp(repository: library, size: size, clock: ImmediateDebounceClock())
        app.start()
        await app.settle()
        await press(app, .character("/"))
        for c in "paragraph 5" { await press(app, .character(c)) }
        guard case .search(let search) = app.screen else {
            Issue.record("not searching")
            return
        }
        #expect(search.hits.count == 3)
        #expect(app.render().text().contains("1/3 results"))
        // Letters are the query until Tab.
        await press(app, .tab, .character("j"), .character("*"))
        #expect(search.query == "paragraph 5")
        #expect(search.cursor.selected == 1)
        #expect(search.hits[1].article.isStarred)
        #expect(app.render().text().contains("Starred."))
        await press(app, .character("N"))
        #expect(search.hits[1].article.isRead)
        await press(app, .character("n"))
        #expect(search.cursor.selected == 2, "n: the next unread result")
        await press(app, .enter)
        guard case .article(let viewer) = app.screen else {
            Issue.record("Enter did not open the result")
            return
        }
        let lines = viewer.lines(width: size.width, theme: app.theme)
        #expect(lines[viewer.top...].prefix(10).contains { $0.text.contains("Paragraph 5") })
        #expect(viewer.top > 0, "scrolled down to the match")
        let matchLine = try #require(lines.first { $0.text.contains("Paragraph 5") && $0.label == nil })
        #expect(matchLine.spans.contains { $0.text == "Paragraph" && $0.style == app.theme.match })
        // J steps through the results.
        await press(app, .character("K"))
        guard case .article(let previous) = app.screen else { return }
        #expect(previous.summary.id == search.hits[1].id)
        await press(app, .escape, .tab, .character("x"))
        #expect(search.query == "paragraph 5x", "Tab went back to the query")
    }
}

@Suite("The selection bar")
@MainActor
struct SelectionBarTests {
    @Test(
        "the selected row is one bar across the screen, in the selection style, with a > for monochrome terminals"
    )
    func bar() async throws {
        let app = ReaderApp(repository: flaggedLibrary([[false], [true]]), size: Size(width: 50, height: 10))
        app.start()
        await app.settle()
        let canvas = app.render()
        let selected = FeedListModel.virtualRows + 1  // screen row of the first feed
        #expect(canvas[0, selected].grapheme == ">")
        for x in 0..<50 {
            #expect(canvas[x, selected].style == app.theme.selection, "column \(x)")
            #expect(canvas[x, selected + 1].style != app.theme.selection, "column \(x) of the next row")
        }
        app.handle(.character("j"))
        let moved = app.render()
        #expect(moved[10, selected + 1].style == app.theme.selection)
        #expect(moved[10, selected].style != app.theme.selection)
    }
}
