import Foundation
import HeraldCore
import Testing

@testable import HeraldUI

/// `set article-sort oldest`: every article list read from its oldest article, with the
/// moving keys, `n`, `J`/`K` and unread-only lists following that order.
@Suite("Article lists oldest first")
@MainActor
struct ArticleSortTests {
    let size = Size(width: 80, height: 14)

    func started(_ repository: any ArticleRepository, config: String) async -> ReaderApp {
        await AppDriver.started(repository, size: size, config: config)
    }

    func titles(_ app: ReaderApp) -> [String] {
        for screen in app.stack.reversed() {
            if case .articles(let list) = screen {
                return (0..<list.count).compactMap { list.article(at: $0)?.title }
            }
        }
        return []
    }

    func openTitle(_ app: ReaderApp) -> String? {
        if case .article(let viewer) = app.screen { viewer.summary.title } else { nil }
    }

    @Test("a feed and All articles list oldest first; n and J go on in that order, to the next feed")
    func oldestFirst() async throws {
        // Feed 0: A0 unread, A1 read, A2 unread, A3 read; feed 1: A0 read, A1 unread.
        let repository = flaggedLibrary([[false, true, false, true], [true, false]])
        let app = await started(repository, config: "set article-sort oldest")
        await AppDriver.press(app, [.enter])
        #expect(titles(app) == ["F0 A3", "F0 A2", "F0 A1", "F0 A0"])
        // n: the first unread in this order, then the next, then on to feed 1.
        await AppDriver.press(app, [.character("n")])
        #expect(openTitle(app) == "F0 A2")
        await AppDriver.press(app, [.character("n")])
        #expect(openTitle(app) == "F0 A0")
        await AppDriver.press(app, [.character("n")])
        #expect(openTitle(app) == "F1 A1")
        #expect(titles(app) == ["F1 A1", "F1 A0"])
        // J goes down the list: to the newer article.
        await AppDriver.press(app, [.character("J")])
        #expect(openTitle(app) == "F1 A0")
        await AppDriver.press(app, [.character("q"), .character("q"), .home, .enter])
        #expect(titles(app) == ["F0 A3", "F0 A2", "F1 A1", "F0 A1", "F1 A0", "F0 A0"])
        // G and the window from the other end.
        await AppDriver.press(app, [.end])
        guard case .articles(let list) = app.screen else { return }
        #expect(list.selected?.title == "F0 A0")
    }

    @Test("unread only, oldest first; :set article-sort newest turns the lists opened next")
    func unreadOnlyAndSet() async throws {
        let repository = flaggedLibrary([[false, true, false, true], [true, false]])
        let app = await started(repository, config: "set article-sort oldest\nset show-read-articles no")
        await AppDriver.press(app, [.enter])
        #expect(titles(app) == ["F0 A2", "F0 A0"])
        await AppDriver.press(app, [.character("q"), .character(":")])
        for character in "set article-sort newest" { app.handle(.character(character)) }
        await AppDriver.press(app, [.enter, .enter])
        #expect(titles(app) == ["F0 A0", "F0 A2"])
    }
}
