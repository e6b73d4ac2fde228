import Foundation
import Testing

@testable import HeraldCore
@testable import HeraldUI
@testable import HeraldConfig
@testable import HeraldNewsboat

/// newsboat's config translated into Herald's, checked against Herald's own tables and
/// config reader.
@Suite("newsboat config translated")
struct NewsboatConfigTests {
    /// Actions and screens are Herald's own types (a renamed one does not compile); theme
    /// elements are names, and keys must be ones the config file can write.
    @Test("every Herald name the translation writes is one Herald knows")
    func namesExist() {
        for (element, targets) in NewsboatNames.elements {
            for target in targets { #expect(Theme.elements.contains(target), "\(element) → \(target)") }
        }
        let written =
            Array(NewsboatNames.keys.values)
            + ["^D", "F5", "x", "#", "ENTER"].compactMap(NewsboatNames.key)
        #expect(written.count == NewsboatNames.keys.count + 5)
        for key in written { #expect(KeyName.parse(KeyName.name(of: key)) == key, "\(key)") }
    }

    @Test("what maps onto today's directives reads back with no diagnostic and does what newsboat did")
    func readsBack() {
        let translation = NewsboatConfig.translate(
            """
            bind-key j down
            bind-key ^D pagedown articlelist
            bind-key q quit
            bind-key "#" open-in-browser feedlist
            unbind-key J
            color listfocus_unread color0 color6 standout
            color info white blue bold
            browser "lynx %u"
            confirm-mark-all-feeds-read no
            reload-threads 8
            max-items 100
            keep-articles-days 30
            refresh-on-startup yes
            player mpv
            """)
        #expect(translation.skipped.isEmpty, "\(translation.skipped)")
        #expect(translation.carried == 14)
        let config = ConfigFile.parse(translation.lines.joined(separator: "\n"), file: "t")
        #expect(config.diagnostics.isEmpty, "\(config.diagnostics)\n\(translation.lines)")
        #expect(config.keymap.action(for: .character("j"), on: .articles) == .down)
        #expect(config.keymap.action(for: .control("d"), on: .articles) == .pageDown)
        #expect(config.keymap.action(for: .character("#"), on: .feeds) == .openInBrowser)
        #expect(config.keymap.action(for: .character("J"), on: .article) == nil)
        #expect(config.colors["selection"] == Style(foreground: .black, background: .cyan, reverse: true))
        #expect(config.colors["header"]?.bold == true && config.colors["status"]?.background == .blue)
        #expect(config.settings.browser == "lynx %s")
        #expect(config.settings.confirmMarkAll == false && config.settings.reloadOnStart)
        #expect(
            (config.settings.reloadJobs, config.settings.keepArticles, config.settings.keepDays) == (
                8, 100, 30
            ))
        #expect(config.settings.player == "mpv")
    }

    @Test("display settings, notification, highlight and filters are written as Herald reads them")
    func laterSettings() throws {
        let translation = NewsboatConfig.translate(
            """
            text-width 72
            show-read-feeds no
            show-read-articles yes
            notify-program "notify-send -a newsboat"
            highlight all "rust|swift" red default bold
            ignore-article "https://a.example/feed" "title =~ \\"ad\\""
            auto-reload yes
            reload-time 45
            """)
        #expect(translation.skipped.isEmpty, "\(translation.skipped)")
        #expect(
            translation.lines == [
                "set text-width 72", "set show-read-feeds no", "set show-read-articles yes",
                "set notify-command \"notify-send -a newsboat \\\"herald: %n new articles from %f feeds\\\"\"",
                "highlight all rust|swift red default bold",
                "filter feed:https://a.example/feed (title:/ad/) skip", "set reload-interval 45",
            ])
        #expect(translation.carried == 8)
        let config = ConfigFile.parse(translation.lines.joined(separator: "\n"), file: "config")
        #expect(config.diagnostics.isEmpty, "\(config.diagnostics)")
        // The filter's expression is the query itself, not one quoted phrase.
        #expect(
            config.filters.map(\.query) == [
                try ArticleQuery.parse("feed:https://a.example/feed (title:/ad/)")
            ])
        #expect(config.filters.map(\.action.rawValue) == ["skip"])
    }

    @Test(
        "ignore-article hides under ignore-mode display, before or after it, and skips otherwise; no line deletes",
        arguments: [
            ("ignore-mode display\n{ignore}", "hide", 2), ("{ignore}\nignore-mode display", "hide", 2),
            ("{ignore}\nignore-mode download", "skip", 2), ("{ignore}", "skip", 1),
            ("ignore-mode display\nignore-mode download\n{ignore}", "skip", 3),
        ])
    func ignoreModes(config: String, action: String, carried: Int) throws {
        let ignore =
            "ignore-article \"*\" \"title =~ \\\"ad\\\"\"\nignore-article \"https://a.example/feed\" \"author = \\\"Bo\\\"\""
        let translation = NewsboatConfig.translate(config.replacingOccurrences(of: "{ignore}", with: ignore))
        #expect(translation.skipped.isEmpty, "\(translation.skipped)")
        #expect(
            translation.lines == [
                "filter title:/ad/ \(action)", "filter feed:https://a.example/feed (author:/^Bo$/) \(action)",
            ])
        #expect(translation.carried == carried + 1)
        let read = ConfigFile.parse(translation.lines.joined(separator: "\n"), file: "config")
        #expect(read.diagnostics.isEmpty, "\(read.diagnostics)")
        #expect(read.filters.map(\.action.rawValue) == [action, action])
    }

    @Test("an ignore-mode newsboat does not know is listed with why")
    func unknownIgnoreMode() {
        let translation = NewsboatConfig.translate("ignore-mode sometimes")
        #expect(translation.lines.isEmpty)
        #expect(translation.skipped.map(\.line) == [1])
        #expect(translation.skipped.first?.reason.contains("display or download") == true)
    }

    @Test(
        "list formats and datetime-format come over as settings; a field Herald lacks is refused when applied"
    )
    func formats() {
        let translation = NewsboatConfig.translate(
            """
            articlelist-format "%4i %f %D  %?T?;%-17T; ?%t"
            feedlist-format "%4i %n %11u %t"
            datetime-format "%d %b %Y"
            articlelist-format "%4i %f %D %6L  %?T?;%-17T; ?%t"
            """)
        #expect(translation.skipped.isEmpty, "\(translation.skipped)")
        #expect(
            translation.lines == [
                "set articlelist-format \"%4i %f %D  %?T?;%-17T; ?%t\"",
                "set feedlist-format \"%4i %n %11u %t\"",
                "set datetime-format \"%d %b %Y\"",
                "set articlelist-format \"%4i %f %D %6L  %?T?;%-17T; ?%t\"",
            ])
        var config = ReaderConfig()
        let problems = translation.directives.map { config.apply($0.directive) }
        #expect(problems.prefix(3).allSatisfy { $0.isEmpty }, "\(problems)")
        #expect(problems[3].first?.message.contains("`%L` is the article's length") == true, "\(problems[3])")
        #expect(config.settings.articleListFormat?.text == "%4i %f %D  %?T?;%-17T; ?%t")
    }

    @Test("highlight article and all keep their target; articlelist is the titles")
    func highlightTargets() {
        let translation = NewsboatConfig.translate(
            """
            highlight article "swift" red
            highlight all "rust" green default bold
            highlight articlelist "^ad" blue
            """)
        #expect(
            translation.lines == [
                "highlight article swift red", "highlight all rust green default bold", "highlight ^ad blue",
            ])
        let config = ConfigFile.parse(translation.lines.joined(separator: "\n"), file: "t")
        #expect(config.diagnostics.isEmpty, "\(config.diagnostics)")
        #expect(config.highlights.map(\.pattern) == ["rust", "^ad"])
        #expect(config.textHighlights.map(\.pattern) == ["swift", "rust"])
    }

    @Test("lines that do not map are listed with their line number and reason")
    func skipped() {
        let translation = NewsboatConfig.translate(
            """
            # a comment
            macro x open ; delete-article
            bind-key x delete-article
            color background white black
            color listnormal color200 default
            highlight feedlist "x" red
            confirm-mark-feed-read yes
            auto-reload no
            reload-time 10
            bind-key y open nonsense
            browser "unclosed
            """)
        #expect(translation.lines.isEmpty, "\(translation.lines)")
        #expect(translation.skipped.map(\.line) == Array(2...11))
        let reasons = Dictionary(uniqueKeysWithValues: translation.skipped.map { ($0.line, $0.reason) })
        #expect(reasons[2]?.contains("the operation `delete-article` has no Herald action") == true, "\(reasons)")
        #expect(reasons[3]?.contains("delete-article") == true)
        #expect(reasons[4]?.contains("background") == true)
        #expect(reasons[5]?.contains("color200") == true)
        #expect(reasons[10]?.contains("nonsense") == true)
        #expect(reasons[11]?.contains("quote") == true)
        #expect(translation.skipped[0].text == "macro x open ; delete-article")
    }

    @Test("newsboat's macro becomes a Herald macro: its operations Herald's actions, its set lines translated")
    func macro() throws {
        let translation = NewsboatConfig.translate(
            """
            macro p set browser "mpv %u" ; open-in-browser ; set browser "lynx %u" -- "play"
            macro s save; pipe-to
            save-path "~/saved"
            bookmark-cmd "~/bin/bookmark"
            """)
        #expect(translation.skipped.isEmpty, "\(translation.skipped)")
        #expect(translation.carried == 4)
        let config = ConfigFile.parse(translation.lines.joined(separator: "\n"), file: "t")
        #expect(config.diagnostics.isEmpty, "\(config.diagnostics)\n\(translation.lines)")
        let play = try #require(config.macros[.character("p")], "\(translation.lines)")
        #expect(
            play.steps == [
                .set(setting: "browser", value: "mpv %s"), .action(.openInBrowser),
                .set(setting: "browser", value: "lynx %s"),
            ])
        #expect(play.description == "play")
        #expect(config.macros[.character("s")]?.steps == [.action(.save), .action(.pipeTo)])
        #expect(config.settings.savePath == "~/saved")
        #expect(config.settings.bookmarkCommand == "~/bin/bookmark")
    }

    @Test("newsboat's quit on one dialog becomes the one action that works there")
    func quitOnADialog() {
        let translation = NewsboatConfig.translate(
            "bind-key x quit feedlist\nbind-key y quit articlelist\nbind-key z quit")
        #expect(
            translation.lines == ["bind x quit feeds", "bind y back articles", "bind z back", "bind z quit"])
        #expect(translation.origins == [1, 2, 3, 3])
        #expect(ConfigFile.parse(translation.lines.joined(separator: "\n"), file: "t").diagnostics.isEmpty)
    }

    @Test("a written line taken back out is listed under its newsboat line and text")
    func drop() {
        var translation = NewsboatConfig.translate("bind-key j down\nbind-key q quit")
        translation.drop(at: 1, reason: "r")
        #expect(translation.carried == 2, "line 2 still has one line")
        translation.drop(at: 1, reason: "r")
        #expect(translation.carried == 1)
        #expect(
            translation.skipped == [
                .init(line: 2, text: "bind-key q quit", reason: "r"),
                .init(line: 2, text: "bind-key q quit", reason: "r"),
            ])
        #expect(translation.lines == ["bind j down"])
    }
}
