import CNCursesW
import Glibc
public import HeraldUI

/// The interactive reader on the user's terminal: the reader's loop (`ReaderLoop`) fed by the
/// terminal.
///
/// The input thread wakes the loop when stdin is readable or a signal arrives; keys are
/// drained with ncurses on the main actor and handed to the app as events, and the app's
/// change requests coalesce into one frame (diffed, only changed cells drawn). Every way out of here, a
/// thrown error included, restores the terminal.
public enum ReaderSession {
    /// How the session ended: an exit status (0 after `q`, 128 + N after signal N).
    @MainActor
    public static func run(_ makeApp: @MainActor (Size) -> ReaderApp) async throws(TerminalError) -> Int32 {
        let terminal = try Terminal.open()
        defer { terminal.close() }
        let pump = InputPump(inputFD: 0, signalFD: terminal.signalFD)
        defer { pump.stop() }
        let app = makeApp(terminal.size)
        // Monochrome terminals and NO_COLOR: the app's monochrome theme.
        app.adapt(toColors: terminal.colorCount)
        let renderer = FrameRenderer(surface: terminal)
        // The window title names what is open; the user's own title comes back at the end.
        // Only on terminals known to take titles (a Linux console would not).
        let titles = TerminalStrings.takesTitles(term: getenv("TERM").map { String(cString: $0) } ?? "")
        if titles {
            terminal.sendControlSequence(TerminalStrings.saveTitle)
            terminal.setCrashReset(appending: TerminalStrings.restoreTitle)
        }
        defer { if titles { terminal.sendControlSequence(TerminalStrings.restoreTitle) } }
        var title = ""
        app.onChange = { [unowned app, unowned renderer] in
            renderer.setNeedsFrame { app.render() }
            if titles, app.windowTitle != title {
                title = app.windowTitle
                terminal.sendControlSequence(TerminalStrings.title(title))
            }
        }
        app.programs = TerminalPrograms(terminal: terminal, renderer: renderer, settings: app.settings)
        app.onRedraw = { terminal.repaint() }
        terminal.enableMouse(app.settings.mouse)
        // `:set` in the reader: the mouse, the browser and the player follow at once.
        let applySettings = app.onSettingsChange
        app.onSettingsChange = { [unowned app, unowned renderer] settings in
            applySettings(settings)
            app.programs = TerminalPrograms(terminal: terminal, renderer: renderer, settings: settings)
            terminal.enableMouse(settings.mouse)
        }
        pump.start()
        app.start()

        var events = pump.events.makeAsyncIterator()
        return await ReaderLoop.run(app) {
            switch await events.next(isolation: #isolation) {
            case .input?:
                let keys = terminal.readKeys()
                pump.resume()
                return keys.map { .key($0) }
            case .signal(SIGWINCH)?:
                terminal.resizeFromTTY()
                renderer.invalidate()
                return [.resized(terminal.size)]
            case .signal(let number)?:
                return [.end(128 + number)]
            case .hangup?:
                return [.end(128 + SIGHUP)]
            case nil:
                return nil
            }
        }
    }
}
