import HeraldCore
import Testing

@testable import HeraldConfig
@testable import HeraldUI

/// `A` says what it marked once the write is saved: how many articles, of which list, and
/// the key that takes it back.
@Suite("What A says")
@MainActor
struct MarkReadMessageTests {
    @Test("A on a feed says how many of its articles it marked read and how to undo; again, that none were unread")
    func saysWhatItMarked() async throws {
        let repository = makeLibrary()
        let app = await AppDriver.started(repository, size: Size(width: 100, height: 20))
        await AppDriver.press(app, [.down])
        let feed = try #require(app.feedList.selectedFeed)
        let unread = feed.unread
        #expect(unread > 1)
        await AppDriver.press(app, [.character("A")])
        let undo = try #require(app.keymap.key(for: .undo, on: .feeds)).label
        #expect(app.message == "Marked \(unread) articles of \(feed.feed.title) read (\(undo) undoes it).")
        #expect(app.render().text().contains("Marked \(unread) articles of"))
        await AppDriver.press(app, [.character("A")])
        #expect(app.message == "\(feed.feed.title) had no unread articles.")
    }
}
