import Testing

@testable import HeraldConfig
@testable import HeraldCore

/// Typed config directives: their lines read back to the same effect, and a directive is
/// judged by the same rules, in the same words, whether it was built or read from a line.
@Suite("Config directives")
struct ConfigDirectiveTests {
    /// What a config makes of the keys a directive names, and everything else it holds.
    struct Effect: Equatable {
        var actions: [ScreenKind: Action]
        var settings: Settings
        var colors: [String: Style]
        var highlights: [String]
        var highlightStyles: [Style]
        var textHighlights: [String]
        var filters: [QueryFilter]

        init(_ config: ReaderConfig, keys: [Key]) {
            actions = [:]
            for screen in ScreenKind.allCases {
                actions[screen] = config.keymap.action(for: keys, on: screen)
            }
            settings = config.settings
            colors = config.colors
            highlights = config.highlights.map(\.pattern)
            highlightStyles = config.highlights.map(\.style) + config.textHighlights.map(\.style)
            textHighlights = config.textHighlights.map(\.pattern)
            filters = config.filters
        }
    }

    static let right: [ConfigDirective] = [
        .bind(keys: [.character("#")], action: .openInBrowser, screens: [.feeds]),
        .bind(keys: [.control("d")], action: .pageDown, screens: [.articles, .article]),
        .bind(keys: [.function(11), .character("r")], action: .reloadAll, screens: nil),
        .bind(keys: [.character(" ")], action: .nextUnread, screens: nil),
        .unbind(keys: [.character("J")], screens: nil),
        .unbind(keys: [.character("j")], screens: [.articles]),
        .set(setting: "browser", value: "lynx \"%s\" -x \\ #1"),
        .set(setting: "reload-interval", value: "45"),
        .set(setting: "show-read-feeds", value: "no"),
        .color(
            element: "header",
            style: Style(foreground: .yellow, background: .default, bold: true, underline: true)),
        .color(
            element: "selection", style: Style(foreground: TerminalColor(123), background: TerminalColor(9))),
        .highlight(pattern: "rust|swift", style: Style(foreground: .red)),
        .highlight(pattern: "^\\[Ad\\] \"quoted\" #x", style: Style(foreground: .green, italic: true)),
        .highlight(pattern: "two words", style: Style(foreground: .blue, background: .white)),
        .highlight(pattern: "in text", style: Style(foreground: .red, bold: true), target: .article),
        .highlight(pattern: "article", style: Style(foreground: .green), target: .all),
        .set(setting: "articlelist-format", value: "%4i %f %D  %?T?;%-17T; ?%t"),
        .set(setting: "feedlist-format", value: "%4i %n %11u %t%> %T"),
        .set(setting: "datetime-format", value: "%b %d %H:%M"),
        .filter(query: "feed:\"a b\" (title:/ad/ or author:/^Bo$/)", action: .hide),
        .filter(query: "unread age>7d", action: .markRead),
    ]

    @Test(
        "every kind of directive prints a line the config reader reads back to the same effect",
        arguments: right)
    func readsBack(directive: ConfigDirective) {
        var applied = ReaderConfig()
        #expect(applied.apply(directive).isEmpty, "\(directive.line)")
        let read = ConfigFile.parse(directive.line, file: "t")
        #expect(read.diagnostics.isEmpty, "\(directive.line): \(read.diagnostics)")
        let keys: [Key]
        switch directive {
        case .bind(let named, _, _), .unbind(let named, _): keys = named
        default: keys = [.character("j")]
        }
        #expect(Effect(read, keys: keys) == Effect(applied, keys: keys), "\(directive.line)")
        // And the directive did something: the effect is not the config's default one.
        #expect(Effect(applied, keys: keys) != Effect(ReaderConfig(), keys: keys), "\(directive.line)")
    }

    @Test("lines print as the config file writes them")
    func lines() {
        #expect(
            ConfigDirective.bind(keys: [.character("#")], action: .openInBrowser, screens: [.feeds]).line
                == "bind \"#\" open-in-browser feeds")
        #expect(
            ConfigDirective.bind(keys: [.character("g"), .character("r")], action: .reloadAll, screens: nil)
                .line
                == "bind \"g r\" reload-all")
        #expect(
            ConfigDirective.unbind(keys: [.control("d")], screens: [.articles]).line == "unbind C-d articles")
        #expect(ConfigDirective.set(setting: "browser", value: "lynx %s").line == "set browser \"lynx %s\"")
        #expect(
            ConfigDirective.color(element: "read", style: Style(foreground: .red, bold: true, dim: true)).line
                == "color read red default bold dim")
        #expect(
            ConfigDirective.highlight(pattern: "x", style: Style(foreground: .red)).line == "highlight x red")
        #expect(
            ConfigDirective.highlight(pattern: "x y", style: Style(foreground: .red, bold: true)).line
                == "highlight \"x y\" red default bold")
        #expect(ConfigDirective.filter(query: "title:/ad/", action: .skip).line == "filter title:/ad/ skip")
    }

    static let wrong: [ConfigDirective] = [
        .bind(keys: [.character("X")], action: .nextFeed, screens: [.feeds]),
        .bind(keys: [.character("€")], action: .down, screens: nil),
        .unbind(keys: [.character("€")], screens: nil),
        .set(setting: "reload-jobs", value: "5000"),
        .set(setting: "reload-job", value: "5"),
        .set(setting: "browser", value: "w3m \u{7}"),
        .color(element: "headr", style: Style(foreground: .red)),
        .highlight(pattern: "(unclosed", style: Style(foreground: .red)),
        .filter(query: "title:/ad/ or", action: .hide),
        .filter(query: "title:/a #b/", action: .skip),
        .filter(query: "title:/x hide #y/", action: .skip),
        .filter(query: "title:\"open", action: .skip),
    ]

    @Test(
        "a directive the reader refuses is refused in the reader's words, and changes nothing",
        arguments: wrong)
    func refusedAsTheReaderSays(directive: ConfigDirective) {
        var applied = ReaderConfig()
        let problems = applied.apply(directive)
        let read = ConfigFile.parse(directive.line, file: "t")
        #expect(!problems.isEmpty, "\(directive.line)")
        #expect(problems.map(\.message) == read.diagnostics.map(\.message), "\(directive.line)")
        #expect(Effect(applied, keys: [.character("X")]) == Effect(ReaderConfig(), keys: [.character("X")]))
    }

    @Test("a bind that does nothing on its screen says so at that screen, as the text reader does")
    func bindThatDoesNothing() {
        var applied = ReaderConfig()
        let directive = ConfigDirective.bind(keys: [.character("X")], action: .nextFeed, screens: [.feeds])
        #expect(
            applied.apply(directive) == [
                DirectiveProblem(part: .screens, message: "`next-feed` does nothing on feeds")
            ])
        #expect(
            ConfigFile.parse(directive.line, file: "config").diagnostics.map(\.description) == [
                "config:1:18: `next-feed` does nothing on feeds"
            ])
    }

    @Test(
        "a value with spaces, quotes, backslashes or # is quoted so it reads back as one word",
        arguments: [
            "plain", "two words", "say \"hi\"", "back\\slash", "#hash", "a\\\"b", "", "ünï #code \\\"x\\\"",
        ])
    func quoting(value: String) throws {
        let word = ConfigFile.word(value)
        let split = try Word.split("set browser " + word).get()
        #expect(split.map(\.text) == ["set", "browser", value], "\(word)")
        let read = ConfigFile.parse(ConfigDirective.set(setting: "player", value: value).line, file: "t")
        #expect(read.diagnostics.isEmpty, "\(read.diagnostics)")
        #expect(read.settings.player == (value.isEmpty ? nil : value))
    }

    @Test("a bind that takes a clashing binding off takes effect and says so, as the text reader does")
    func clash() {
        var applied = ReaderConfig()
        let directive = ConfigDirective.bind(
            keys: [.character("g"), .character("g")], action: .top, screens: nil)
        let problems = applied.apply(directive)
        #expect(!problems.isEmpty)
        #expect(
            problems.map(\.message) == ConfigFile.parse(directive.line, file: "t").diagnostics.map(\.message))
        #expect(applied.keymap.action(for: [.character("g"), .character("g")], on: .articles) == .top)
        #expect(applied.keymap.action(for: .character("g"), on: .articles) == nil)
    }
}
