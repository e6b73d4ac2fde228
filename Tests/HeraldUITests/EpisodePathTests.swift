import Foundation
import Testing

@testable import HeraldConfig
@testable import HeraldCore
@testable import HeraldNewsboat

/// Where an episode goes: newsboat's `download-path` and `download-filename-format` with their
/// `%`-fields, and a field from a hostile feed that never leaves the folder.
@Suite("Episode file names")
struct EpisodePathTests {
    let utc = TimeZone(identifier: "UTC")!
    // 2026-11-30 08:05:09 UTC
    let published = Date(timeIntervalSince1970: 1_796_025_909)

    func settings(_ lines: String) -> Settings {
        let config = ConfigFile.parse(lines, file: "config")
        #expect(config.diagnostics.isEmpty, "\(config.diagnostics)")
        return config.settings
    }

    func path(_ episode: EpisodePath.Episode, _ settings: Settings) -> String {
        EpisodePath.path(
            for: episode, folder: settings.downloadPath, name: settings.downloadFileName, home: "/home/me", timeZone: utc)
    }

    @Test("by default an episode keeps its address's file name in the home, as podboat names it")
    func defaults() {
        let episode = EpisodePath.Episode(
            url: "https://cdn.example/shows/ep-12.mp3?token=abc", title: "Twelve", feedTitle: "Show", published: published)
        #expect(path(episode, Settings()) == "/home/me/ep-12.mp3")
        // No file name in the address: the date, and `.unknown`.
        let bare = EpisodePath.Episode(url: "https://cdn.example/", title: "T", feedTitle: "S", published: published)
        #expect(path(bare, Settings()) == "/home/me/2026-Nov-30-080509.unknown")
    }

    @Test("newsboat's fields fill the folder and the name")
    func fields() {
        let episode = EpisodePath.Episode(
            url: "https://cdn.example/a/b/file", title: "Episode 7: Gardens", feedTitle: "Pod & Cast",
            feedURL: "https://feeds.example.org/pod.xml", published: published, type: "audio/mpeg")
        let chosen = settings(
            """
            set download-path "~/Podcasts/%h/%n"
            set download-filename-format "%F-%t.%e"
            """)
        #expect(path(episode, chosen) == "/home/me/Podcasts/feeds.example.org/Pod & Cast/2026-11-30-Episode 7: Gardens.mp3")
        let clock = settings(#"set download-filename-format "%Y%m%d %H%M%S %y %b %d %u""#)
        #expect(path(episode, clock) == "/home/me/20261130 080509 26 Nov 30 file")
    }

    @Test("a hostile title or address never makes a folder, climbs out or hides a file", arguments: [
        "../../.ssh/authorized_keys", "/etc/passwd", "..", ".", "a/../../b", "\u{1B}[31mred\u{07}", "nul\u{0}x",
        "\u{202E}gpj.exe", String(repeating: "한", count: 400),
    ])
    func hostile(title: String) {
        let folder = settings(
            """
            set download-path "/srv/podcasts/%n"
            set download-filename-format "%t.%e"
            """)
        let episode = EpisodePath.Episode(
            url: "https://x.example/%2e%2e%2F%2e%2e%2Fescape.mp3", title: title, feedTitle: title, published: published)
        let made = path(episode, folder)
        #expect(made.hasPrefix("/srv/podcasts/"), "\(made)")
        let inside = made.dropFirst("/srv/podcasts/".count).split(separator: "/", omittingEmptySubsequences: false)
        #expect(inside.count == 2, "one folder for the feed, then the file: \(made)")
        for component in inside {
            #expect(!component.isEmpty && !component.hasPrefix("."), "\(made)")
            #expect(component.utf8.count <= 200)
            #expect(!component.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{202E}" })
        }
        #expect(URL(fileURLWithPath: made).standardizedFileURL.path == made)
    }

    @Test("a name never ends like a download's part file")
    func notAPart() {
        let episode = EpisodePath.Episode(url: "https://x.example/show.mp3.part", title: "T", feedTitle: "S")
        #expect(path(episode, Settings()) == "/home/me/show.mp3-part")
    }

    @Test("a field a file name cannot have is refused where the config says it, with why")
    func refused() {
        let config = ConfigFile.parse(
            """
            set download-path "~/%>-"
            set download-filename-format "%Q.mp3"
            set max-downloads 0
            """, file: "config")
        let messages = config.diagnostics.map(\.message)
        #expect(messages.count == 3, "\(messages)")
        #expect(messages.contains { $0.contains("no right edge") })
        #expect(messages.contains { $0.contains("`%Q` is not a field here") })
        #expect(messages.contains { $0.contains("max-downloads") && $0.contains("from 1 to 20") })
    }

    @Test("podboat's settings come over from newsboat's config as they are")
    func fromNewsboat() {
        let translation = NewsboatConfig.translate(
            """
            download-path "~/Podcasts/%n"
            download-filename-format "%F-%t.%e"
            max-downloads 3
            delete-played-files yes
            """)
        #expect(translation.skipped.isEmpty, "\(translation.skipped)")
        let config = ConfigFile.parse(translation.lines.joined(separator: "\n"), file: "t")
        #expect(config.diagnostics.isEmpty, "\(config.diagnostics)")
        #expect(config.settings.downloadPath.text == "~/Podcasts/%n")
        #expect(config.settings.downloadFileName.text == "%F-%t.%e")
        #expect(config.settings.maxDownloads == 3 && config.settings.deletePlayedFiles)
    }

    @Test("an article's episode is its first enclosure that is not a picture")
    func request() throws {
        var settings = Settings()
        settings.downloadPath = try ListFormat.parse("/pods", for: .download).get()
        let article = Article(
            summary: ArticleSummary(
                id: "1", feedID: FeedID(row: 1), title: "Ep", published: published, isRead: false, isStarred: false,
                sortTime: 0),
            feedTitle: "Show", link: nil, text: "",
            enclosures: [
                Enclosure(url: "https://x.example/cover.jpg", type: "image/jpeg"),
                Enclosure(url: "https://x.example/ep.mp3", type: "audio/mpeg", length: 1234),
            ])
        let made = try #require(EpisodePath.request(for: article, feedURL: nil, settings: settings))
        #expect(made == DownloadRequest(url: "https://x.example/ep.mp3", path: "/pods/ep.mp3", title: "Ep", feedTitle: "Show", size: 1234))
        var none = article
        none.enclosures = []
        #expect(EpisodePath.request(for: none, feedURL: nil, settings: settings) == nil)
    }
}
