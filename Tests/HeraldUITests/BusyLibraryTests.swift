import Foundation
import HeraldCore
import Testing

@testable import HeraldUI

/// A library another program is writing: its first `busyWrites` flag writes fail as SQLite's
/// do past the busy timeout, then writes go through.
actor BusyRepository: WrappingRepository {
    nonisolated let inner: InMemoryArticleRepository
    private var busyWrites: Int
    private(set) var attempts = 0

    init(inner: InMemoryArticleRepository, busyWrites: Int) {
        self.inner = inner
        self.busyWrites = busyWrites
    }

    struct Busy: LibraryBusyError, CustomStringConvertible {
        var isLibraryBusy: Bool { true }
        var description: String { "the library is busy: another program is writing to it" }
    }

    private func write() throws {
        attempts += 1
        guard busyWrites == 0 else {
            busyWrites -= 1
            throw Busy()
        }
    }

    func setRead(_ isRead: Bool, articleID: String) async throws {
        try write()
        try await inner.setRead(isRead, articleID: articleID)
    }

    func setStarred(_ isStarred: Bool, articleID: String) async throws {
        try write()
        try await inner.setStarred(isStarred, articleID: articleID)
    }

    func setFlag(_ flag: ArticleFlag, _ value: Bool, in source: ArticleSource) async throws -> [String] {
        try write()
        return try await inner.setFlag(flag, value, in: source)
    }
}

/// A change the user made is never undone because the library was busy (issue 23, item 7):
/// it stays on screen and is written once the library is free, in the order it was made.
@Suite("Writes while the library is busy")
@MainActor
struct BusyLibraryTests {
    let size = Size(width: 70, height: 13)

    func list(_ app: ReaderApp) -> ArticleListModel? {
        for screen in app.stack.reversed() { if case .articles(let list) = screen { return list } }
        return nil
    }

    @Test("* while the library is busy stays starred, is saved once it is free, and the status line says so")
    func starWaits() async throws {
        let repository = BusyRepository(inner: flaggedLibrary([[false, false]]), busyWrites: 3)
        let app = await AppDriver.started(repository, size: size, clock: ImmediateDebounceClock())
        await AppDriver.press(app, [.enter])
        await AppDriver.press(app, [.character("*")])
        #expect(app.message == "Saved the star (the library was busy).", "\(app.message ?? "")")
        #expect(list(app)?.article(at: 0)?.isStarred == true)
        #expect(await repository.attempts == 4)
        #expect(try await repository.inner.article(id: "f0-0").summary.isStarred)
    }

    @Test("a star and the unstar after it, both while busy, are written in that order")
    func inOrder() async throws {
        let repository = BusyRepository(inner: flaggedLibrary([[false, false]]), busyWrites: 5)
        let app = await AppDriver.started(repository, size: size, clock: ImmediateDebounceClock())
        await AppDriver.press(app, [.enter])
        app.handle(.character("*"))
        app.handle(.character("*"))
        app.handle(.character("N"))
        await app.settle()
        #expect(list(app)?.article(at: 0)?.isStarred == false && list(app)?.article(at: 0)?.isRead == true)
        let stored = try await repository.inner.article(id: "f0-0").summary
        #expect(!stored.isStarred && stored.isRead, "the last change wins in the library too")
    }

    @Test("A while busy marks the feed read once the library is free")
    func markReadWaits() async throws {
        let repository = BusyRepository(inner: flaggedLibrary([[false, false]]), busyWrites: 2)
        let app = await AppDriver.started(repository, size: size, clock: ImmediateDebounceClock())
        await AppDriver.press(app, [.enter])
        await AppDriver.press(app, [.character("A")])
        #expect(app.feedList.feeds.map(\.unread) == [0], "\(app.message ?? "")")
        #expect(await repository.inner.feedSummaries().map(\.unread) == [0])
    }
}
