import Foundation
import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

/// Whole screens of the reader over the bundled demo feeds, at three sizes.
@Suite("Screen snapshots")
@MainActor
struct ScreenSnapshotTests {
    nonisolated static let sizes = [
        Size(width: 80, height: 24), Size(width: 40, height: 10), Size(width: 132, height: 40),
    ]
    let theme = Theme(timeZone: TimeZone(identifier: "UTC")!)

    func screen(_ keys: String, _ size: Size) async throws -> Canvas {
        let repository = try await DemoLibrary.load()
        let parsed = try Key.parseScript(keys).get()
        return await HeadlessSession.run(repository: repository, size: size, keys: parsed, theme: theme)
    }

    @Test("the feed list", arguments: sizes)
    func feedList(_ size: Size) async throws {
        assertSnapshot(try await screen("", size), named: "feeds-\(size)")
    }

    @Test("the article list of the Korean feed", arguments: sizes)
    func koreanArticleList(_ size: Size) async throws {
        assertSnapshot(try await screen("j enter", size), named: "articles-korean-\(size)")
    }

    @Test("a Korean article", arguments: sizes)
    func koreanArticle(_ size: Size) async throws {
        assertSnapshot(try await screen("j enter J J enter", size), named: "article-korean-\(size)")
    }

    @Test("an English article scrolled one page", arguments: sizes)
    func englishArticle(_ size: Size) async throws {
        assertSnapshot(try await screen("enter enter space", size), named: "article-english-\(size)")
    }

    @Test("an Indonesian article list after reading two articles")
    func readMarks() async throws {
        assertSnapshot(
            try await screen("end enter enter q J enter q", Size(width: 80, height: 24)),
            named: "articles-read-marks")
    }

    @Test("All articles: every feed's articles newest first, with the feed's name")
    func river() async throws {
        assertSnapshot(try await screen("home enter", Size(width: 100, height: 20)), named: "river-100x20")
    }

    @Test("query feeds: rows after Starred with their counts, and a query's list naming each row's feed")
    func queryFeeds() async throws {
        let config = ConfigFile.parse(
            "query \"Korean or audio\" feed:hangul or podcast\nquery \"Nothing yet\" title:zzzz",
            file: "config")
        let size = Size(width: 100, height: 16)
        for (keys, name) in [("", "query-feeds-100x16"), ("k k enter", "query-list-100x16")] {
            let repository = try await DemoLibrary.load()
            let canvas = await HeadlessSession.run(
                repository: repository, size: size, keys: try Key.parseScript(keys).get(), theme: theme,
                config: config)
            assertSnapshot(canvas, named: name)
        }
    }

    @Test("a podcast episode: its audio in the header")
    func podcastArticle() async throws {
        assertSnapshot(
            try await screen("j j enter 8 enter enter", Size(width: 100, height: 16)),
            named: "podcast-article-100x16")
    }

    @Test("the links of the keys tour: the article's page, the text's links")
    func linksView() async throws {
        assertSnapshot(
            try await screen("j j enter end K enter u", Size(width: 80, height: 12)), named: "links-80x12")
    }

    @Test("the help of the feed list, and of the article view")
    func help() async throws {
        assertSnapshot(try await screen("?", Size(width: 80, height: 30)), named: "help-feeds-80x30")
        assertSnapshot(
            try await screen("enter enter ?", Size(width: 100, height: 36)), named: "help-article-100x36")
    }

    @Test("the tags of a library with tagged feeds")
    func tagView() async throws {
        let library = flaggedLibrary(
            [[false, true], [false], [true, true, false]],
            tags: [["tech", "한글"], ["news"], ["tech", "rust"]])
        let canvas = await HeadlessSession.run(
            repository: library, size: Size(width: 60, height: 10), keys: [.character("t")], theme: theme)
        assertSnapshot(canvas, named: "tags-60x10")
    }
}
