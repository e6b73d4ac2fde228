import Foundation
import HeraldCore
import Testing

@testable import HeraldConfig
@testable import HeraldUI

/// newsboat 2.21's default keys that run commands: macros, `D`, `:goto`, `:tag`.
@MainActor
extension NewsboatKeysTests {
    // MARK: Macros

    @Test("a macro of the config runs its steps in order after , and its key")
    func macroRuns() async throws {
        let repository = flaggedLibrary([[false, false]])
        let config = ConfigFile.parse("macro x toggle-read ; toggle-star -- \"both\"", file: "c")
        #expect(config.diagnostics.isEmpty, "\(config.diagnostics)")
        let app = await AppDriver.started(repository, size: size)
        app.apply(config)
        await AppDriver.press(app, [.enter, .character(",")])
        #expect(app.message == "macro: x:both")
        await AppDriver.press(app, [.character("x")])
        let summary = try await repository.article(id: "f0-0").summary
        #expect(summary.isRead && summary.isStarred)
        #expect(list(app)?.article(at: 0)?.isRead == true && list(app)?.article(at: 0)?.isStarred == true)
        // In order: the star was the last change, so the first undo takes it back.
        await AppDriver.press(app, [.character("U")])
        let undone = try await repository.article(id: "f0-0").summary
        #expect(undone.isRead && !undone.isStarred)
    }

    @Test("a macro's set step changes the setting for the session, then the next step acts")
    func macroSetStep() async {
        let (app, _) = await started(
            flaggedLibrary([[false], [true]]),
            config: "macro h set show-read-feeds no ; next-unread")
        #expect(feedTitles(app) == ["Feed 0", "Feed 1"])
        await AppDriver.press(app, [.character(","), .character("h")])
        #expect(app.settings.showReadFeeds == false)
        #expect(feedTitles(app) == ["Feed 0"])
    }

    @Test(", then a key with no macro says so; , with no macros says how to add one")
    func macroUnknownKey() async {
        let (app, _) = await started(flaggedLibrary([[false]]), config: "macro x toggle-read")
        await AppDriver.press(app, [.character(","), .character("y")])
        #expect(app.message == "No macro on y (cancelled)")
        await AppDriver.press(app, [.character("j")])
        #expect(app.message == nil, "the next key is a key again")
        let (plain, _) = await started(flaggedLibrary([[false]]))
        await AppDriver.press(plain, [.character(",")])
        #expect(plain.message?.hasPrefix("No macros: add one to the config") == true)
    }

    // MARK: newsboat keys Herald has not

    @Test("D says it is newsboat's delete-article and what Herald has instead")
    func absentKeySaysWhat() async {
        let (app, _) = await started(flaggedLibrary([[false]]), keys: [.enter])
        await AppDriver.press(app, [.character("D")])
        #expect(
            app.message
                == "D (newsboat's delete-article: not in Herald; keep-days and keep-articles remove old articles) — ? for help"
        )
        await AppDriver.press(app, [.control("r")])
        #expect(app.message?.contains("newsboat's reload-urls") == true, "\(app.message ?? "-")")
    }

    @Test(":goto TEXT selects the next feed whose title holds it (from any screen, back on the feed list)")
    func gotoFeed() async {
        let (app, _) = await started(flaggedLibrary([[false], [false], [false]]), keys: [.enter, .enter])
        await AppDriver.press(app, [.character(":")])
        await type(app, "goto feed 2")
        await AppDriver.press(app, [.enter])
        #expect(app.screenKind == .feeds)
        #expect(app.feedList.selected?.feed?.title == "Feed 2")
        await AppDriver.press(app, [.character(":")])
        await type(app, "goto nothing")
        await AppDriver.press(app, [.enter])
        #expect(app.message == "No feed's title holds nothing.")
        #expect(app.feedList.selected?.feed?.title == "Feed 2")
    }

    @Test(":tag NAME opens the articles of the feeds with the tag; an unknown tag says which there are")
    func tagCommand() async {
        let (app, _) = await started(flaggedLibrary([[false], [false], [false]], tags: [["news"], [], ["news"]]))
        await AppDriver.press(app, [.character(":")])
        await type(app, "tag news")
        await AppDriver.press(app, [.enter])
        #expect(list(app)?.list.title == "news")
        #expect(Set(titles(app)) == ["F0 A0", "F2 A0"])
        await AppDriver.press(app, [.character("q"), .character(":")])
        await type(app, "tag sport")
        await AppDriver.press(app, [.enter])
        #expect(app.message == "No feed has the tag sport (tags: news).")
        #expect(app.screenKind == .feeds)
    }
}
