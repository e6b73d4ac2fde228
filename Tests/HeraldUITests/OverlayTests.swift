import HeraldCore
import Testing

@testable import HeraldConfig
@testable import HeraldUI

/// The modes that take keys before a screen does (a count, a key sequence, a question, the
/// command line) are one value: one at a time, and what one takes never leaks into another.
@Suite("Modes over the screen")
@MainActor
struct OverlayTests {
    /// Two feeds: the first is selected at start, with a row below it.
    func started() async -> ReaderApp {
        await AppDriver.started(flaggedLibrary([[false, false, false], [false]]), size: Size(width: 60, height: 12))
    }

    @Test("a count is used by the key after it: : opens the command line with no count left, and j after Esc moves one row")
    func countThenCommandLine() async {
        let app = await started()
        let first = app.feedList.cursor.selected
        await AppDriver.press(app, [.character("5")])
        #expect(app.count == 5)
        await AppDriver.press(app, [.character(":")])
        #expect(app.commandPrompt != nil)
        #expect(app.count == nil && app.pendingKeys.isEmpty)
        await AppDriver.press(app, [.character("7"), .escape])
        #expect(app.commandPrompt == nil && app.count == nil, "the 7 was text of the line")
        await AppDriver.press(app, [.character("j")])
        #expect(app.feedList.cursor.selected == first + 1)
    }

    @Test("a question takes the next key whatever it is: a digit answers no and counts nothing")
    func questionTakesTheKey() async {
        let app = await started()
        let first = app.feedList.cursor.selected
        await AppDriver.press(app, [.character("C")])
        #expect(app.confirmation != nil)
        await AppDriver.press(app, [.character("5")])
        #expect(app.confirmation == nil)
        #expect(app.count == nil)
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
