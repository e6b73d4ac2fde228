import CNCursesW
import Glibc
public import HeraldUI

/// The interactive reader on the user's terminal: the main loop of the concurrency contract.
///
/// The input thread wakes this loop when stdin is readable or a signal arrives; keys are
/// drained with ncurses on the main actor, handed to the app, and the app's change requests
/// coalesce into one frame (diffed, only changed cells drawn). Every way out of here, a
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
        app.linkOpener = TerminalLinkOpener(terminal: terminal, renderer: renderer, settings: app.settings)
        terminal.enableMouse(app.settings.mouse)
        // `:set` in the reader: the mouse, the browser and the player follow at once.
        let applySettings = app.onSettingsChange
        app.onSettingsChange = { [unowned app, unowned renderer] settings in
            applySettings(settings)
            app.linkOpener = TerminalLinkOpener(terminal: terminal, renderer: renderer, settings: settings)
            terminal.enableMouse(settings.mouse)
        }
        pump.start()
        app.start()

        for await event in pump.events {
            switch event {
            case .input:
                let keys = terminal.readKeys()
                pump.resume()
                for key in keys where !app.isFinished { app.handle(key) }
            case .signal(SIGWINCH):
                terminal.resizeFromTTY()
                app.size = terminal.size
                renderer.invalidate()
                app.handle(.resize)
            case .signal(let number):
                return 128 + number
            case .hangup:
                return 128 + SIGHUP
            }
            if app.isFinished { return 0 }
        }
        return 0
    }
}
