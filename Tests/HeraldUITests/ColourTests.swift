import Foundation
import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

/// Colours beyond 8, the monochrome theme and `highlight` lines.
@Suite("Colours, monochrome and highlights")
struct ColourTests {
    @Test(
        "colours are read by name, bright name (newsboat's spelling too), colorN and N",
        arguments: [
            ("red", 1), ("RED", 1), ("bright-red", 9), ("brightred", 9), ("bright-white", 15), ("color0", 0),
            ("color208", 208), ("colour255", 255), ("17", 17), ("white", 7),
        ])
    func parsesColours(_ word: String, _ index: Int) {
        #expect(TerminalColor.parse(word) == TerminalColor(UInt8(index)))
    }

    @Test("default is the terminal's colour; nonsense and numbers past 255 are not colours")
    func refusesNonColours() {
        #expect(TerminalColor.parse("default") == .default)
        for word in ["color256", "256", "bright-pink", "colorx", "", "-1", "color", "1e2", "٣"] {
            #expect(TerminalColor.parse(word) == nil, "\(word)")
        }
    }

    @Test("a colour's name reads back as the config file writes it")
    func namesRoundTrip() {
        for index in 0...255 {
            let color = TerminalColor(UInt8(index))
            #expect(TerminalColor.parse(color.description) == color, "\(color)")
        }
        #expect(TerminalColor.parse(TerminalColor.default.description) == .default)
    }

    @Test("a terminal with fewer colours draws the nearest basic one")
    func fitsColours() {
        // Colours the terminal has stay as they are.
        #expect(TerminalColor(208).fitted(toColors: 256) == TerminalColor(208))
        #expect(TerminalColor.red.fitted(toColors: 8) == .red)
        #expect(TerminalColor.default.fitted(toColors: 8) == .default)
        // The cube's pure red (196) is bright red on 16 colours, red on 8.
        #expect(TerminalColor(196).fitted(toColors: 16) == TerminalColor(9))
        #expect(TerminalColor(196).fitted(toColors: 8) == .red)
        // A deep blue (19) is blue, navy (17) nearer black; a light grey (250) is white;
        // near-black (233) is black.
        #expect(TerminalColor(19).fitted(toColors: 8) == .blue)
        #expect(TerminalColor(17).fitted(toColors: 8) == .black)
        #expect(TerminalColor(250).fitted(toColors: 8) == .white)
        #expect(TerminalColor(233).fitted(toColors: 16) == .black)
        // Bright colours on 8: their basic colour.
        #expect(TerminalColor(10).fitted(toColors: 8) == .green)
        // Orange (208) on 8 colours: nearest by RGB is yellow or red, never blue.
        #expect([TerminalColor.yellow, .red].contains(TerminalColor(208).fitted(toColors: 8)!))
        // No colours at all: nothing.
        #expect(TerminalColor.red.fitted(toColors: 0) == nil)
    }

    @Test("color takes 256-colour and bright colours")
    func colorLines() {
        let config = ConfigFile.parse(
            "color header color231 color24 bold\ncolor date bright-black default\ncolor title brightyellow 0",
            file: "c")
        #expect(config.diagnostics.isEmpty, "\(config.diagnostics)")
        #expect(
            config.colors["header"]
                == Style(foreground: TerminalColor(231), background: TerminalColor(24), bold: true))
        #expect(config.colors["date"] == Style(foreground: TerminalColor(8)))
        #expect(config.colors["title"] == Style(foreground: TerminalColor(11), background: .black))
    }

    @Test(
        "colour and highlight mistakes name file:line:column",
        arguments: [
            ("color title color256 default", "c:1:13: unknown colour `color256`"),
            ("color title red bright-pnk", "c:1:17: unknown colour `bright-pnk`"),
            ("highlight \"(rust\" red", "c:1:11: `(rust` is not a regular expression"),
            ("highlight rust", "c:1:15: highlight needs a pattern and a colour"),
            ("highlight rust rd", "c:1:16: unknown colour `rd` — did you mean `red`?"),
            ("highlight rust red blue blink", "c:1:25: unknown attribute `blink`"),
            (
                "  highlight feedlist rust red",
                "c:1:13: highlight colours articles' titles and text, not feeds"
            ),
        ])
    func highlightMistakes(_ text: String, _ expected: String) {
        let found = ConfigFile.parse(text, file: "c").diagnostics.map(\.description)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix(expected) == true, "\(found.first ?? "none")")
    }

    @Test("highlight: background optional, attributes after either colour, newsboat's articlelist target")
    func highlightLines() throws {
        let config = ConfigFile.parse(
            """
            highlight rust red
            highlight "swift|kotlin" green bold
            highlight articlelist "^release" color208 blue underline
            """, file: "c")
        #expect(config.diagnostics.isEmpty, "\(config.diagnostics)")
        #expect(config.highlights.map(\.pattern) == ["rust", "swift|kotlin", "^release"])
        #expect(
            config.highlights.map(\.style) == [
                Style(foreground: .red), Style(foreground: .green, bold: true),
                Style(foreground: TerminalColor(208), background: .blue, underline: true),
            ])
        #expect(try config.highlights[0].matches("Why RUST?"))
        #expect(try config.highlights[1].matches("Kotlin 2"))
        #expect(try !config.highlights[2].matches("The release"))
    }

    @Test("the monochrome theme has no colour, and tells the selection and header by reverse video")
    func monochromeTheme() {
        var coloured = Theme()
        coloured.set("date", Style(foreground: .red, background: .blue, underline: true))
        let theme = coloured.monochrome()
        for element in Theme.elements {
            let style = theme.style(of: element)!
            #expect(style.foreground == .default && style.background == .default, "\(element)")
        }
        #expect(theme.selection.reverse)
        #expect(theme.header.reverse && theme.header.bold)
        #expect(theme.unread.bold)
        #expect(theme.link.underline)
        // A coloured element the config set keeps its attributes; its background becomes reverse.
        #expect(theme.date == Style(reverse: true, underline: true))
        #expect(Theme().fitted(toColors: 256).selection == Theme().selection)
        #expect(Theme().fitted(toColors: 0).selection == Style(reverse: true))
    }

    @Test(
        "the default theme: no yellow, cyan or blue text (pale on white, dark on black) but underlined links")
    func readableDefaults() {
        let theme = Theme()
        for element in Theme.elements {
            let style = theme.style(of: element)!
            let foreground = style.foreground
            // Text on a coloured bar is readable whatever the terminal's background.
            guard style.background == .default else { continue }
            // Links are blue by convention, and underlined where blue is dark.
            if element == "link" {
                #expect(style.underline)
                continue
            }
            #expect(
                ![TerminalColor.yellow, .cyan, .blue, .white].contains(foreground),
                "\(element): \(foreground)")
        }
    }

    @Test("herald config default documents colours, highlight and every display setting")
    func defaultText() {
        let text = ConfigFile.defaultText()
        for words in [
            "color0…color255", "highlight REGEX FG [BG]", "# set colors yes", "# set text-width 0",
            "# set text-align left", "# set date-format iso", "# set show-read-feeds yes",
            "# set feed-sort config",
            "# set cursor bar",
        ] {
            #expect(text.contains(words), "\(words)")
        }
        // What config default prints reads back without a mistake.
        let uncommented = text.split(separator: "\n").filter {
            $0.hasPrefix("# set ") || $0.hasPrefix("# color ")
        }
        .map { $0.dropFirst(2) }.joined(separator: "\n")
        #expect(ConfigFile.parse(uncommented, file: "d").diagnostics.isEmpty)
    }

    @Test(
        "display settings refuse what they cannot take",
        arguments: [
            ("set text-width -1", "c:1:16: `-1`: text-width is a number from 0 to 1000"),
            ("set text-align middle", "c:1:16: `middle`: text-align is left or centre"),
            ("set date-format %Q", "c:1:17: `%Q`: `%Q` is not a date field"),
            ("set date-format nice", "c:1:17: `nice`: a date format is one of iso"),
            ("set feed-sort size", "c:1:15: `size`: feed-sort is config or title or unread"),
            ("set cursor block", "c:1:12: `block`: cursor is bar or arrow"),
            ("set colors maybe", "c:1:12: `maybe`: colors is yes or no"),
        ])
    func settingMistakes(_ text: String, _ expected: String) {
        let found = ConfigFile.parse(text, file: "c").diagnostics.map(\.description)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix(expected) == true, "\(found.first ?? "none")")
    }

    @Test("date formats: names and patterns, every date of a format the same width")
    func dateFormats() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = Date(timeIntervalSince1970: 1_793_700_000 - 4_800)  // 2026-11-03 08:40 UTC, a Tuesday
        let cases = [
            ("iso", "2026-11-03"), ("european", "03.11.2026"), ("us", "11/03/2026"), ("short", "Nov 03"),
            ("long", "Tue 03 Nov 2026"), ("%e %b %y %H:%M", " 3 Nov 26 08:40"),
            ("day %j, 100%%", "day 307, 100%"),
        ]
        for (text, expected) in cases {
            let format = try DateFormat.parse(text).get()
            #expect(format.string(date, calendar: calendar) == expected)
            #expect(format.width == expected.count, "\(text)")
        }
        // Width-stable: every day of a year in one width.
        let format = try DateFormat.parse("%a %e %b").get()
        for day in 0..<366 {
            let text = format.string(date.addingTimeInterval(Double(day) * 86_400), calendar: calendar)
            #expect(text.count == format.width, "\(text)")
        }
    }

    @Test("the config page's colour and display examples read without a mistake")
    func readmeExamples() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/CONFIG.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        for heading in ["\n## Colours\n", "\n## Display settings\n"] {
            let section = try #require(text.range(of: heading), "no \(heading) in docs/CONFIG.md")
            let rest = text[section.upperBound...]
            let open = try #require(rest.range(of: "```text\n"))
            let close = try #require(rest[open.upperBound...].range(of: "```"))
            let example = String(rest[open.upperBound..<close.lowerBound])
            #expect(example.split(separator: "\n").count >= 5, "\(heading)")
            let config = ConfigFile.parse(example, file: "README")
            #expect(config.diagnostics.isEmpty, "\(heading): \(config.diagnostics)")
        }
    }
}
