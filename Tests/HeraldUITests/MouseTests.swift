import Foundation
import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

/// The mouse goes through the keys' actions: a click moves the cursor to the row, a double
/// click opens it, the wheel moves three rows.
@Suite("The mouse")
@MainActor
struct MouseTests {
    let size = Size(width: 70, height: 16)

    @Test("a click on a feed selects it; a double click opens it; a click off the rows does nothing")
    func clicks() async {
        let app = await AppDriver.started(flaggedLibrary([[false], [false, false], [false]]), size: size)
        // Rows: 1 All, 2 Unread, 3 Starred, 4 Feed 0, 5 Feed 1, 6 Feed 2.
        await AppDriver.press(app, [.mouse(MouseEvent(.click, x: 10, y: 5))])
        #expect(app.feedList.selectedFeed?.feed.title == "Feed 1")
        await AppDriver.press(app, [.mouse(MouseEvent(.click, x: 10, y: 0))])
        #expect(app.feedList.selectedFeed?.feed.title == "Feed 1", "the header is no row")
        await AppDriver.press(app, [.mouse(MouseEvent(.doubleClick, x: 3, y: 6))])
        guard case .articles(let list) = app.screen else {
            Issue.record("a double click did not open the feed")
            return
        }
        #expect(list.list.title == "Feed 2")
    }

    @Test("the wheel moves three rows down and up, in a list")
    func wheel() async {
        let app = await AppDriver.started(flaggedLibrary([Array(repeating: false, count: 10)]), size: size)
        await AppDriver.press(app, [.enter, .mouse(MouseEvent(.wheelDown, x: 0, y: 5))])
        guard case .articles(let list) = app.screen else {
            Issue.record("no article list")
            return
        }
        #expect(list.cursor.selected == 3)
        await AppDriver.press(app, [.mouse(MouseEvent(.wheelUp, x: 0, y: 5))])
        #expect(list.cursor.selected == 0)
    }
}
