import Foundation
import HeraldCore
import Testing

@testable import HeraldUI

/// A library whose writes fail while `failing` is set (a disk that fills up, then frees).
actor FlakyRepository: WrappingRepository {
    nonisolated let inner: InMemoryArticleRepository
    private(set) var failing = false
    init(inner: InMemoryArticleRepository) { self.inner = inner }

    func setFailing(_ failing: Bool) { self.failing = failing }

    struct Full: Error, CustomStringConvertible {
        var description: String { "the disk is full" }
    }

    func setRead(_ isRead: Bool, articleID: String) async throws {
        if failing { throw Full() }
        try await inner.setRead(isRead, articleID: articleID)
    }
}

/// A library whose pages wait at a gate once armed (a list reading its rows again).
actor SlowPageRepository: WrappingRepository {
    nonisolated let inner: InMemoryArticleRepository
    let gate = Gate()
    private var armed = false
    private(set) var waiting = false
    init(inner: InMemoryArticleRepository) { self.inner = inner }

    func arm() { armed = true }

    func articles(in source: ArticleSource, page: ArticlePage) async throws -> [ArticleSummary] {
        if armed {
            waiting = true
            await gate.pass()
        }
        return try await inner.articles(in: source, page: page)
    }
}

/// `U`: the last changes of flags, taken back newest first, 50 deep.
@Suite("Undo")
@MainActor
struct UndoTests {
    let size = Size(width: 70, height: 13)

    func list(_ app: ReaderApp) -> ArticleListModel? {
        for screen in app.stack.reversed() { if case .articles(let list) = screen { return list } }
        return nil
    }

    @Test("the history keeps the newest 50 changes and drops a change that changed nothing")
    func historyLimit() {
        var history = UndoHistory()
        for n in 0..<60 { history.record(UndoEntry(flag: .read, value: true, ids: ["\(n)"])) }
        history.record(UndoEntry(flag: .starred, value: true, ids: []))
        #expect(history.entries.count == UndoHistory.limit)
        #expect(history.takeLast()?.ids == ["59"])
        #expect(history.entries.first?.ids == ["10"])
    }

    @Test("U takes back 50 N presses newest first; the 51st U finds nothing to undo")
    func fiftyDeep() async throws {
        let repository = flaggedLibrary([Array(repeating: false, count: 60)])
        let app = await AppDriver.started(repository, size: size)
        await AppDriver.press(app, [.enter])
        for _ in 0..<55 { await AppDriver.press(app, [.character("N"), .character("J")]) }
        #expect(await repository.feedSummaries().map(\.unread) == [5])
        for n in 0..<50 {
            await AppDriver.press(app, [.character("U")])
            // Newest first: the last marked (row 54) comes back first.
            #expect(try await repository.article(id: "f0-\(54 - n)").summary.isRead == false)
            #expect(try await repository.article(id: "f0-\(54 - n - 1)").summary.isRead == true)
        }
        await AppDriver.press(app, [.character("U")])
        #expect(app.message == "nothing to undo")
        #expect(await repository.feedSummaries().map(\.unread) == [55])
        #expect(app.feedList.feeds.map(\.unread) == [55])
        #expect((0..<5).map { list(app)?.article(at: $0)?.isRead } == Array(repeating: true, count: 5))
    }

    @Test("a write that failed (and was undone on screen) leaves nothing to undo")
    func failedWriteIsNotRecorded() async throws {
        let repository = ReadOnlyRepository(inner: flaggedLibrary([[false, false]]))
        let app = await AppDriver.started(repository, size: size)
        await AppDriver.press(app, [.enter, .character("N")])
        #expect(app.message?.hasPrefix("Could not save the read flag (undone)") == true)
        await AppDriver.press(app, [.character("A")])
        #expect(app.message?.hasPrefix("Could not save the mark read (undone)") == true)
        await AppDriver.press(app, [.character("U")])
        #expect(app.message == "nothing to undo")
        #expect(list(app)?.article(at: 0)?.isRead == false)
        #expect(app.feedList.feeds.map(\.unread) == [2])
    }

    @Test("an undo that cannot be written says so and stays in the history, to try again")
    func failedUndoStays() async throws {
        let repository = FlakyRepository(inner: flaggedLibrary([[false, false]]))
        let app = await AppDriver.started(repository, size: size)
        await AppDriver.press(app, [.enter, .character("N")])
        #expect(list(app)?.article(at: 0)?.isRead == true)
        await repository.setFailing(true)
        await AppDriver.press(app, [.character("U")])
        #expect(app.message == "Could not undo 1 article marked read: the disk is full")
        #expect(list(app)?.article(at: 0)?.isRead == true)
        #expect(app.feedList.feeds.map(\.unread) == [1])
        await repository.setFailing(false)
        await AppDriver.press(app, [.character("U")])
        #expect(app.message == "undid: 1 article marked read")
        #expect(list(app)?.article(at: 0)?.isRead == false)
        #expect(app.feedList.feeds.map(\.unread) == [2])
    }

    @Test("U while a mark read is still being written waits for it instead of undoing the one before")
    func undoWaitsForPendingWrite() async throws {
        let repository = SlowMarkReadRepository(inner: flaggedLibrary([[false, false], [false]]))
        let app = await AppDriver.started(repository, size: size)
        await AppDriver.press(app, [.enter, .character("N")])
        app.handle(.character("A"))
        app.handle(.character("U"))
        #expect(app.message == "Still saving the last change: undo once it is saved.")
        await repository.openGate()
        await app.settle()
        await AppDriver.press(app, [.character("U")])
        #expect(app.message == "undid: 1 article marked read")
        #expect(try await repository.feedSummaries().map(\.unread) == [1, 1])
    }

    @Test("after U the list keeps its rows drawn while it reads them again, then shows them unread")
    func noBlankRowsWhileRereading() async throws {
        let repository = SlowPageRepository(inner: flaggedLibrary([Array(repeating: false, count: 30)]))
        let app = await AppDriver.started(repository, size: size)
        await AppDriver.press(app, [.enter, .character("J"), .character("J"), .character("A")])
        await repository.arm()
        app.handle(.character("U"))
        while await !repository.waiting { await Task.yield() }
        let during = app.render().text()
        let rows = during.split(separator: "\n").dropFirst().prefix(10)
        #expect(rows.allSatisfy { $0.contains("F0 A") }, "\(during)")
        await repository.gate.open()
        await app.settle()
        #expect((0..<8).map { list(app)?.article(at: $0)?.isRead } == Array(repeating: false, count: 8))
        #expect(list(app)?.cursor.selected == 2)
    }
}

/// A library whose read-flag writes wait at a gate (a write still under way as the reader
/// closes).
actor GatedWriteRepository: WrappingRepository {
    nonisolated let inner: InMemoryArticleRepository
    let gate = Gate()
    init(inner: InMemoryArticleRepository) { self.inner = inner }

    func setRead(_ isRead: Bool, articleID: String) async throws {
        await gate.pass()
        try await inner.setRead(isRead, articleID: articleID)
    }
}

@MainActor
@Suite("Writes that outlive the reader")
struct WritesOutliveTheReaderTests {
    /// Opens a reader, presses N on the first feed's first article, and lets go of the reader
    /// while the write waits.
    func pressNAndClose(_ library: GatedWriteRepository) async {
        let app = await AppDriver.started(library, size: Size(width: 80, height: 24))
        await AppDriver.press(app, [.enter])
        app.handle(.character("N"))
    }

    @Test("a read flag written as the reader goes away is still saved")
    func writeOutlivesReader() async throws {
        let library = GatedWriteRepository(inner: flaggedLibrary([[false, false]]))
        await pressNAndClose(library)
        await library.gate.open()
        var saved = false
        for _ in 0..<500 where !saved {
            saved = try await library.inner.article(id: "f0-0").summary.isRead
            if !saved { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(saved, "the write of N was lost when the reader went away")
    }
}
