import Foundation
import HeraldCore
import Testing

@testable import HeraldUI

/// A library that cannot be written (read-only file, full disk): reads work, writes fail.
actor ReadOnlyRepository: WrappingRepository {
    nonisolated let inner: InMemoryArticleRepository
    init(inner: InMemoryArticleRepository) { self.inner = inner }

    struct ReadOnly: Error, CustomStringConvertible {
        var description: String { "the library cannot be written" }
    }

    func setRead(_ isRead: Bool, articleID: String) async throws { throw ReadOnly() }
    func setStarred(_ isStarred: Bool, articleID: String) async throws { throw ReadOnly() }
    func markRead(in source: ArticleSource) async throws { throw ReadOnly() }
}

/// A write that fails is undone on screen: the reader never shows what the library lacks.
@Suite("Writes that fail")
@MainActor
struct FailedWriteTests {
    let size = Size(width: 70, height: 13)

    func list(_ app: ReaderApp) -> ArticleListModel? {
        for screen in app.stack.reversed() { if case .articles(let list) = screen { return list } }
        return nil
    }

    @Test("A on a feed that cannot be saved leaves the feed and its articles unread, and says so")
    func markFeedRead() async throws {
        let repository = ReadOnlyRepository(inner: flaggedLibrary([[false, false], [false]]))
        let app = await AppDriver.started(repository, size: size)
        await AppDriver.press(app, [.enter])
        #expect(list(app)?.list.title == "Feed 0")
        await AppDriver.press(app, [.character("A")])
        #expect(
            app.message?.hasPrefix("Could not save the mark read (undone)") == true, "\(app.message ?? "")")
        #expect(app.feedList.feeds.map(\.unread) == [2, 1])
        #expect(list(app)?.unread == 2)
        #expect(list(app)?.article(at: 0)?.isRead == false && list(app)?.article(at: 1)?.isRead == false)
    }

    @Test("N and s that cannot be saved are undone in the list and the counts")
    func flags() async throws {
        let repository = ReadOnlyRepository(inner: flaggedLibrary([[false, false]]))
        let app = await AppDriver.started(repository, size: size)
        await AppDriver.press(app, [.enter])
        await AppDriver.press(app, [.character("N")])
        #expect(
            app.message?.hasPrefix("Could not save the read flag (undone)") == true, "\(app.message ?? "")")
        #expect(list(app)?.article(at: 0)?.isRead == false)
        #expect(app.feedList.feeds.map(\.unread) == [2])
        await AppDriver.press(app, [.character("*")])
        #expect(app.message?.hasPrefix("Could not save the star (undone)") == true, "\(app.message ?? "")")
        #expect(list(app)?.article(at: 0)?.isStarred == false)
    }
}
