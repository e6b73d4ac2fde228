import Foundation
import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

/// `feed URL KEY VALUE` lines, `set reload-interval` and `set notify-command` in the config.
@Suite("Per-feed settings in the config file")
struct FeedSettingsConfigTests {
    let url = "https://a.example/feed"

    func diagnostics(_ text: String) -> [String] {
        ConfigFile.parse(text, file: "config").diagnostics.map(\.description)
    }

    @Test(
        "a bad feed line names file:line:column and what would be right",
        arguments: [
            (
                "feed https://a.example/feed titel x",
                "config:1:29: unknown feed setting `titel` — did you mean `title`?"
            ),
            ("feed https://a.example/feed", "config:1:28: feed needs a URL, a setting and a value"),
            (
                "feed https://a.example/feed disabled maybe",
                "config:1:38: `maybe` is not a disabled value (yes or no)"
            ),
            (
                "feed https://a.example/feed reload-interval -5",
                "config:1:45: `-5` is not a reload-interval value (minutes"
            ),
            ("feed https://a.example/feed keep-days 3 4", "config:1:41: feed … keep-days takes one value"),
            (
                "\n feed https://a.example/feed keep-articles lots",
                "config:2:44: `lots` is not a keep-articles value"
            ),
            (
                "feed https://a.example/feed user-agent \"a\u{1}b\"",
                "config:1:40: `a\u{1}b` is not a user-agent value"
            ),
        ])
    func mistakes(_ text: String, _ expected: String) {
        let found = diagnostics(text)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix(expected) == true, "\(found.first ?? "none")")
    }

    @Test("a user agent with a control character is refused, whatever its place")
    func userAgentControlCharacters() {
        for bad in ["a\u{1}b", "a\rb", "Mozilla\u{85}", "x\u{7F}"] {
            #expect(
                FeedSettingKey.userAgent.normalize(bad)
                    == .failure(FeedSettingError(key: .userAgent, value: bad)))
        }
        #expect(
            FeedSettingKey.userAgent.normalize(" Herald-test/1.0 (+x) ") == .success("Herald-test/1.0 (+x)"))
    }

    @Test("good feed lines are kept with their place, values made canonical; the rest of the file counts")
    func goodLines() {
        let config = ConfigFile.parse(
            """
            feed https://a.example/feed title A feed of mine
            feed https://a.example/feed tags "rust,linux  news"
            feed https://a.example/feed disabled on
            feed https://a.example/feed reload-interval 30
            set reload-interval 15
            set notify-command "echo %n > /tmp/out"
            """, file: "config")
        #expect(config.diagnostics.isEmpty, "\(config.diagnostics)")
        #expect(
            config.feedSettings.map { "\($0.line):\($0.column) \($0.key.rawValue)=\($0.value)" } == [
                "1:6 title=A feed of mine", "2:6 tags=rust, linux, news", "3:6 disabled=yes",
                "4:6 reload-interval=30",
            ])
        #expect(config.feedSettings.allSatisfy { $0.url == url })
        #expect(config.settings.reloadInterval == 15)
        #expect(config.settings.notifyCommand == "echo %n > /tmp/out")
        #expect(!ConfigFile.notYet.contains("feed"))
    }

    @Test("full-article takes yes, auto or no, in set and feed lines; anything else is refused naming them")
    func fullArticle() {
        let config = ConfigFile.parse(
            "set full-article auto\nfeed https://a.example/feed full-article YES", file: "config")
        #expect(config.diagnostics.isEmpty, "\(config.diagnostics)")
        #expect(config.settings.fullArticle == .auto)
        #expect(config.feedSettings.map { "\($0.key.rawValue)=\($0.value)" } == ["full-article=yes"])
        #expect(Settings().fullArticle == .no)
        #expect(ConfigFile.defaultText().contains("# set full-article no"))
        let bad = diagnostics("set full-article maybe")
        #expect(bad.count == 1 && bad.first?.contains("full-article is yes or auto or no") == true, "\(bad)")
        #expect(ConfigFile.parse("set full-article maybe", file: "config").settings.fullArticle == .no)
        let badFeed = diagnostics("feed https://a.example/feed full-article maybe")
        #expect(badFeed == ["config:1:42: `maybe` is not a full-article value (yes, auto or no)"], "\(badFeed)")
        // What `herald feed set URL full-article maybe` refuses with.
        let refused = FeedSettingKey.fullArticle.normalize("maybe")
        #expect(refused == .failure(FeedSettingError(key: .fullArticle, value: "maybe")))
        #expect(FeedSettingKey.fullArticle.normalize(" Auto ") == .success("auto"))
        #expect(FeedSettings(values: [.fullArticle: "auto"]).fullArticle == .auto)
        #expect(FeedSettings().fullArticle == nil, "none of its own: the config's applies")
    }

    @Test("a feed line for a feed not in the library is a warning at its place")
    func unknownFeedWarning() {
        let lines = ConfigFile.parse("\n\nfeed https://gone.example/ disabled yes", file: "config")
            .feedSettings
        let warnings = FeedSettingWarnings.unknownFeeds(lines).map(\.description)
        #expect(
            warnings == [
                "config:3:6: warning: no feed https://gone.example/ in the library; the line does nothing (`herald add URL` first)"
            ])
    }

    @Test("config default lists reload-interval and notify-command with their defaults")
    func defaults() {
        let text = ConfigFile.defaultText()
        #expect(text.contains("# set reload-interval 0"))
        #expect(text.contains("# set notify-command \"\""))
    }

    @Test("notify-command's %n and %f become numbers, %% a percent sign, nothing else changes")
    func expansion() {
        #expect(
            NotifyCommand.expand(
                "notify-send \"%n new from %f feeds, 100%%\" %x %", newArticles: 12, feeds: 3)
                == "notify-send \"12 new from 3 feeds, 100%\" %x %")
    }

    @Test("notify-command runs once with the numbers, and a failing one says how it failed")
    func runsTheCommand() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "herald-notify-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("args").path
        let failure = await NotifyCommand.run(
            "printf '%%s %%s %%s\\n' %n %f \"$HERALD_NEW_ARTICLES\" >> '\(out)'", newArticles: 7, feeds: 2,
            quiet: true)
        #expect(failure == nil)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "7 2 7\n")
        #expect(
            await NotifyCommand.run("exit 3", newArticles: 1, feeds: 1, quiet: true)
                == "notify-command exited with status 3")
    }
}
