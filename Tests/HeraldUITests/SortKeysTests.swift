import Foundation
import HeraldCore
import Testing

@testable import HeraldConfig
@testable import HeraldUI

/// newsboat's `g` (sort) and `G` (rev-sort) on the feed list and the article lists; Home and
/// End go to the ends there, and `g`/`G` still do elsewhere.
@Suite("Sorting with g and G")
@MainActor
struct SortKeysTests {
    let size = Size(width: 80, height: 16)

    /// Three feeds: "Feed 0" with 1 unread article, "Feed 1" with 3, "Feed 2" with 2.
    func started() async -> ReaderApp {
        await AppDriver.started(flaggedLibrary([[false], [false, false, false], [false, false]]), size: size)
    }

    func feedTitles(_ app: ReaderApp) -> [String] { app.feedList.shownFeeds.map(\.feed.title) }

    @Test("g on the feed list asks how, and sorts; G sorts the other way; another key leaves it")
    func feeds() async {
        let app = await started()
        #expect(feedTitles(app) == ["Feed 0", "Feed 1", "Feed 2"])
        await AppDriver.press(app, [.character("g")])
        #expect(app.confirmation?.question == "Sort the feeds by (a)dded order, (t)itle, (u)nread articles?")
        await AppDriver.press(app, [.character("u")])
        #expect(feedTitles(app) == ["Feed 1", "Feed 2", "Feed 0"])
        #expect(app.message == "Feeds by unread (for this session: set feed-sort keeps it).")
        #expect(app.settings.feedSort == .unread)
        await AppDriver.press(app, [.character("G"), .character("t")])
        #expect(feedTitles(app) == ["Feed 2", "Feed 1", "Feed 0"])
        #expect(app.message == "Feeds by title, reversed (for this session: set feed-sort keeps it).")
        await AppDriver.press(app, [.character("g"), .character("x")])
        #expect(app.message == "Left as it was.")
        #expect(feedTitles(app) == ["Feed 2", "Feed 1", "Feed 0"])
        // Home and End go to the ends.
        await AppDriver.press(app, [.end])
        #expect(app.feedList.cursor.selected == app.feedList.rows.count - 1)
        await AppDriver.press(app, [.home])
        #expect(app.feedList.cursor.selected == 0)
    }

    @Test("on an article list G turns the order around at once, and g asks newest or oldest first")
    func articles() async {
        let app = await started()
        await AppDriver.press(app, [.character("j"), .enter])  // Feed 1
        func titles() -> [String] {
            guard case .articles(let list) = app.screen else { return [] }
            return (0..<list.count).compactMap { list.article(at: $0)?.title }
        }
        #expect(titles() == ["F1 A0", "F1 A1", "F1 A2"])
        await AppDriver.press(app, [.character("G")])
        #expect(titles() == ["F1 A2", "F1 A1", "F1 A0"])
        #expect(app.message == "Articles oldest first (for this session: set article-sort keeps it).")
        #expect(app.stack.count == 2, "the list is replaced, not stacked")
        await AppDriver.press(app, [.character("g")])
        #expect(app.confirmation?.question == "Sort the articles (n)ewest first, (o)ldest first?")
        await AppDriver.press(app, [.character("n")])
        #expect(titles() == ["F1 A0", "F1 A1", "F1 A2"])
        // In an article, g and G are still the top and the bottom.
        await AppDriver.press(app, [.enter, .character("G")])
        #expect(app.screenKind == .article)
        #expect(app.confirmation == nil)
    }
}
