import Foundation
import Testing

/// `herald config check | default`, `--config`, and `--help` following the bindings.
@Suite("The config file on the command line", .serialized)
struct CommandLineConfigTests {
    typealias Library = CommandLineTests.Library
    typealias Demo = CommandLineTests.Demo

    @Test("config check names every mistake by file:line:column and exits 1; a good file is fine")
    func check() throws {
        let library = Library()
        defer { library.cleanUp() }
        let bad = try library.write("bind x nxt-unread\nset reload-jobs 0\n", to: "bad")
        let result = try library.run(["--config", bad.path, "config", "check"])
        #expect(result.exitStatus == 1)
        #expect(
            result.output.contains(
                "\(bad.path):1:8: unknown action `nxt-unread` — did you mean `next-unread`?"))
        #expect(result.output.contains("\(bad.path):2:17:"), "\(result.output)")
        let good = try library.write("bind x next-unread\nset confirm-mark-all no\n", to: "good")
        let fine = try library.run(["--config", good.path, "config", "check"])
        #expect(fine.exitStatus == 0 && fine.output.contains("fine"), "\(fine.output)")
        let missing = try library.run(["--config", library.directory.path + "/nope", "config", "check"])
        #expect(
            missing.exitStatus == 2 && missing.errors.contains("cannot read the config"), "\(missing.errors)")
    }

    @Test(
        "config check reads included files: their mistakes at their own file:line, a cycle and a missing file at the include"
    )
    func checkIncludes() throws {
        let library = Library()
        defer { library.cleanUp() }
        let colours = try library.write(
            "color header red blue\nbind y nxt-unread\ninclude config\n", to: "colours")
        let config = try library.write(
            "include colours\ninclude missing\nset mouse no\nfilter author:bot delete\n", to: "config")
        let result = try library.run(["--config", config.path, "config", "check"])
        #expect(result.exitStatus == 1, "\(result.output)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(result.output)")
        #expect(
            lines.first?.hasPrefix("\(config.path):2:9: cannot read `\(library.directory.path)/missing`")
                == true, "\(lines)")
        #expect(
            lines.dropFirst().first?.hasPrefix("\(config.path):4:19: warning: this filter deletes") == true,
            "\(lines)")
        #expect(
            lines.dropFirst(2).first?.hasPrefix("\(colours.path):2:8: unknown action `nxt-unread`") == true,
            "\(lines)")
        #expect(
            lines.last?.hasPrefix("\(colours.path):3:9: `config` is already being read") == true, "\(lines)")
    }

    @Test("a config that is a FIFO or a device is refused at once, by every command and the reader")
    func notRegularFile() throws {
        let library = Library()
        defer { library.cleanUp() }
        try FileManager.default.createDirectory(at: library.directory, withIntermediateDirectories: true)
        let fifo = library.directory.appendingPathComponent("config.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for config in [fifo, "/dev/zero"] {
            for command in [["config", "check"], []] {
                let result = try library.run(["--config", config] + command, timeout: 15)
                #expect(!result.timedOut, "\(command) waited on \(config)")
                #expect(result.exitStatus == 2, "\(command): \(result.errors)")
                #expect(
                    result.errors.contains(
                        "cannot read the config \(config): \(config) is not a regular file"),
                    "\(command): \(result.errors)")
            }
            // A listing reads the library without the config it cannot read, as before.
            let listed = try library.run(["--config", config, "list", "--limit", "1"], timeout: 15)
            #expect(!listed.timedOut && listed.exitStatus == 0, "list waited on \(config): \(listed.errors)")
        }
    }

    @Test("config check says where a delete filter deletes for good, and passes; hide and skip pass quietly")
    func checkWarnsOfDelete() throws {
        let library = Library()
        defer { library.cleanUp() }
        let config = try library.write(
            "filter podcast hide\nfilter title:ad skip\nfilter author:bot delete\n", to: "config")
        let result = try library.run(["--config", config.path, "config", "check"])
        #expect(result.exitStatus == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result.output)")
        #expect(
            lines.first?.hasPrefix("\(config.path):3:19: warning: this filter deletes") == true, "\(lines)")
        #expect(lines.last == "\(config.path): fine")
    }

    @Test("--help lists the keys as the config binds them; config default prints every default")
    func helpAndDefault() throws {
        let library = Library()
        defer { library.cleanUp() }
        let config = try library.write("bind x next-unread\n", to: "config")
        let help = try library.run(["--config", config.path, "--help"])
        #expect(help.output.contains("  x, n "), "\(help.output)")
        let defaults = try library.run(["config", "default"])
        #expect(defaults.exitStatus == 0)
        #expect(defaults.output.hasPrefix("# Herald's config file"))
        #expect(defaults.output.contains("# set confirm-mark-all yes"))
        #expect(defaults.output.contains("# bind n next-unread feeds articles article results"))
    }

    @Test("the reader shows the config's first mistake and uses the rest of the file")
    func readerShowsMistake() throws {
        let library = Library()
        defer { library.cleanUp() }
        let config = try library.write("frobnicate\nbind x next-unread\n", to: "config")
        let screen = try library.run(["--config", config.path, "snapshot", "--size", "250x12"])
        #expect(screen.exitStatus == 0, "\(screen.errors)")
        #expect(
            screen.output.contains("config: \(config.path):1:1: unknown directive `frobnicate`"),
            "\(screen.output)")
        #expect(screen.output.contains("x:next unread"), "\(screen.output)")
    }

    @Test("set keep-articles: a reload leaves each feed its newest N")
    func retention() throws {
        let library = Library()
        defer { library.cleanUp() }
        #expect(try library.jsonLines(["list"]).count == Demo.articles)
        let config = try library.write("set keep-articles 5\n", to: "config")
        // The demo feeds' addresses do not answer here: retention runs after the reload all the same.
        let reload = try library.run(["--config", config.path, "reload"])
        #expect(
            reload.output.contains("retention removed \(Demo.articles - 4 * 5) articles"), "\(reload.output)")
        #expect(try library.jsonLines(["list"]).count == 4 * 5)
    }
}
