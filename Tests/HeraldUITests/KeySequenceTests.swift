import Foundation
import HeraldCore
import Testing

@testable import HeraldUI
@testable import HeraldConfig

/// Keys pressed one after another as one binding: `bind "g g" top`.
@Suite("Key sequences")
@MainActor
struct KeySequenceTests {
    let size = Size(width: 70, height: 13)
    /// vim's `g g`, and `g r` for reload-all (a hinted action rebound to a sequence).
    let config = """
        unbind g
        bind "g g" top
        bind "g r" reload-all
        """

    func started(_ text: String? = nil) async -> ReaderApp {
        let app = ReaderApp(repository: flaggedLibrary([[false], [false], [false], [false]]), size: size)
        app.apply(ConfigFile.parse(text ?? config, file: "config"))
        app.start()
        await app.settle()
        return app
    }

    @Test("a sequence in quotes binds; unbinding its first key beforehand is no clash")
    func parsing() {
        let parsed = ConfigFile.parse(config, file: "config")
        #expect(parsed.diagnostics == [])
        #expect(parsed.keymap.action(for: [.character("g"), .character("g")], on: .articles) == .top)
        #expect(parsed.keymap.action(for: [.character("g"), .character("r")], on: .feeds) == .reloadAll)
        #expect(parsed.keymap.action(for: .character("g"), on: .articles) == nil)
        #expect(parsed.keymap.isPrefix([.character("g")], on: .feeds))
        // R still reloads: the sequence is one more binding, like a second key.
        #expect(parsed.keymap.action(for: .character("R"), on: .feeds) == .reloadAll)
        let unbound = ConfigFile.parse(config + "\nunbind \"g g\"", file: "config")
        #expect(unbound.keymap.action(for: [.character("g"), .character("g")], on: .articles) == nil)
        #expect(unbound.keymap.isPrefix([.character("g")], on: .feeds))
        let bad = ConfigFile.parse("bind \"g zz\" top", file: "config")
        #expect(bad.diagnostics.first?.message.hasPrefix("unknown key `g zz`") == true)
    }

    @Test("a key and a sequence it begins clash: a diagnostic, and the older binding goes there")
    func clash() {
        let parsed = ConfigFile.parse("bind \"g g\" top", file: "config")
        #expect(
            parsed.diagnostics.map(\.description) == [
                "config:1:6: `g g` clashes with `g` (top on article, results, links, tags, errors, page, downloads): "
                    + "`g` cannot both act and begin `g g`, so `g` is unbound there",
                "config:1:6: `g g` clashes with `g` (sort on feeds, articles): "
                    + "`g` cannot both act and begin `g g`, so `g` is unbound there",
            ])
        #expect(parsed.keymap.action(for: .character("g"), on: .feeds) == nil)
        #expect(parsed.keymap.action(for: [.character("g"), .character("g")], on: .feeds) == .top)
        let back = ConfigFile.parse(config + "\nbind g bottom articles", file: "config")
        #expect(
            back.diagnostics.map(\.message).first { $0.hasPrefix("`g` clashes with `g g` (top on articles)") }
                != nil, "\(back.diagnostics)")
        #expect(back.keymap.action(for: .character("g"), on: .articles) == .bottom)
        #expect(back.keymap.action(for: [.character("g"), .character("g")], on: .articles) == nil)
        #expect(back.keymap.action(for: [.character("g"), .character("g")], on: .feeds) == .top)
        #expect(!back.keymap.isPrefix([.character("g")], on: .articles))
    }

    @Test("the first key waits, shown on the status line; the second does the action; a digit ends the wait")
    func pending() async {
        let app = await started()
        await AppDriver.press(app, [.end])
        #expect(app.feedList.cursor.selected == 6)
        await AppDriver.press(app, [.character("g")])
        #expect(app.pendingKeys == [.character("g")])
        #expect(app.message == "g …  g:top  r:reload-all")
        #expect(app.render().text().contains("g …  g:top  r:reload-all"))
        #expect(app.feedList.cursor.selected == 6)
        await AppDriver.press(app, [.character("g")])
        #expect(app.pendingKeys == [])
        #expect(app.feedList.cursor.selected == 0)
        // No count any more: a digit after g ends the wait, and neither moves nor starts `:`.
        await AppDriver.press(app, [.end, .character("g"), .character("2")])
        #expect(app.pendingKeys == [])
        #expect(app.message == "g 2 does nothing here (cancelled)")
        #expect(app.commandPrompt == nil)
        #expect(app.feedList.cursor.selected == 6)
    }

    @Test("a key that goes on no sequence cancels the wait, and does nothing itself")
    func cancel() async {
        let app = await started()
        await AppDriver.press(app, [.character("g"), .character("j")])
        #expect(app.pendingKeys == [])
        #expect(app.message == "g j does nothing here (cancelled)")
        #expect(app.feedList.cursor.selected == FeedListModel.virtualRows)
        await AppDriver.press(app, [.character("j")])
        #expect(app.feedList.cursor.selected == FeedListModel.virtualRows + 1)
    }

    @Test("the help, the hint line and --help's key list show the sequences")
    func shown() async {
        let app = await started()
        #expect(app.keymap.hint(for: .feeds).contains("g r:reload"))
        #expect(KeyTable.plainText(keymap: app.keymap).contains("  g g, Home "))
        #expect(KeyTable.markdown(keymap: app.keymap).contains("| `g g` `Home` |"))
        assertSnapshot(app.render(), named: "feeds-hint-with-sequence")
        app.size = Size(width: 80, height: 36)
        await AppDriver.press(app, [.character("?")])
        assertSnapshot(app.render(), named: "help-feeds-with-sequence")
    }
}
