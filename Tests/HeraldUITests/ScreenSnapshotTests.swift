import Foundation
import HeraldCore
import Testing

@testable import HeraldUI

/// Whole screens of the reader over the bundled demo feeds, at three sizes.
@Suite("Screen snapshots")
@MainActor
struct ScreenSnapshotTests {
    nonisolated static let sizes = [Size(width: 80, height: 24), Size(width: 40, height: 10), Size(width: 132, height: 40)]
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
        assertSnapshot(try await screen("j enter j j enter", size), named: "article-korean-\(size)")
    }

    @Test("an English article scrolled one page", arguments: sizes)
    func englishArticle(_ size: Size) async throws {
        assertSnapshot(try await screen("enter enter space", size), named: "article-english-\(size)")
    }

    @Test("an Indonesian article list after reading two articles")
    func readMarks() async throws {
        assertSnapshot(
            try await screen("G enter enter q j enter q", Size(width: 80, height: 24)),
            named: "articles-read-marks")
    }
}
