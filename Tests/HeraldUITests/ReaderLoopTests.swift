import HeraldCore
import Testing

@testable import HeraldConfig
@testable import HeraldUI

/// The reader's one loop, fed a script of events: what the terminal and `herald snapshot`
/// both run.
@Suite("The reader loop")
@MainActor
struct ReaderLoopTests {
    /// Runs the loop over `batches`, drawing after each as a headless session does; returns
    /// the exit status, the app, and what each frame showed on its selected row's line.
    func run(_ batches: [[ReaderEvent]]) async -> (status: Int32, app: ReaderApp, frames: [String]) {
        let app = await AppDriver.started(flaggedLibrary([[false, false, false], [false]]), size: Size(width: 60, height: 12))
        var script = batches[...]
        var frames: [String] = []
        let status = await ReaderLoop.run(app) {
            script.popFirst()
        } afterBatch: {
            await app.settle()
            let canvas = app.render()
            frames.append("\(canvas.size.width)x\(canvas.size.height) \(app.screenKind.rawValue)")
        }
        return (status, app, frames)
    }

    @Test("events are handled in order, a frame after each batch; q on the feed list ends with 0")
    func inOrder() async {
        let (status, app, frames) = await run([
            [.key(.character("j")), .key(.character("j"))], [.resized(Size(width: 50, height: 10))],
            [.key(.enter)], [.key(.character("q"))], [.key(.character("q"))],
        ])
        #expect(status == 0)
        #expect(app.isFinished)
        #expect(app.size == Size(width: 50, height: 10))
        #expect(frames == ["60x12 feeds", "50x10 feeds", "50x10 articles", "50x10 feeds", "50x10 feeds"])
    }

    @Test("an end event returns its status at once: the events after it are not handled")
    func end() async {
        let (status, app, frames) = await run([[.key(.enter), .end(143), .key(.character("j"))], [.key(.character("q"))]])
        #expect(status == 143)
        #expect(!app.isFinished)
        #expect(app.screenKind == .articles, "the Enter before the end was handled")
        #expect(frames.isEmpty, "the batch ended before its frame")
    }

    @Test("the input ending ends the loop with 0, the app left as it was")
    func inputGone() async {
        let (status, app, frames) = await run([[.key(.enter)]])
        #expect(status == 0)
        #expect(!app.isFinished)
        #expect(frames == ["60x12 articles"])
    }
}
