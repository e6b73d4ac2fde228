import Foundation
import HeraldCore
import Testing

@testable import HeraldConfig
@testable import HeraldUI

/// newsboat's `:source FILE` and `:dumpconfig FILE`: a config read over the one in force, and
/// the one in force written out, with this session's changes.
@Suite("The : commands source and dumpconfig")
@MainActor
struct ConfigCommandTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-source-\(UUID().uuidString)")

    func started(_ config: String) async -> ReaderApp {
        let app = await AppDriver.started(flaggedLibrary([[false, false]]), size: Size(width: 100, height: 20))
        app.apply(ConfigFile.parse(config, file: "config"))
        return app
    }

    func command(_ app: ReaderApp, _ line: String) async {
        await AppDriver.press(app, [.character(":")] + line.map { .character($0) } + [.enter])
        await app.settle()
    }

    @Test(":source reads a file over the config in force: its keys, settings and macros work at once")
    func source() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("more")
        try """
            bind x reload-all feeds
            set max-downloads 4
            include extra
            bogus line
            """.write(to: file, atomically: true, encoding: .utf8)
        try "set save-path /srv/saved\n".write(to: folder.appendingPathComponent("extra"), atomically: true, encoding: .utf8)
        var changed: [Settings] = []
        let app = await started("set confirm-mark-all no\nbind z help")
        app.onSettingsChange = { changed.append($0) }
        await command(app, "source \(file.path)")
        #expect(app.keymap.action(for: .character("x"), on: .feeds) == .reloadAll)
        #expect(app.keymap.action(for: .character("z"), on: .feeds) == .help, "the config in force stays")
        #expect(app.settings.maxDownloads == 4 && app.settings.savePath == "/srv/saved")
        #expect(app.settings.confirmMarkAll == false)
        #expect(changed.last?.maxDownloads == 4, "the settings' users hear of it (max-downloads, reload-jobs)")
        #expect(app.message?.hasPrefix("Read \(file.path), but \(file.path):4:1: unknown directive") == true, "\(app.message ?? "")")
        await command(app, "source \(folder.path)/missing")
        #expect(app.message?.hasPrefix(":source: cannot read \(folder.path)/missing") == true, "\(app.message ?? "")")
    }

    @Test(":dumpconfig writes the config in force with this session's :set, and asks before overwriting")
    func dump() async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = await started("set confirm-mark-all no\n# a comment\nbind z help\nset nonsense 3")
        await command(app, "set download-path \"~/My Podcasts/%n\"")
        let file = folder.appendingPathComponent("dumped").path
        await command(app, "dumpconfig \(file)")
        #expect(app.message == "Wrote the config in force to \(file)")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines == ["set confirm-mark-all no", "bind z help", "set download-path \"~/My Podcasts/%n\""], "\(text)")
        // What it wrote reads back as the same config.
        let again = ConfigFile.parse(text, file: file)
        #expect(again.diagnostics.isEmpty && again.settings.downloadPath.text == "~/My Podcasts/%n")
        await command(app, "dumpconfig \(file)")
        #expect(app.confirmation?.question == "\(file) exists: overwrite it? (y/n)")
        await AppDriver.press(app, [.character("y")])
        await app.settle()
        #expect(app.message == "Wrote the config in force to \(file)")
    }

    @Test(":podcasts opens the queue as d does; without a library it says so")
    func podcasts() async {
        let app = await started("")
        await command(app, "podcasts")
        #expect(app.message == "The podcast queue lives in a library (herald without --feeds).")
    }
}
