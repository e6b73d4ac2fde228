import Foundation
import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

@Suite("The config file")
struct ConfigFileTests {
    func diagnostics(_ text: String) -> [String] {
        ConfigFile.parse(text, file: "config").diagnostics.map(\.description)
    }

    @Test(
        "every mistake names file:line:column, the word, and a suggestion when one is close",
        arguments: [
            ("bind x nxt-unread", "config:1:8: unknown action `nxt-unread` — did you mean `next-unread`?"),
            ("\n  bind F13 quit", "config:2:8: unknown key `F13`"),
            ("bind x quit feedz", "config:1:13: unknown screen `feedz` — did you mean `feeds`?"),
            ("bind x", "config:1:7: bind needs a key and an action"),
            ("bind x help-me", "config:1:8: unknown action `help-me`"),
            ("unbind", "config:1:7: unbind needs a key"),
            ("unbind Q nowhere", "config:1:10: unknown screen `nowhere`"),
            ("set", "config:1:4: set needs a name and a value"),
            ("set brwser w3m", "config:1:5: unknown setting `brwser` — did you mean `browser`?"),
            ("set confirm-mark-all maybe", "config:1:22: `maybe`: confirm-mark-all is yes or no"),
            ("set reload-jobs 0", "config:1:17: `0`: reload-jobs is a number from 1 to 1000"),
            ("set reload-jobs 5 6", "config:1:19: set reload-jobs takes one value"),
            ("set browser \"w3m", "config:1:13: a quote is not closed"),
            ("colr x", "config:1:1: unknown directive `colr` — did you mean `color`?"),
            ("include other", "config:1:9: include reads files only in a config read from disk"),
            ("macro x", "config:1:8: macro needs a key and a step"),
            ("macro F13 open", "config:1:7: unknown key `F13`"),
            ("macro x open ; ; toggle-read", "config:1:1: a macro step is empty"),
            ("macro x open ;", "config:1:1: a macro step is empty"),
            ("macro x opn", "config:1:9: unknown action `opn` — did you mean `open`?"),
            ("macro x open toggle-read", "config:1:14: an action takes no arguments in a macro"),
            ("macro x set browser", "config:1:9: a set step takes a name and one value"),
            ("macro x set browser w3m lynx", "config:1:9: a set step takes a name and one value"),
            ("macro x set brwser w3m", "config:1:9: unknown setting `brwser` — did you mean `browser`?"),
            ("macro x set reload-jobs 0", "config:1:9: set reload-jobs `0`: "),
            ("macro x open -- \"a\" b", "config:1:14: -- is followed by one quoted description"),
            ("color titel red default", "config:1:7: unknown element `titel` — did you mean `title`?"),
            ("color title rd default", "config:1:13: unknown colour `rd` — did you mean `red`?"),
            ("color title red default blink", "config:1:25: unknown attribute `blink`"),
            ("color title red", "config:1:16: color needs an element and two colours"),
            ("bind x toggle-read feeds", "config:1:20: `toggle-read` does nothing on feeds"),
        ])
    func mistakes(_ text: String, _ expected: String) {
        let found = diagnostics(text)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix(expected) == true, "\(found.first ?? "none")")
    }

    @Test("macro reads its key, its steps split at `;` (a word or a word's end) and its description; its line reads back")
    func macroLine() throws {
        let config = ConfigFile.parse(
            "macro v set browser \"mpv %s\"; open-in-browser ; toggle-read -- \"watch it\"\nmacro C-g top",
            file: "config")
        #expect(config.diagnostics.isEmpty, "\(config.diagnostics)")
        let watch = try #require(config.macros[.character("v")])
        #expect(
            watch.steps == [.set(setting: "browser", value: "mpv %s"), .action(.openInBrowser), .action(.toggleRead)])
        #expect(watch.description == "watch it")
        #expect(config.macros[.control("g")]?.steps == [.action(.top)])
        #expect(config.settings.browser != "mpv %s", "a macro's set waits for the macro to run")
        let again = ConfigFile.parse(ConfigDirective.macro(watch).line, file: "again")
        #expect(again.diagnostics.isEmpty && again.macros[.character("v")] == watch, "\(ConfigDirective.macro(watch).line)")
    }

    @Test("color sets an element's style in the reader's theme")
    @MainActor
    func colors() async {
        let config = ConfigFile.parse(
            "color selection white magenta bold\ncolour date default default", file: "c")
        #expect(config.diagnostics.isEmpty)
        let app = await AppDriver.started(flaggedLibrary([[false]]), size: Size(width: 60, height: 10))
        app.apply(config)
        #expect(app.theme.selection == Style(foreground: .white, background: .magenta, bold: true))
        #expect(app.theme.date == Style())
    }

    @Test("the rest of a file with mistakes still counts; comments and blank lines are nothing")
    func restCounts() {
        let config = ConfigFile.parse(
            """
            # keys
            bind x next-unread   # like n

            frobnicate
            set browser "w3m -o confirm_qq=false"
            set confirm-mark-all no
            """, file: "config")
        #expect(config.diagnostics.map(\.line) == [4])
        #expect(config.keymap.action(for: .character("x"), on: .feeds) == .nextUnread)
        #expect(config.settings.browser == "w3m -o confirm_qq=false")
        #expect(config.settings.confirmMarkAll == false)
    }

    @Test("bind takes the key from what it did; unbind leaves it doing nothing, there or everywhere")
    func bindings() {
        var keymap = Keymap.standard
        keymap.bind(.character("n"), to: .toggleStar, on: [.articles])
        #expect(keymap.action(for: .character("n"), on: .articles) == .toggleStar)
        #expect(keymap.action(for: .character("n"), on: .feeds) == .nextUnread, "elsewhere n is still n")
        keymap.unbind(.character("Q"))
        #expect(keymap.action(for: .character("Q"), on: .feeds) == nil)
        #expect(keymap.action(for: .control("c"), on: .feeds) == .quitNow)
        keymap.unbind(.character("j"), on: [.article])
        #expect(keymap.action(for: .character("j"), on: .article) == nil)
        #expect(keymap.action(for: .character("j"), on: .feeds) == .down)
        #expect(keymap.action(for: .character("j"), on: .articles) == .nextFeed, "newsboat's j there")
        keymap.bind(.control("f"), to: .pageDown)
        #expect(keymap.action(for: .control("f"), on: .article) == .pageDown)
        #expect(keymap.action(for: .control("f"), on: .feeds) == .pageDown)
    }

    @Test("the hint line and the help follow the bindings")
    @MainActor
    func hintAndHelp() {
        var keymap = Keymap.standard
        #expect(keymap.hint(for: .feeds).contains("n:next unread"))
        keymap.bind(.character("x"), to: .nextUnread)
        #expect(keymap.hint(for: .feeds).contains("x:next unread"), "\(keymap.hint(for: .feeds))")
        keymap.unbind(.character("?"))
        keymap.bind(.function(1), to: .help)
        #expect(keymap.hint(for: .feeds).contains("F1:help"), "\(keymap.hint(for: .feeds))")
        let help = ReaderApp.helpPage(for: .feeds, keymap: keymap).paragraphs.map(\.label)
        #expect(help.contains("x, n") && help.contains("F1"), "\(help)")
    }

    @Test("herald config default reads back with no mistake, to the keys as they ship")
    func defaultRoundTrip() {
        let uncommented = ConfigFile.defaultText().split(separator: "\n").compactMap { line -> String? in
            ["# set ", "# bind ", "# color "].contains(where: line.hasPrefix)
                ? String(line.dropFirst(2)) : nil
        }
        #expect(uncommented.count > 40)
        let config = ConfigFile.parse(uncommented.joined(separator: "\n"), file: "default")
        #expect(config.diagnostics.isEmpty, "\(config.diagnostics)")
        #expect(config.settings == Settings())
        #expect(config.colors.count == Theme.elements.count)
        for (element, style) in config.colors { #expect(Theme().style(of: element) == style, "\(element)") }
        for screen in ScreenKind.allCases {
            for binding in Keymap.standard.bindings {
                for key in binding.keys {
                    #expect(
                        config.keymap.action(for: key, on: screen)
                            == Keymap.standard.action(for: key, on: screen),
                        "\(key.label) on \(screen)")
                }
            }
        }
    }

    @Test("a rebound key works in the reader, and the reader shows the file's first mistake")
    @MainActor
    func inTheReader() async {
        var config = ConfigFile.parse("bind x next-unread\nbind y nowhere", file: "config")
        config.settings.confirmMarkAll = false
        let app = await AppDriver.started(
            flaggedLibrary([[false, false]]), size: Size(width: 80, height: 12))
        app.apply(config)
        #expect(app.render().text().contains("config: config:2:8: unknown action `nowhere`"))
        await AppDriver.press(app, [.enter, .character("x")])
        guard case .article(let viewer) = app.screen else {
            Issue.record("x did not open the next unread article: \(app.screenKind) \(app.render().text())")
            return
        }
        #expect(viewer.summary.title.hasPrefix("F0 A"))
        await AppDriver.press(app, [.character("q"), .character("q"), .character("C")])
        #expect(app.feedList.feeds.map(\.unread) == [0], "C did not ask: confirm-mark-all no")
    }
}
