import Foundation
import Testing

/// Colours as the terminal receives them: the default theme, NO_COLOR, and the config's
/// `color` lines (read from tmux's copy of the screen with its SGR sequences).
@Suite("Colours on a real terminal", .serialized)
struct ColourEndToEndTests {
    /// The screen with its attributes, as tmux keeps it.
    func styledScreen(environment: String, config: String? = nil) async throws -> String {
        let session = try TmuxSession()
        defer { session.kill() }
        let binary = try HeraldUnderTest.binary()
        let prefix = environment
        var configFile: URL?
        if let config {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "herald-colour-\(UUID().uuidString)")
            try config.write(to: file, atomically: true, encoding: .utf8)
            configFile = file
        }
        defer { configFile.map { try? FileManager.default.removeItem(at: $0) } }
        try await session.waitUntil(contains: "e2e$")
        let command = HeraldUnderTest.commandLine(binary: binary).replacingOccurrences(
            of: " --feeds ",
            with: (configFile.map { " --config \(HeraldUnderTest.shellQuoted($0.path))" } ?? "") + " --feeds "
        )
        try session.runCommand(prefix + " " + command)
        // The whole frame with the feeds in it: ncurses writes it top to bottom, the hint
        // line last; the first one may still say "loading…" (a slow start, as under a
        // sanitizer, showed it).
        try await session.waitUntil("the feed list") {
            $0.first?.contains("Herald · Feeds") == true && $0.contains { $0.contains("q:quit") }
                && $0.contains { $0.hasPrefix("> 1") }
        }
        let styled = try session.run(["capture-pane", "-e", "-p", "-t", session.target])
        try session.sendKeys("q")
        // A vt100 has no alternate screen: the last frame stays, and the shell's EXIT=0
        // is written over its bottom rows.
        _ = try await session.waitUntil("the shell prints EXIT=0") { $0.contains { $0.contains("EXIT=0") } }
        return styled
    }

    /// The SGR parameters used on the screen.
    func parameters(_ screen: String) -> Set<String> {
        var found = Set<String>()
        var rest = Substring(screen)
        while let start = rest.range(of: "\u{1b}[") {
            let body = rest[start.upperBound...].prefix { $0 != "m" && $0 != "\u{1b}" }
            for parameter in body.split(separator: ";") { found.insert(String(parameter)) }
            rest = rest[start.upperBound...]
        }
        return found
    }

    @Test("the default theme draws in colour; NO_COLOR draws attributes only, the selection in reverse video")
    func noColor() async throws {
        let coloured = parameters(try await styledScreen(environment: "env -u NO_COLOR"))
        #expect(coloured.contains("44"), "the header's blue background: \(coloured)")
        let plain = parameters(try await styledScreen(environment: "env NO_COLOR=1"))
        // 39 and 49 are "the default colour": tmux writes them around every run.
        let colours = plain.filter {
            ($0.hasPrefix("3") || $0.hasPrefix("4") || $0.hasPrefix("9")) && $0.count == 2 && $0 != "39"
                && $0 != "49"
        }
        #expect(colours.isEmpty, "no colour under NO_COLOR: \(plain)")
        #expect(plain.contains("7"), "the selection in reverse video: \(plain)")
        #expect(plain.contains("1"), "bold stays: \(plain)")
    }

    @Test("a color line changes what the terminal is sent")
    func configColour() async throws {
        let screen = parameters(
            try await styledScreen(environment: "env -u NO_COLOR", config: "color header black magenta\n"))
        #expect(screen.contains("45"), "the header's magenta background: \(screen)")
        #expect(!screen.contains("44"), "no blue header left: \(screen)")
    }

    @Test(
        "TERM=vt100 (no colours): the monochrome theme, the selection and header in reverse video, no colour")
    func monochromeTerminal() async throws {
        let screen = try await styledScreen(environment: "env -u NO_COLOR TERM=vt100")
        let found = parameters(screen)
        let colours = found.filter {
            ($0.hasPrefix("3") || $0.hasPrefix("4") || $0.hasPrefix("9")) && $0.count == 2 && $0 != "39"
                && $0 != "49"
        }
        #expect(colours.isEmpty, "no colour on a vt100: \(found)")
        #expect(!found.contains("5"), "no 256-colour sequences: \(found)")
        #expect(found.contains("7"), "reverse video: \(found)")
        #expect(found.contains("1"), "bold: \(found)")
        // The text reads as on any terminal.
        let lines = screen.split(separator: "\n").map {
            $0.replacingOccurrences(of: "\u{1b}\\[[0-9;]*m", with: "", options: .regularExpression)
        }
        #expect(lines.first?.contains("Herald · Feeds") == true, "\(lines.first ?? "")")
        #expect(lines.contains { $0.hasPrefix("> 1") }, "the selected feed: \(lines)")
        // The header's row is reversed: its first cell comes after a 7.
        let header = screen.split(separator: "\n").first.map(String.init) ?? ""
        #expect(
            header.hasPrefix("\u{1b}[")
                && parameters(String(header.prefix(while: { $0 != "H" }))).contains("7"),
            "\(header.debugDescription)")
    }

    @Test("256 colours reach a 256-colour terminal; an 8-colour terminal gets the nearest basic colour")
    func manyColours() async throws {
        let config = "color header color231 color19\n"
        let rich = parameters(
            try await styledScreen(environment: "env -u NO_COLOR TERM=xterm-256color", config: config))
        #expect(rich.contains("231") && rich.contains("19"), "38;5;231 and 48;5;19: \(rich)")
        let basic = parameters(
            try await styledScreen(environment: "env -u NO_COLOR TERM=xterm", config: config))
        #expect(!basic.contains("231") && !basic.contains("19"), "\(basic)")
        #expect(basic.contains("44"), "the deep blue drawn blue: \(basic)")
        #expect(basic.contains("37"), "white text: \(basic)")
    }
}
