import CNCursesW
import Foundation
import HeraldUI
import HeraldConfig

/// Opens links with the user's `$BROWSER`, run directly (never through a shell).
///
/// `$BROWSER` may hold arguments (`firefox --new-tab`) and a `%s` for the URL; without one
/// the URL comes last. Only http and https links are opened: a link from a feed is hostile,
/// and one starting with `-` or naming a local file must never reach a browser's argv.
public enum BrowserCommand {
    public static func argv(browser: String, url: String) -> [String]? {
        guard isOpenable(url) else { return nil }
        return argv(browser, with: url)
    }

    /// The player's argv for a downloaded episode: an absolute path (it cannot pass for an
    /// option), in place of `%s` or last.
    public static func argv(player: String, file: String) -> [String]? {
        guard file.hasPrefix("/"), !file.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return nil
        }
        return argv(player, with: file)
    }

    /// The command's words, `argument` in place of `%s`, else last.
    private static func argv(_ command: String, with argument: String) -> [String]? {
        var words = command.split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return nil }
        if let index = words.firstIndex(where: { $0.contains("%s") }) {
            words[index] = words[index].replacingOccurrences(of: "%s", with: argument)
        } else {
            words.append(argument)
        }
        return words
    }

    public static func isOpenable(_ url: String) -> Bool {
        let lower = url.lowercased()
        return (lower.hasPrefix("http://") || lower.hasPrefix("https://"))
            && !url.unicodeScalars.contains { $0.value < 0x21 || $0.value == 0x7F }
    }

    /// Runs the command and waits; returns nil on success, else what went wrong.
    public static func run(_ argv: [String]) -> String? {
        var pointers: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        let status = pointers.withUnsafeBufferPointer { cn_spawn_wait($0.baseAddress!) }
        if status == -1 { return "could not run \(argv[0])" }
        if status & 0x7F != 0 { return "\(argv[0]) was killed by signal \(status & 0x7F)" }
        let code = (status >> 8) & 0xFF
        return code == 0 ? nil : "\(argv[0]) exited with status \(code)"
    }
}

/// The programs of a reader on a terminal: suspends the screen (a text browser or a player
/// takes the terminal), runs `$BROWSER` or the player, and gives the screen back, drawn
/// whole; copies with OSC 52; runs `notify-command` with its input and output on /dev/null
/// (nothing it prints reaches the screen), waited for on a thread of its own.
@MainActor
final class TerminalPrograms: ProgramRunning {
    let terminal: Terminal
    let renderer: FrameRenderer
    /// The config's `browser` and `player`, over the environment's.
    let settings: Settings

    init(terminal: Terminal, renderer: FrameRenderer, settings: Settings = Settings()) {
        self.terminal = terminal
        self.renderer = renderer
        self.settings = settings
    }

    private var browser: String {
        settings.browser ?? ProcessInfo.processInfo.environment["BROWSER"] ?? ""
    }

    func open(_ url: String) -> String? {
        guard !browser.isEmpty else {
            return "Set $BROWSER (or `set browser` in the config) to open links (e.g. w3m)."
        }
        return run(browser, url)
    }

    /// Media go to the player (the config's, else `$HERALD_PLAYER`: mpv, vlc …), else to the browser.
    func play(_ url: String) -> String? {
        let environment = ProcessInfo.processInfo.environment
        let player =
            settings.player ?? environment["HERALD_PLAYER"].flatMap { $0.isEmpty ? nil : $0 } ?? browser
        guard !player.isEmpty else { return "Set $HERALD_PLAYER (e.g. mpv) or $BROWSER to play media." }
        return run(player, url)
    }

    /// A downloaded episode to the player (the config's, else `$HERALD_PLAYER`).
    func play(file: String) -> String? {
        let player =
            settings.player ?? ProcessInfo.processInfo.environment["HERALD_PLAYER"].flatMap { $0.isEmpty ? nil : $0 }
        guard let player else { return "Set player in the config (or $HERALD_PLAYER), e.g. mpv, to play episodes." }
        guard let argv = BrowserCommand.argv(player: player, file: file) else { return "cannot play \(file)" }
        terminal.suspend()
        let failure = BrowserCommand.run(argv)
        terminal.resume()
        renderer.invalidate()
        return failure
    }

    func edit(file: String) -> String? {
        let environment = ProcessInfo.processInfo.environment
        let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        var argv = editor.split(whereSeparator: \.isWhitespace).map(String.init)
        argv.append(file)
        terminal.suspend()
        let failure = BrowserCommand.run(argv)
        terminal.resume()
        renderer.invalidate()
        return failure
    }

    /// OSC 52: the terminal (and tmux with `set-clipboard on`, and most terminals over ssh)
    /// puts the text on the system clipboard. The text travels base64-encoded, so nothing
    /// in it can act as a control sequence.
    func copy(_ text: String) -> String? {
        for sequence in TerminalStrings.clipboard(text, environment: ProcessInfo.processInfo.environment) {
            terminal.sendControlSequence(sequence)
        }
        return nil
    }

    func notify(_ command: String, newArticles: Int, feeds: Int) async -> String? {
        await NotifyCommand.run(command, newArticles: newArticles, feeds: feeds, quiet: true)
    }

    /// The text goes through a file only this user can read (the feed's words are never part
    /// of a shell line): the shell takes it as its input, then runs the user's command.
    func pipe(_ text: String, to command: String) -> String? {
        var template = Array((NSTemporaryDirectory() + "/herald-pipe-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { return "could not make a file for the text: \(String(cString: strerror(errno)))" }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        let written = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try written.write(contentsOf: Data(text.utf8))
            try written.close()
        } catch {
            return "could not write the text: \(error)"
        }
        terminal.suspend()
        let failure = BrowserCommand.run(["/bin/sh", "-c", "exec <\"$1\" && eval \"$2\"", "herald", path, command])
        terminal.resume()
        renderer.invalidate()
        return failure.map { $0.replacingOccurrences(of: "/bin/sh", with: "the command") }
    }

    func bookmark(_ command: String, arguments: [String]) async -> String? {
        await NotifyCommand.wait(
            ["/bin/sh", "-c", command + " \"$@\"", "herald"] + arguments,
            environment: ProcessInfo.processInfo.environment, quiet: true, name: "bookmark-cmd")
    }

    private func run(_ command: String, _ url: String) -> String? {
        guard let argv = BrowserCommand.argv(browser: command, url: url) else {
            return "Only http and https links are opened."
        }
        terminal.suspend()
        let failure = BrowserCommand.run(argv)
        terminal.resume()
        renderer.invalidate()
        return failure
    }
}
