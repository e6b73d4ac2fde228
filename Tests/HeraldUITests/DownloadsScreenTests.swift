import Foundation
import HeraldCore
import Testing

@testable import HeraldConfig
@testable import HeraldUI

/// A queue in memory: what the screen asks of it, recorded; its entries as the test sets them.
actor MemoryQueue: PodcastQueue {
    var items: [Download]
    var asked: [String] = []
    var maxDownloads = 1
    private var continuation: AsyncStream<Void>.Continuation?

    init(_ items: [Download]) { self.items = items }

    func entries() async throws -> [Download] { items }
    func enqueue(_ request: DownloadRequest) async throws -> EnqueueOutcome {
        if let known = items.first(where: { $0.url == request.url }) { return .alreadyQueued(known) }
        let entry = Download(
            id: Int64(items.count + 1), url: request.url, path: request.path, title: request.title,
            feedTitle: request.feedTitle, state: .queued)
        items.append(entry)
        return .added(entry)
    }
    func download(id: Int64) async throws { asked.append("download \(id)") }
    func cancel(id: Int64) async throws -> Bool {
        asked.append("cancel \(id)")
        return items.contains { $0.id == id && ($0.state == .downloading || $0.state == .queued) }
    }
    func setPlayed(_ played: Bool, id: Int64) async throws {
        asked.append("played \(played) \(id)")
        if let index = items.firstIndex(where: { $0.id == id }) { items[index].state = played ? .played : .finished }
    }
    func remove(id: Int64, deletingFile: Bool) async throws {
        asked.append("remove \(id) \(deletingFile)")
        items.removeAll { $0.id == id }
    }
    func purge(deletingFiles: Bool) async throws -> Int {
        let gone = items.count { $0.state == .played }
        items.removeAll { $0.state == .played }
        return gone
    }
    func setMaxDownloads(_ count: Int) async { maxDownloads = count }
    func changes() async -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        self.continuation = continuation
        return stream
    }
    /// Changes an entry as a download would, and says so.
    func update(_ id: Int64, _ change: @Sendable (inout Download) -> Void) {
        if let index = items.firstIndex(where: { $0.id == id }) { change(&items[index]) }
        continuation?.yield()
    }
}

@Suite("The podcast queue screen")
@MainActor
struct DownloadsScreenTests {
    static let entries = [
        Download(
            id: 1, url: "https://a.example/1.mp3", path: "/pods/Show/1.mp3", title: "Finished one", feedTitle: "Show",
            state: .finished, size: 48_000_000, received: 48_000_000),
        Download(
            id: 2, url: "https://a.example/2.mp3", path: "/pods/Show/2.mp3", title: "Halfway", feedTitle: "Show",
            state: .downloading, size: 20_000_000, received: 12_300_000, speed: 1_300_000),
        Download(
            id: 3, url: "https://a.example/3.mp3", path: "/pods/Show/3.mp3", title: "Broken", feedTitle: "Show",
            state: .failed, size: nil, received: 0,
            error: "the disk is full (No space left on device): 3.0 MB kept in /pods/Show/3.mp3.part for a resume"),
        Download(id: 4, url: "https://a.example/4.mp3", path: "/pods/Show/4.mp3", title: "Later", feedTitle: "Show", state: .queued),
    ]

    func started(_ queue: MemoryQueue) async -> (ReaderApp, RecordingOpener) {
        let app = await AppDriver.started(flaggedLibrary([[false]]), size: Size(width: 100, height: 12))
        let opener = RecordingOpener()
        app.programs = opener
        app.podcasts = queue
        await AppDriver.press(app, [.character("d")])
        return (app, opener)
    }

    @Test("d shows every episode with its state, a bar and its bytes; the status line names why one failed")
    func drawn() async {
        let queue = MemoryQueue(Self.entries)
        let (app, _) = await started(queue)
        assertSnapshot(app.render(), named: "podcast-queue")
        await AppDriver.press(app, [.character("j"), .character("j")])
        let text = app.render().text()
        #expect(text.contains("the disk is full"), "\(text)")
        #expect(text.contains("4 episodes · 1 downloading · 1 failed · up to 1 at once"))
        // Leaving the screen ends its watch of the queue (else the task waits past the test).
        await AppDriver.press(app, [.character("q")])
    }

    @Test("the screen follows the queue by itself: a change redraws it without a key")
    func follows() async throws {
        let queue = MemoryQueue(Self.entries)
        let (app, _) = await started(queue)
        var frames = 0
        app.onChange = { frames += 1 }
        await queue.update(2) { $0.received = 19_000_000 }
        for _ in 0..<200 where !app.render().text().contains("19 MB/20 MB") {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(app.render().text().contains("19 MB/20 MB"))
        #expect(frames >= 1, "a frame was asked for")
        await AppDriver.press(app, [.character("q")])
        #expect(app.screenKind == .feeds)
    }

    @Test("podboat's keys: Enter plays a finished one and marks it played, d, c, D, m, P and + - act on the queue")
    func keys() async {
        let queue = MemoryQueue(Self.entries)
        let (app, opener) = await started(queue)
        await AppDriver.press(app, [.enter])
        #expect(opener.playedFiles == ["/pods/Show/1.mp3"])
        #expect(app.message == "Playing /pods/Show/1.mp3")
        await AppDriver.press(app, [.character("m")])
        #expect(app.message == "Marked “Finished one” not played.")
        await AppDriver.press(app, [.character("j"), .enter])
        #expect(app.message == "“Halfway” is downloading, not downloaded yet.")
        await AppDriver.press(app, [.character("c"), .character("j"), .character("d")])
        #expect(app.message == "Downloading “Broken”.")
        await AppDriver.press(app, [.character("+"), .character("+")])
        #expect(app.message == "Up to 3 downloads at once.")
        #expect(app.settings.maxDownloads == 3 && app.configLines.last == "set max-downloads 3", "as :set does")
        await AppDriver.press(app, [.character("D")])
        #expect(app.message == "Removed “Broken” from the queue.")
        await AppDriver.press(app, [.character("P")])
        #expect(app.message == "Nothing to purge: no episode is played (m marks one).")
        await AppDriver.press(app, [.home, .character("m"), .character("P")])
        #expect(app.message == "Removed 1 played episode from the queue (their files stay).")
        #expect(
            await queue.asked == [
                "played true 1", "played false 1", "cancel 2", "download 3", "remove 3 false", "played true 1",
            ])
        #expect(await queue.items.map(\.title) == ["Halfway", "Later"])
        await AppDriver.press(app, [.character("q")])
        #expect(app.screenKind == .feeds)
    }
}
