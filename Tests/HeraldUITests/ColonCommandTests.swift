import Foundation
import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

/// The `:` command line: editing, Tab, history, errors, and the commands.
@Suite("The : command line")
@MainActor
struct ColonCommandTests {
    let size = Size(width: 70, height: 13)

    func started() async -> (InMemoryArticleRepository, ReaderApp) {
        let repository = flaggedLibrary([[false, false, true], [false]])
        return (repository, await AppDriver.started(repository, size: size))
    }

    func type(_ app: ReaderApp, _ text: String) async {
        await AppDriver.press(app, text.map { .character($0) })
    }

    /// The status line (the second row from the bottom) as drawn.
    func statusLine(_ app: ReaderApp) -> String {
        let rows = app.render().text().split(separator: "\n", omittingEmptySubsequences: false)
        return String(rows[size.height - 2]).trimmingCharacters(in: .whitespaces)
    }

    @Test("a paste longer than the command line takes stops at its limit, said; the line shows its end")
    func pasteStopsAtTheLimit() async {
        let (_, app) = await started()
        await AppDriver.press(app, [.character(":")])
        await type(app, "mark-read " + String(repeating: "-", count: 30_000))
        let text = app.commandPrompt?.text ?? ""
        #expect(text.utf8.count == InputLimits.promptBytes)
        #expect(app.message == "the line is full: \(InputLimits.promptBytes) bytes at most")
        #expect(statusLine(app).hasPrefix(":…---"))
    }

    @Test("typed text is edited as in the search prompt: Backspace, Ctrl-W, Ctrl-U; Esc cancels")
    func editing() async {
        let (_, app) = await started()
        await AppDriver.press(app, [.character(":")])
        #expect(app.commandPrompt?.text == "")
        await type(app, "mark-reax")
        await AppDriver.press(app, [.backspace])
        await type(app, "d all")
        #expect(statusLine(app) == ":mark-read all")
        await AppDriver.press(app, [.control("w")])
        #expect(app.commandPrompt?.text == "mark-read ")
        await AppDriver.press(app, [.control("u")])
        #expect(app.commandPrompt?.text == "")
        await type(app, "quit")
        await AppDriver.press(app, [.escape])
        #expect(app.commandPrompt == nil)
        #expect(!app.isFinished)
        // Backspace on an empty line closes it too, as in vim.
        await AppDriver.press(app, [.character(":"), .backspace])
        #expect(app.commandPrompt == nil)
        // j is a letter on the command line, not a move.
        await AppDriver.press(app, [.character(":"), .character("j")])
        #expect(app.commandPrompt?.text == "j")
        #expect(app.feedList.cursor.selected == FeedListModel.virtualRows)
    }

    @Test("Tab completes a command, shows the candidates when several fit, and completes settings after set")
    func completion() async {
        let (_, app) = await started()
        await AppDriver.press(app, [.character(":")])
        await type(app, "ma")
        await AppDriver.press(app, [.tab])
        #expect(app.commandPrompt?.text == "mark-")
        #expect(app.commandPrompt?.candidates == ["mark-read", "mark-unread"])
        assertSnapshot(app.render(), named: "completion-candidates")
        await type(app, "u")
        #expect(app.commandPrompt?.candidates == [])
        await AppDriver.press(app, [.tab])
        #expect(app.commandPrompt?.text == "mark-unread ")
        await AppDriver.press(app, [.control("u")])
        await type(app, "set conf")
        await AppDriver.press(app, [.tab])
        #expect(app.commandPrompt?.text == "set confirm-mark-all ")
        await AppDriver.press(app, [.control("u")])
        await type(app, "zz")
        await AppDriver.press(app, [.tab])
        #expect(app.commandPrompt?.text == "zz")
    }

    @Test("Up and Down go through the commands run this session, and back to the line being typed")
    func history() async {
        let (_, app) = await started()
        for line in ["set mouse no", "undo", "undo"] {
            await AppDriver.press(app, [.character(":")])
            await type(app, line)
            await AppDriver.press(app, [.enter])
        }
        await AppDriver.press(app, [.character(":")])
        await type(app, "sta")
        await AppDriver.press(app, [.up])
        #expect(app.commandPrompt?.text == "undo")
        await AppDriver.press(app, [.up])
        #expect(app.commandPrompt?.text == "set mouse no")
        await AppDriver.press(app, [.up])
        #expect(app.commandPrompt?.text == "set mouse no")
        await AppDriver.press(app, [.down])
        #expect(app.commandPrompt?.text == "undo")
        await AppDriver.press(app, [.down])
        #expect(app.commandPrompt?.text == "sta")
    }

    @Test("an unknown command is named with a suggestion; arguments where none go are an error")
    func errors() async {
        let (_, app) = await started()
        await AppDriver.press(app, [.character(":")])
        await type(app, "mark-raed")
        await AppDriver.press(app, [.enter])
        #expect(
            app.message
                == ":mark-raed: unknown command `mark-raed` — did you mean `mark-read`? (:help lists them)")
        #expect(app.commandPrompt == nil)
        await AppDriver.press(app, [.character(":")])
        await type(app, "undo 3")
        await AppDriver.press(app, [.enter])
        #expect(app.message == ":undo 3: `undo` takes no arguments")
    }

    @Test("set changes a setting for the session, with the config file's errors")
    func set() async {
        let (repository, app) = await started()
        await AppDriver.press(app, [.character(":")])
        await type(app, "set confirm-mark-al no")
        await AppDriver.press(app, [.enter])
        #expect(
            app.message
                == ":set confirm-mark-al no: unknown setting `confirm-mark-al` — did you mean `confirm-mark-all`?"
        )
        await AppDriver.press(app, [.character(":")])
        await type(app, "set reload-jobs 0")
        await AppDriver.press(app, [.enter])
        #expect(app.message?.hasPrefix(":set reload-jobs: `0`: ") == true, "\(app.message ?? "")")
        #expect(app.settings.reloadJobs == 200)
        var heard: [Settings] = []
        app.onSettingsChange = { heard.append($0) }
        await AppDriver.press(app, [.character(":")])
        await type(app, "set \"mouse\" off")
        await AppDriver.press(app, [.enter])
        #expect(app.message == "mouse is off for this session (the config file keeps it)")
        #expect(heard.map(\.mouse) == [false])
        await AppDriver.press(app, [.character(":")])
        await type(app, "set confirm-mark-all no")
        await AppDriver.press(app, [.enter])
        #expect(app.settings.confirmMarkAll == false)
        // C no longer asks.
        await AppDriver.press(app, [.character("C")])
        #expect(await repository.feedSummaries().map(\.unread) == [0, 0])
    }

    @Test(
        "a flag command with a query writes the articles it matches, U takes it back; a bad query names its column"
    )
    func queryTarget() async {
        #expect(
            ColonCommand.parse("mark-read  feed:news  ") == .success(.flag(.read, true, .query("feed:news"))))
        #expect(ColonCommand.parse("unstar") == .success(.flag(.starred, false, .list)))
        guard case .failure(let error) = ColonCommand.parse(" star  title:x ) unread") else {
            Issue.record("a stray parenthesis parses")
            return
        }
        #expect(error.description.contains("(column 16)"), "\(error)")
        let (repository, app) = await started()
        // Feed 0's unread articles are A0 and A1; feed 1's is A0.
        await AppDriver.press(app, [.character(":")])
        await type(app, "mark-read title:A0 or feed:\"Feed 1\"")
        await AppDriver.press(app, [.enter])
        #expect(await repository.feedSummaries().map(\.unread) == [1, 0])
        #expect(app.message?.hasPrefix("2 articles marked read") == true, "\(app.message ?? "-")")
        await AppDriver.press(app, [.character(":")])
        await type(app, "star unread")
        await AppDriver.press(app, [.enter])
        #expect(await repository.starredCounts() == ArticleCounts(total: 1, unread: 1))
        // Newest first: the star, then the read.
        await AppDriver.press(app, [.character("U")])
        #expect(await repository.starredCounts() == ArticleCounts(total: 0, unread: 0))
        await AppDriver.press(app, [.character("U")])
        #expect(await repository.feedSummaries().map(\.unread) == [2, 1])
        // A query that does not parse writes nothing and says where it stopped.
        await AppDriver.press(app, [.character(":")])
        await type(app, "mark-read age<")
        await AppDriver.press(app, [.enter])
        #expect(app.message?.hasPrefix(":mark-read age<: query: ") == true, "\(app.message ?? "-")")
        #expect(await repository.feedSummaries().map(\.unread) == [2, 1])
    }

    @Test(":help lists the commands, :quit quits, and the search prompt takes : as text")
    func helpAndQuit() async {
        let (_, app) = await started()
        await AppDriver.press(app, [.character(":")])
        await type(app, "help")
        await AppDriver.press(app, [.enter])
        guard case .page(let page) = app.screen else {
            Issue.record("no help page")
            return
        }
        #expect(page.title == "Commands")
        #expect(page.paragraphs.map(\.label).contains("set NAME VALUE"))
        await AppDriver.press(app, [.escape, .character("/"), .character(":")])
        if case .search(let search) = app.screen {
            #expect(search.query == ":")
        } else {
            Issue.record("no search")
        }
        await AppDriver.press(app, [.escape, .character(":")])
        await type(app, "quit")
        await AppDriver.press(app, [.enter])
        #expect(app.isFinished)
    }

    @Test("a flag command over the search results has no list to work on, and says so")
    func noList() async {
        let (_, app) = await started()
        await AppDriver.press(app, [.character("/"), .character("F"), .tab, .character(":")])
        await type(app, "star")
        await AppDriver.press(app, [.enter])
        #expect(app.message == "No list here: open a feed or a list (or select one) first.")
    }
}
