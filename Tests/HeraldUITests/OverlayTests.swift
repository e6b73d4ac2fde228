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
