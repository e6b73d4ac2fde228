import Foundation
import Testing

@testable import HeraldConfig
@testable import HeraldNewsboat

/// newsboat's server accounts carried into Herald's config: the same names where Herald
/// speaks the server's protocol, every other line left with why, a password never shown.
@Suite("newsboat accounts translated")
struct NewsboatAccountConfigTests {
    @Test("a FreshRSS account carries over by its newsboat names and reads back into the settings")
    func freshRSS() {
        let translation = NewsboatConfig.translate(
            """
            urls-source "freshrss"
            freshrss-url "https://rss.example.org/api/greader.php"
            freshrss-login "alice"
            freshrss-password "s3cret-pass"
            freshrss-min-items 100
            freshrss-flag-star "s"
            """)
        #expect(translation.carried == 4)
        let config = ConfigFile.parse(translation.lines.joined(separator: "\n"), file: "config")
        #expect(config.diagnostics.isEmpty)
        #expect(config.settings.account.source == "freshrss")
        #expect(config.settings.account.value("url") == "https://rss.example.org/api/greader.php")
        #expect(config.settings.account.value("login") == "alice")
        #expect(config.settings.account.value("password") == "s3cret-pass")
        #expect(translation.skipped.map(\.text) == ["freshrss-min-items 100", "freshrss-flag-star \"s\""])
        #expect(translation.skipped[0].reason.contains("every article"))
        // The report shows sources and skipped lines: never the password.
        #expect(!translation.sources.values.contains { $0.contains("s3cret") })
    }

    @Test("a server Herald does not speak is named, and its password line is not shown")
    func notYet() {
        let translation = NewsboatConfig.translate(
            """
            urls-source "newsblur"
            newsblur-login "bob"
            newsblur-password "hunter2"
            ttrss-mode multi
            """)
        #expect(translation.carried == 0)
        #expect(translation.skipped.count == 4)
        #expect(translation.skipped[0].reason.contains("NewsBlur"))
        #expect(translation.skipped.allSatisfy { !$0.text.contains("hunter2") && !$0.reason.contains("hunter2") })
        #expect(translation.skipped[2].text == "newsblur-password …")
    }

    @Test("the config file's account settings: a password is never printed back, a source must be known")
    func settings() {
        var settings = Settings()
        let source = try! Settings.spec(named: "urls-source").get()  // try!: a name of the table
        #expect(settings.set(source, "miniflux") == nil)
        #expect(settings.set(source, "inoreader") != nil)
        #expect(settings.account.source == "miniflux")
        #expect(Settings.isSecret("ttrss-password") && !Settings.isSecret("ttrss-login"))
    }
}
