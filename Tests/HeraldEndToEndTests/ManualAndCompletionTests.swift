import Foundation
import Testing

/// `herald manual` and `herald completions`, printed from the same tables as `--help`.
@Suite("The man page and the shell completions", .serialized)
struct ManualAndCompletionTests {
    typealias Library = CommandLineTests.Library

    @Test("the man page renders without a warning and names every command and key")
    func manual() throws {
        let library = Library()
        defer { library.cleanUp() }
        let roff = try library.run(["manual"])
        #expect(roff.exitStatus == 0)
        let manual = library.directory.appendingPathComponent("herald.1")
        try roff.output.write(to: manual, atomically: true, encoding: .utf8)
        let rendered = try Spawn.run(
            ["groff", "-man", "-Tutf8", "-ww", "-P", "-c", "-P", "-b", "-P", "-u", manual.path],
            environment: ProcessInfo.processInfo.environment, timeout: 30)
        try #require(rendered.exitStatus == 0, "groff is needed (make deps-test): \(rendered.errors)")
        #expect(rendered.errors.isEmpty, "groff warned: \(rendered.errors)")
        for command in ["list", "search", "reload", "import", "config check", "completions"] {
            #expect(rendered.output.contains("herald \(command)"), "\(command)")
        }
        for words in ["next unread article", "set reload-jobs", "NO_COLOR", "KEYS", "CONFIGURATION"] {
            #expect(rendered.output.contains(words), "\(words)")
        }
    }

    @Test("bash completes commands, a command's options and words, and files after --db")
    func bash() throws {
        let library = Library()
        defer { library.cleanUp() }
        let script = library.directory.appendingPathComponent("herald.bash")
        let printed = try library.run(["completions", "bash"])
        #expect(printed.exitStatus == 0)
        try printed.output.write(to: script, atomically: true, encoding: .utf8)
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let result = try Spawn.run(
                [
                    "bash", "--norc", "-c",
                    "source '\(script.path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _herald; printf '%s\\n' \"${COMPREPLY[@]}\"",
                ], environment: ProcessInfo.processInfo.environment, timeout: 30)
            #expect(result.exitStatus == 0, "\(result.errors)")
            return result.output.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["herald", "sea"]) == ["search"])
        #expect(try complete(["herald", "--db", "x.db", "config", ""]).sorted() == ["check", "default"])
        #expect(try complete(["herald", "list", "--un"]) == ["--unread"])
        #expect(try complete(["herald", "--co"]) == ["--config"])
    }

    @Test("zsh and fish scripts name every command; an unknown shell is refused")
    func otherShells() throws {
        let library = Library()
        defer { library.cleanUp() }
        let zsh = try library.run(["completions", "zsh"]).output
        let fish = try library.run(["completions", "fish"]).output
        #expect(zsh.hasPrefix("#compdef herald"))
        for command in [
            "list", "tags", "search", "add", "remove", "reload", "parse", "config", "import", "export",
        ] {
            #expect(zsh.contains("'\(command):"), "zsh: \(command)")
            #expect(fish.contains("-a \(command) "), "fish: \(command)")
        }
        #expect(try library.run(["completions", "tcsh"]).exitStatus == 2)
    }
}
