import Foundation
import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

/// What each display setting changes on screen, through the headless reader; monochrome
/// and NO_COLOR screens as goldens with their style section.
@Suite("Display settings and monochrome screens")
@MainActor
struct DisplaySettingsTests {
    let theme = Theme(timeZone: TimeZone(identifier: "UTC")!)

    func screen(
        _ config: String, keys: String = "", size: Size = Size(width: 80, height: 24), colors: Int = 256,
        library: (any ArticleRepository)? = nil
    ) async throws -> Canvas {
        let parsed = ConfigFile.parse(config, file: "test")
        #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)")
        let repository: any ArticleRepository
        if let library { repository = library } else { repository = try await DemoLibrary.load() }
        return await HeadlessSession.run(
            repository: repository, size: size, keys: try Key.parseScript(keys).get(), theme: theme,
            config: parsed, colors: colors)
    }

    func row(_ canvas: Canvas, _ y: Int) -> String {
        String(canvas.trimmedText().split(separator: "\n", omittingEmptySubsequences: false)[y])
    }

    /// Every style used on a screen.
    func styles(_ canvas: Canvas) -> Set<Style> {
        var found = Set<Style>()
        for y in 0..<canvas.size.height {
            for x in 0..<canvas.size.width { found.insert(canvas[x, y].style) }
        }
        return found
    }

    @Test("set colors no: the feed list in attributes only, selection and header in reverse video")
    func monochromeFeeds() async throws {
        let canvas = try await screen("set colors no")
        assertSnapshot(canvas, named: "mono-feeds-80x24", styles: true)
        #expect(styles(canvas).allSatisfy { $0.foreground == .default && $0.background == .default })
    }

    @Test("NO_COLOR and a terminal without colours draw what set colors no draws")
    func noColorIsMonochrome() async throws {
        for keys in ["", "j enter", "enter enter"] {
            let noColor = try await screen("", keys: keys, colors: 0)
            let setting = try await screen("set colors no", keys: keys)
            #expect(noColor == setting, "keys: \(keys)")
            #expect(styles(noColor).allSatisfy { $0.foreground == .default && $0.background == .default })
        }
        assertSnapshot(
            try await screen("", keys: "j enter", colors: 0), named: "nocolor-articles-80x24", styles: true)
        assertSnapshot(
            try await screen("", keys: "enter enter", size: Size(width: 80, height: 16), colors: 0),
            named: "nocolor-article-80x16", styles: true)
    }

    @Test("the default theme's feed list, with its style section (for comparison with monochrome)")
    func colourFeeds() async throws {
        let canvas = try await screen("")
        assertSnapshot(canvas, named: "colour-feeds-80x24", styles: true)
        #expect(styles(canvas).contains(theme.selection))
    }

    @Test("user colours stay under 8, 16 and 256 colours; under monochrome only their attributes stay")
    func userColoursOnMonochrome() async throws {
        let config = "color header color208 color17 underline\ncolor selection black bright-green"
        let coloured = try await screen(config)
        #expect(
            coloured[1, 0].style
                == Style(foreground: TerminalColor(208), background: TerminalColor(17), underline: true))
        let mono = try await screen(config, colors: 0)
        #expect(mono[1, 0].style == Style(reverse: true, underline: true))
        #expect(mono[10, 4].style == Style(reverse: true), "the selected row")
    }

    @Test("cursor arrow: the selected row keeps its styles and is marked by > alone")
    func arrowCursor() async throws {
        let bar = try await screen("", keys: "j enter")
        let arrow = try await screen("set cursor arrow", keys: "j enter")
        #expect(bar.trimmedText() == arrow.trimmedText())
        #expect(arrow[0, 1].grapheme == ">")
        #expect(bar[18, 1].style == theme.selection)
        #expect(arrow[18, 1].style == theme.unread, "an unread row, not the bar")
        #expect(!styles(arrow).contains(theme.selection))
        assertSnapshot(
            try await screen("set cursor arrow\nset colors no", keys: "j enter"),
            named: "mono-arrow-articles-80x24", styles: true)
    }

    @Test("text-width narrows the article's text; text-align centre puts the column in the middle")
    func textWidth() async throws {
        let wide = try await screen("", keys: "enter enter", size: Size(width: 120, height: 30))
        let narrow = try await screen(
            "set text-width 60", keys: "enter enter", size: Size(width: 120, height: 30))
        let centred = try await screen(
            "set text-width 60\nset text-align center", keys: "enter enter",
            size: Size(width: 120, height: 30))
        func widest(_ canvas: Canvas) -> Int {
            (1..<(canvas.size.height - 2)).map { DisplayWidth.of(row(canvas, $0)) }.max() ?? 0
        }
        #expect(widest(wide) > 60)
        #expect(widest(narrow) <= 60)
        #expect(widest(narrow) > 40)
        // Centred: every body line starts 30 columns in, and says what the left one says.
        for y in 1..<(narrow.size.height - 2) {
            let left = row(narrow, y)
            let middle = row(centred, y)
            if left.isEmpty { continue }
            #expect(middle == String(repeating: " ", count: 30) + left, "row \(y)")
        }
        // A window narrower than text-width: the window's width.
        let small = try await screen(
            "set text-width 60\nset text-align centre", keys: "enter enter", size: Size(width: 40, height: 12)
        )
        let plain = try await screen("", keys: "enter enter", size: Size(width: 40, height: 12))
        #expect(small == plain)
    }

    @Test("date-format: the article list's column and the article header follow it, rows stay aligned")
    func dateFormat() async throws {
        let list = try await screen("set date-format long", keys: "j enter")
        let dates = (1...5).map { row(list, $0) }
        for line in dates {
            // `  N  Tue 03 Nov 2026  title`: flags, 15-column date, title from column 22.
            let date = line.dropFirst(5).prefix(15)
            #expect(date.split(separator: " ").count == 4, "\(line)")
            #expect(line.dropFirst(20).prefix(2) == "  ", "\(line)")
            #expect(line.dropFirst(22).first != " ", "\(line)")
        }
        let article = try await screen("set date-format %d/%m/%y", keys: "j enter enter")
        let header = article.trimmedText().split(separator: "\n").first { $0.hasPrefix("Date:") }
        #expect(
            header?.range(of: #"\d\d/\d\d/\d\d \d\d:\d\d$"#, options: .regularExpression) != nil,
            "\(header ?? "")")
    }

    @Test("show-read-feeds no: the feed list hides feeds without unread articles, numbers kept")
    func hideReadFeeds() async throws {
        let library = flaggedLibrary([[true, true], [false, true], [true], [false]])
        let all = try await screen("", size: Size(width: 60, height: 12), library: library)
        let unread = try await screen(
            "set show-read-feeds no", size: Size(width: 60, height: 12), library: library)
        #expect(all.trimmedText().contains("Feed 0"))
        #expect(!unread.trimmedText().contains("Feed 0"))
        #expect(!unread.trimmedText().contains("Feed 2"))
        #expect(row(unread, 4).hasSuffix("Feed 1") && row(unread, 4).contains("2 "), "\(row(unread, 4))")
        #expect(row(unread, 5).hasSuffix("Feed 3") && row(unread, 5).contains("4 "), "\(row(unread, 5))")
        // :4 Enter still selects the fourth feed (Enter opens it); :1 Enter says why it cannot.
        let opened = try await screen(
            "set show-read-feeds no", keys: "4 enter enter", size: Size(width: 60, height: 12), library: library)
        #expect(row(opened, 0).contains("Feed 3"))
        let hidden = try await screen(
            "set show-read-feeds no", keys: "1 enter", size: Size(width: 60, height: 12), library: library)
        #expect(hidden.trimmedText().contains("Feed 1 is hidden"))
    }

    @Test("feed-sort: config order, by title, by unread count")
    func feedSort() async throws {
        let library = InMemoryArticleRepository(
            feeds: [("Zebra", 1), ("apple", 3), ("Mango", 2)].enumerated().map { index, feed in
                let model = Feed(url: "feed-\(index)", title: feed.0)
                return (
                    model,
                    (0..<feed.1).map { a in
                        Article(
                            summary: ArticleSummary(
                                id: "\(index)-\(a)", feedID: model.id, title: "A\(a)", published: nil),
                            feedTitle: feed.0, link: nil, text: "")
                    }
                )
            })
        func order(_ config: String) async throws -> [String] {
            let canvas = try await screen(config, size: Size(width: 50, height: 10), library: library)
            return (4...6).map { String(row(canvas, $0).split(separator: " ").last ?? "") }
        }
        #expect(try await order("") == ["Zebra", "apple", "Mango"])
        #expect(try await order("set feed-sort title") == ["apple", "Mango", "Zebra"])
        #expect(try await order("set feed-sort unread") == ["apple", "Mango", "Zebra"])
        #expect(try await order("set feed-sort unread\nset feed-sort config") == ["Zebra", "apple", "Mango"])
    }

    @Test("highlight: matching titles in article lists and search results take the style, once per title")
    func highlights() async throws {
        let config = ConfigFile.parse("highlight \"f1 a[02]\" red\nhighlight F1 green underline", file: "h")
        #expect(config.diagnostics.isEmpty)
        let app = ReaderApp(
            repository: flaggedLibrary([[false], [false, true, false]]), size: Size(width: 60, height: 10))
        app.apply(config)
        app.start()
        await app.settle()
        await AppDriver.press(app, [.character("j"), .enter])
        var canvas = app.render()
        // Rows: F1 A0 (unread), F1 A1 (read), F1 A2 (unread); the bar is on the first.
        #expect(canvas[20, 2].style == Style(foreground: .green, underline: true), "read, second line")
        #expect(
            canvas[20, 3].style == Style(foreground: .red, bold: true), "unread, first line wins, bold kept")
        #expect(canvas[2, 3].style == theme.unread, "flags and date keep the row's style")
        let matched = app.highlighter.matched
        #expect(matched == 3)
        for _ in 0..<5 { canvas = app.render() }
        #expect(app.highlighter.matched == matched, "frames redrawn match nothing again")
        // No highlight lines: nothing is matched.
        let plain = await AppDriver.started(flaggedLibrary([[false]]), size: Size(width: 60, height: 10))
        await AppDriver.press(plain, [.enter])
        _ = plain.render()
        #expect(plain.highlighter.matched == 0)
        // Monochrome: the highlight's attributes only.
        app.adapt(toColors: 0)
        #expect(app.render()[20, 3].style == Style(bold: true))
    }
}

extension DisplaySettingsTests {
    @Test("show-read-articles no: unread rows only; a row read stays until the list is opened again")
    func unreadArticlesOnly() async throws {
        let parsed = ConfigFile.parse("set show-read-articles no", file: "t")
        #expect(parsed.diagnostics.isEmpty)
        let app = ReaderApp(
            repository: flaggedLibrary([[false, true, false, true, false], [true, false]]),
            size: Size(width: 60, height: 12))
        app.apply(parsed)
        app.start()
        await app.settle()
        await AppDriver.press(app, [.enter])
        var canvas = app.render()
        #expect(
            row(canvas, 1).hasSuffix("F0 A0") && row(canvas, 2).hasSuffix("F0 A2"), "\(canvas.trimmedText())")
        #expect(row(canvas, 3).hasSuffix("F0 A4") && row(canvas, 4).isEmpty)
        #expect(canvas.trimmedText().contains("1/3 articles · 3 unread"))
        // N marks the row read: it stays under the cursor, its N gone.
        await AppDriver.press(app, [.character("N")])
        canvas = app.render()
        #expect(row(canvas, 1).hasSuffix("F0 A0") && !row(canvas, 1).contains(" N "), "\(row(canvas, 1))")
        // J moves on; opened again, the list has the two unread rows left.
        await AppDriver.press(app, [.character("J"), .character("q"), .enter])
        canvas = app.render()
        #expect(
            row(canvas, 1).hasSuffix("F0 A2") && row(canvas, 2).hasSuffix("F0 A4") && row(canvas, 3).isEmpty)
        #expect(canvas.trimmedText().contains("1/2 articles · 2 unread"))
        // n goes on to the next feed's unread article, in its unread-only list.
        await AppDriver.press(app, [.character("n"), .character("n"), .character("n"), .character("q")])
        canvas = app.render()
        #expect(row(canvas, 0).contains("Feed 1"), "\(row(canvas, 0))")
        #expect(row(canvas, 1).hasSuffix("F1 A1") && row(canvas, 2).isEmpty, "\(canvas.trimmedText())")
    }
}

extension DisplaySettingsTests {
    @Test(":set changes a display setting at once: colours off and on, cursor, date format")
    func setInTheReader() async throws {
        let app = await AppDriver.started(flaggedLibrary([[false, true]]), size: Size(width: 60, height: 10))
        app.apply(ConfigFile.parse("color header black magenta", file: "t"))
        func set(_ text: String) async {
            await AppDriver.press(app, [.character(":")] + text.map { .character($0) } + [.enter])
        }
        #expect(app.render()[1, 0].style == Style(foreground: .black, background: .magenta))
        await set("set colors no")
        #expect(app.render()[1, 0].style == Style(reverse: true))
        await set("set colors yes")
        #expect(
            app.render()[1, 0].style == Style(foreground: .black, background: .magenta),
            "the config's colours back")
        await AppDriver.press(app, [.enter])
        await set("set cursor arrow")
        var canvas = app.render()
        #expect(canvas[0, 1].grapheme == ">" && canvas[20, 1].style != app.theme.selection)
        await set("set date-format short")
        canvas = app.render()
        #expect(
            row(canvas, 1).range(of: #"^> N  [A-Z][a-z]{2} \d\d  F0 A0$"#, options: .regularExpression)
                != nil, "\(row(canvas, 1))")
        // A monochrome terminal stays monochrome whatever :set colors says.
        app.adapt(toColors: 0)
        await set("set colors yes")
        #expect(app.render()[1, 0].style == Style(reverse: true))
    }
}
