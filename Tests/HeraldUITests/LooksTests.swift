import Foundation
import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

/// The looks a user chooses: list formats, words highlighted in an article's text, and the
/// article list of very narrow windows, through the headless reader.
@Suite("Looks the user chose")
@MainActor
struct LooksTests {
    let theme = Theme(timeZone: TimeZone(identifier: "UTC")!)

    func screen(
        _ config: String, keys: String = "", size: Size = Size(width: 80, height: 24),
        library: (any ArticleRepository)? = nil
    ) async throws -> Canvas {
        let parsed = ConfigFile.parse(config, file: "test")
        #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)")
        let repository: any ArticleRepository
        if let library { repository = library } else { repository = try await DemoLibrary.load() }
        return await HeadlessSession.run(
            repository: repository, size: size, keys: try Key.parseScript(keys).get(), theme: theme,
            config: parsed, colors: 256)
    }

    func rows(_ canvas: Canvas) -> [String] {
        canvas.trimmedText().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// The column (cell index) where `text` starts in row `y`, counting wide cells as 2.
    func column(of text: String, in canvas: Canvas, row y: Int) -> Int? {
        let line = rows(canvas)[y]
        guard let range = line.range(of: text) else { return nil }
        return DisplayWidth.of(line[..<range.lowerBound])
    }

    @Test("articlelist-format and datetime-format: All articles in newsboat's columns (golden)")
    func articleFormat() async throws {
        let canvas = try await screen(
            "set articlelist-format \"%4i %f %D  %?T?;%-14T; ?%t\"\nset datetime-format \"%b %d\"",
            keys: "k k k enter")
        assertSnapshot(canvas, named: "format-all-articles-80x24")
        let first = rows(canvas)[1]
        #expect(first.hasPrefix(">    1 N  "), "\(first)")
        #expect(first.contains(";"), "the feed's column in a list of many feeds")
    }

    @Test("a feed's own list has no feed title: the condition leaves its column out")
    func conditionInFeedList() async throws {
        let canvas = try await screen(
            "set articlelist-format \"%4i %f %D  %?T?;%-14T; ?%t\"", keys: "j enter")
        let first = rows(canvas)[1]
        #expect(first.hasPrefix(">    1 N  2026-11-21  떡볶이"), "\(first)")
    }

    @Test(":set articlelist-format changes the open list's rows for the session; a refused field says why")
    func setAtTheColonPrompt() async throws {
        let app = await AppDriver.started(
            try await DemoLibrary.load(), size: Size(width: 80, height: 24), config: "")
        await AppDriver.press(app, [.enter])
        func command(_ text: String) async {
            await AppDriver.press(app, [.character(":")] + text.map { .character($0) } + [.enter])
        }
        await command("set articlelist-format \"%t%> %i\"")
        let row = rows(app.render())[1]
        #expect(row.hasPrefix("> Counting Geese by the Thousand") && row.hasSuffix(" 1"), "\(row)")
        await command("set articlelist-format %L")
        #expect(app.message?.contains("`%L` is the article's length") == true, "\(app.message ?? "")")
        #expect(app.settings.articleListFormat?.text == "%t%> %i", "the last good format stays")
    }

    @Test("feedlist-format: numbers, flags, counts and titles in the user's columns (golden)")
    func feedFormat() async throws {
        let canvas = try await screen("set feedlist-format \"%4i %S%n %-9u %t%> %T\"")
        assertSnapshot(canvas, named: "format-feeds-80x24")
        #expect(rows(canvas).contains { $0.hasPrefix("     2  N (13/13)   한글") }, "\(rows(canvas))")
    }

    @Test("a highlighted title keeps its style inside a format, the rest of the row unread-bold")
    func formatHighlight() async throws {
        let canvas = try await screen(
            "set articlelist-format \"%-3i|%t\"\nhighlight 떡볶이 red", keys: "j enter J")
        let x = try #require(column(of: "떡볶이", in: canvas, row: 1))
        #expect(canvas[x, 1].style.foreground == .red)
        #expect(canvas[2, 1].style == theme.unread, "the number, in the row's style")
    }

    @Test(
        "below 40 columns an article row is its flags and title; at 40 the date comes back",
        arguments: [20, 30, 39, 40])
    func narrow(width: Int) async throws {
        for config in ["", "set articlelist-format \"%4i %f %D %a %t\""] {
            let canvas = try await screen(config, keys: "j enter", size: Size(width: width, height: 10))
            let row = rows(canvas)[2]
            if width < 40 {
                #expect(row.hasPrefix("  N  유니코드"), "width \(width), config \(config): \(row)")
                #expect(!row.contains("2026"))
            } else {
                #expect(row.contains("2026-11-13"), "width \(width), config \(config): \(row)")
                #expect(row.contains("유니"))
            }
        }
    }

    @Test("highlight article colours the matching words of the text, not whole lines nor the title (golden)")
    func articleWords() async throws {
        let canvas = try await screen(
            "highlight article \"geese|birds?\" red default bold", keys: "enter enter",
            size: Size(width: 80, height: 16))
        assertSnapshot(canvas, named: "article-highlight-80x16", styles: true)
        let lines = rows(canvas)
        let y = try #require(lines.firstIndex { $0.contains("pink-footed geese") })
        let x = try #require(column(of: "geese", in: canvas, row: y))
        #expect(canvas[x, y].style == Style(foreground: .red, bold: true))
        #expect(canvas[x + 4, y].style == Style(foreground: .red, bold: true))
        #expect(canvas[x - 2, y].style != Style(foreground: .red, bold: true), "only the word")
        #expect(canvas[x + 5, y].style != Style(foreground: .red, bold: true))
        let title = try #require(lines.firstIndex { $0.hasPrefix("Title:") })
        #expect(canvas[9, title].style.foreground != .red, "titles are highlight all's, not article's")
    }

    @Test("highlight all colours the list's titles and the article's words")
    func highlightAll() async throws {
        let list = try await screen("highlight all geese red", keys: "enter J")
        let y = try #require(rows(list).firstIndex { $0.contains("Counting Geese") && !$0.hasPrefix(">") })
        let x = try #require(column(of: "Counting Geese", in: list, row: y))
        #expect(list[x, y].style.foreground == .red)
        let article = try await screen("highlight all geese red", keys: "enter enter")
        let body = try #require(rows(article).firstIndex { $0.contains("pink-footed geese") })
        let at = try #require(column(of: "geese", in: article, row: body))
        #expect(article[at, body].style.foreground == .red)
    }

    @Test("words are matched when the article is laid out, not per frame; in display columns")
    func matchedOnce() async throws {
        let highlighter = TextHighlighter()
        highlighter.highlights = [try TitleHighlight(pattern: "한글", style: Style(foreground: .red))]
        let ranges = highlighter.ranges(in: "오늘 한글 뉴스 🇰🇷 한글")
        #expect(ranges.map(\.range) == [3..<5, 11..<13])
        let spans = ArticleViewModel.restyled(
            [("오늘 한", Style()), ("글 뉴스", Style(underline: true))], ranges)
        #expect(spans.map(\.text) == ["오늘 ", "한", "글", " 뉴스"])
        #expect(spans[2].style == Style(foreground: .red, underline: true), "a link stays underlined")

        let app = await AppDriver.started(
            try await DemoLibrary.load(), size: Size(width: 80, height: 16),
            config: "highlight article geese red")
        await AppDriver.press(app, [.enter, .enter])
        _ = app.render()
        let matched = app.textHighlighter.matched
        #expect(matched > 0)
        for _ in 0..<3 { _ = app.render() }
        await AppDriver.press(app, [.down])
        _ = app.render()
        #expect(app.textHighlighter.matched == matched, "frames and scrolling match nothing new")
    }

    @Test("a text highlight too slow is off for the session and said on the status line; the others stay")
    func slowTextHighlight() async throws {
        let feed = Feed(url: "feed-0", title: "Backtracking")
        let text =
            (0..<6).map { _ in String(repeating: "a", count: 30) + "!" }.joined(separator: "\n\n")
            + "\n\nRust news"
        let library = InMemoryArticleRepository(feeds: [
            (
                feed,
                [
                    Article(
                        summary: ArticleSummary(
                            id: "a0", feedID: feed.id, title: "Slow",
                            published: Date(timeIntervalSince1970: 1_790_000_000)),
                        feedTitle: feed.title, link: nil, text: text)
                ]
            )
        ])
        let size = Size(width: 100, height: 24)
        let app = await AppDriver.started(
            library, size: size, config: "highlight article \"(a+)+$\" red\nhighlight article rust blue")
        await AppDriver.press(app, [.enter, .enter])
        let canvas = app.render()
        let lines = rows(canvas)
        #expect(
            lines[size.height - 2].contains("highlight: /(a+)+$/ is too slow"), "\(lines[size.height - 2])")
        let y = try #require(lines.firstIndex { $0.hasPrefix("Rust news") })
        #expect(canvas[0, y].style.foreground == .blue)
        #expect(app.textHighlighter.takeSlowHighlights().isEmpty, "said once")
    }
}
