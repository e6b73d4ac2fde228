import HeraldCore
import Testing

@testable import HeraldConfig
@testable import HeraldUI

/// The modes that take keys before a screen does (a key sequence, a macro's key, a question, the
/// command line) are one value: one at a time, and what one takes never leaks into another.
@Suite("Modes over the screen")
@MainActor
struct OverlayTests {
    /// Two feeds: the first is selected at start, with a row below it.
    func started() async -> ReaderApp {
        await AppDriver.started(flaggedLibrary([[false, false, false], [false]]), size: Size(width: 60, height: 12))
    }

    @Test("a digit on a list begins the command line with it (newsboat's :7), and :2 Enter goes to row 2")
    func digitBeginsTheCommandLine() async {
        let app = await started()
        await AppDriver.press(app, [.character("5")])
        #expect(app.commandPrompt?.text == "5")
        #expect(app.pendingKeys.isEmpty)
        await AppDriver.press(app, [.escape])
        #expect(app.commandPrompt == nil)
        let second = app.feedList.rows.firstIndex { $0.number == 2 }
        await AppDriver.press(app, [.character("2"), .enter])
        #expect(second != nil && app.feedList.cursor.selected == second, "feed 2 is selected, not opened")
        #expect(app.screenKind == .feeds)
    }

    @Test("a question takes the next key whatever it is: a digit answers no and starts nothing")
    func questionTakesTheKey() async {
        let app = await started()
        let first = app.feedList.cursor.selected
        await AppDriver.press(app, [.character("C")])
        #expect(app.confirmation != nil)
        await AppDriver.press(app, [.character("5")])
        #expect(app.confirmation == nil)
        #expect(app.commandPrompt == nil)
        await AppDriver.press(app, [.character("j")])
        #expect(app.feedList.cursor.selected == first + 1)
    }
}

@MainActor
@Suite("Ctrl-L")
struct RedrawKeyTests {
    @Test("Ctrl-L repaints on every screen and in every mode, and changes nothing else")
    func redrawEverywhere() async {
        let app = await AppDriver.started(flaggedLibrary([[false, false]]), size: Size(width: 80, height: 24))
        var repaints = 0
        app.onRedraw = { repaints += 1 }
        let ctrlL = Key.control("l")
        app.handle(ctrlL)
        #expect(repaints == 1 && app.message == nil)
        // In the search prompt it is not text.
        app.handle(.character("/"))
        app.handle(.character("F"))
        app.handle(ctrlL)
        #expect(repaints == 2)
        if case .search(let search) = app.screen {
            #expect(search.query == "F")
        } else {
            Issue.record("search closed")
        }
        app.handle(.escape)
        // A question stays asked; the `:` prompt keeps its text.
        app.handle(.character("C"))
        let question = app.confirmation?.question
        app.handle(ctrlL)
        #expect(repaints == 3 && question != nil && app.confirmation?.question == question)
        app.handle(.character("n"))
        app.handle(.character(":"))
        app.handle(.character("s"))
        app.handle(ctrlL)
        #expect(repaints == 4 && app.commandPrompt?.text == "s")
    }
}
