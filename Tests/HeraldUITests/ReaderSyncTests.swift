import Foundation
import HeraldCore
import Testing

@testable import HeraldUI

/// A stand-in for the sync folder: it counts syncs, can hold one open, plays another
/// device's changes into the library when it syncs, and signals folder changes on demand.
actor FakeSync: LibrarySyncing {
    private(set) var syncs = 0
    private var holding = false
    private var gates: [CheckedContinuation<Void, Never>] = []
    /// What the next syncs do to the library and report (one each; then nothing).
    private var plays: [@Sendable (InMemoryArticleRepository) async throws -> LibrarySyncResult] = []
    private let library: InMemoryArticleRepository
    nonisolated let folder: AsyncStream<Void>
    nonisolated let folderContinuation: AsyncStream<Void>.Continuation

    init(library: InMemoryArticleRepository) {
        self.library = library
        (folder, folderContinuation) = AsyncStream.makeStream(of: Void.self)
    }

    func hold() { holding = true }
    func release() {
        holding = false
        for gate in gates { gate.resume() }
        gates = []
    }

    func play(_ change: @escaping @Sendable (InMemoryArticleRepository) async throws -> LibrarySyncResult) {
        plays.append(change)
    }

    /// Another device marked `id` read: the library has it, and the result says so.
    func playRead(_ id: String, complete: Bool = true) {
        play { library in
            try await library.setRead(true, articleID: id)
            return LibrarySyncResult(
                flags: complete ? [.init(flag: .read, value: true, articleIDs: [id])] : [], flagsChanged: 1)
        }
    }

    func sync() async throws -> LibrarySyncResult {
        syncs += 1
        if holding { await withCheckedContinuation { gates.append($0) } }
        guard !plays.isEmpty else { return LibrarySyncResult() }
        return try await plays.removeFirst()(library)
    }

    nonisolated func folderChanges() -> AsyncStream<Void> { folder }
}

struct SyncFailure: Error, CustomStringConvertible {
    var description: String
}

@Suite("Sync in the open reader")
@MainActor
struct ReaderSyncTests {
    let library = makeLibrary()
    let clock = ManualClock()

    func app(repository: (any ArticleRepository)? = nil) -> (ReaderApp, FakeSync) {
        let sync = FakeSync(library: library)
        let app = ReaderApp(repository: repository ?? library, size: Size(width: 70, height: 13))
        app.sync.library = sync
        app.sync.clock = clock
        return (app, sync)
    }

    /// Lets the pause after the last sync pass, signals a change in the folder, and waits
    /// until a sync has started since and everything it started has ended.
    func folderChange(_ app: ReaderApp, _ sync: FakeSync) async {
        _ = await waitUntil { clock.pendingSleepers >= 2 }  // the timer's and the pause's
        let before = app.sync.started
        clock.advance(by: SyncRunner.spacing)
        await app.settle()
        sync.folderContinuation.yield(())
        _ = await waitUntil { app.sync.started > before }
        await app.settle()
    }

    @Test("the first sync starts once the feed list is up, never before it")
    func firstSyncAfterTheFeedList() async throws {
        defer { clock.stop() }
        let gated = GatedRepository(inner: library)
        let (app, sync) = app(repository: gated)
        app.start()
        #expect(app.render().text().contains("Herald"), "the first frame is drawn at once")
        for _ in 0..<50 { await Task.yield() }
        #expect(await sync.syncs == 0, "the feed list is still loading")
        await gated.openGate()
        await app.settle()
        #expect(await sync.syncs == 1)
        #expect(app.sync.isRunning)
        app.sync.stop()
    }

    @Test("changes in a burst make one sync a second; a change after a quiet second syncs at once")
    func batched() async throws {
        defer { clock.stop() }
        let (app, sync) = app()
        app.start()
        await app.settle()
        #expect(await sync.syncs == 1)
        await AppDriver.press(app, [.enter])  // Feed 0's articles
        await AppDriver.press(app, [.character("N"), .character("J"), .character("N"), .character("*")])
        #expect(await sync.syncs == 1, "the three changes wait for the pause after the first sync")
        await clock.waitForSleeps(started: 2)  // the timer's and the pause's
        clock.advance(by: .milliseconds(999))
        await app.settle()
        #expect(await sync.syncs == 1)
        clock.advance(by: .milliseconds(1))
        _ = await waitUntil { app.sync.started == 2 }
        await app.settle()
        #expect(await sync.syncs == 2, "one sync for the three")
        clock.advance(by: .seconds(5))
        await app.settle()
        #expect(await sync.syncs == 2, "nothing changed since")
        await AppDriver.press(app, [.character("N")])
        #expect(await sync.syncs == 3, "a quiet second has passed: at once")
        app.sync.stop()
    }

    @Test("the timer syncs every minute, and a change in the folder syncs at once")
    func timerAndFolder() async throws {
        defer { clock.stop() }
        let (app, sync) = app()
        app.start()
        await app.settle()
        await clock.waitForSleeps(started: 2)
        clock.advance(by: .seconds(59))
        await app.settle()
        #expect(await sync.syncs == 1)
        clock.advance(by: .seconds(1))
        _ = await waitUntil { app.sync.started == 2 }
        await app.settle()
        #expect(await sync.syncs == 2)
        await folderChange(app, sync)
        #expect(await sync.syncs == 3)
        app.sync.stop()
        sync.folderContinuation.yield(())
        for _ in 0..<50 { await Task.yield() }
        #expect(await sync.syncs == 3, "stopped: the folder is not heard any more")
        #expect(!app.sync.isRunning)
    }

    @Test("syncs never overlap: asks while one runs make one more after it")
    func neverOverlap() async throws {
        defer { clock.stop() }
        let (app, sync) = app()
        await sync.hold()
        app.start()
        _ = await waitUntil { app.sync.started == 1 }
        await clock.waitForSleeps(started: 2)
        clock.advance(by: .seconds(3))
        for _ in 0..<3 { sync.folderContinuation.yield(()) }
        for _ in 0..<50 { await Task.yield() }
        #expect(app.sync.started == 1)
        await sync.release()
        _ = await waitUntil { app.sync.started == 2 }
        await app.settle()
        #expect(await sync.syncs == 2)
        app.sync.stop()
    }

    @Test(
        "a flag another device changed shows on the open list, the open article and the counts, without a key"
    )
    func screenFollows() async throws {
        defer { clock.stop() }
        let (app, sync) = app()
        app.start()
        await app.settle()
        await AppDriver.press(app, [.enter, .enter])  // Feed 0, its newest article
        guard case .article(let viewer) = app.screen else {
            Issue.record("no article open")
            return
        }
        let id = viewer.summary.id
        // Opening it marked it read here; another device marks it unread, and the next one read.
        await sync.play { library in
            try await library.setRead(false, articleID: id)
            try await library.setRead(true, articleID: "feed-0/28")
            return LibrarySyncResult(
                flags: [
                    .init(flag: .read, value: false, articleIDs: [id]),
                    .init(flag: .read, value: true, articleIDs: ["feed-0/28"]),
                ], flagsChanged: 2)
        }
        await folderChange(app, sync)
        #expect(viewer.summary.isRead == false, "the open article is unread again")
        guard case .articles(let list) = app.stack[1] else { return }
        #expect(list.article(at: 0)?.isRead == false && list.article(at: 1)?.isRead == true)
        #expect(app.feedList.feeds.first?.unread == 29, "\(app.feedList.feeds.map(\.unread))")
        app.sync.stop()
    }

    @Test("with more changes than the result names, the open article's flags are read again")
    func incompleteResult() async throws {
        defer { clock.stop() }
        let (app, sync) = app()
        app.start()
        await app.settle()
        await AppDriver.press(app, [.enter, .character("j"), .enter])
        guard case .article(let viewer) = app.screen else {
            Issue.record("no article open")
            return
        }
        let id = viewer.summary.id
        await sync.play { library in
            try await library.setStarred(true, articleID: id)
            return LibrarySyncResult(flagsChanged: 1)
        }
        await folderChange(app, sync)
        #expect(viewer.summary.isStarred)
        app.sync.stop()
    }

    @Test("an error or a problem is said once, not at every sync; after a good sync it is said again")
    func errorOnce() async throws {
        defer { clock.stop() }
        let (app, sync) = app()
        for _ in 0..<2 {
            await sync.play { _ in throw SyncFailure(description: "no sync folder at /gone") }
        }
        app.start()
        await app.settle()
        #expect(app.message == "sync failed: no sync folder at /gone")
        await AppDriver.press(app, [.character("j")])
        #expect(app.message == nil)
        await folderChange(app, sync)
        #expect(await sync.syncs == 2)
        #expect(app.message == nil, "the same error is not said twice")
        await sync.play { _ in LibrarySyncResult() }
        await sync.play { _ in throw SyncFailure(description: "no sync folder at /gone") }
        await folderChange(app, sync)
        await folderChange(app, sync)
        #expect(await sync.syncs == 4)
        #expect(app.message == "sync failed: no sync folder at /gone", "said again after a sync that worked")
        app.sync.stop()
    }

    @Test("no sync folder: no timer, no sync")
    func noSync() async {
        defer { clock.stop() }
        let app = ReaderApp(repository: library, size: Size(width: 70, height: 13))
        app.start()
        await app.settle()
        #expect(!app.sync.isRunning && app.sync.started == 0)
    }
}
