import CNCursesW
import CTerminalSignals
import Glibc
public import HeraldUI
public import HeraldConfig

/// Why the terminal could not be opened.
public struct TerminalError: Error, Sendable, CustomStringConvertible {
    public var description: String
}

/// The ncurses screen. It lives on the main actor: every ncurses call in Herald is made here.
///
/// Opening it switches to the alternate screen with the modes a full-screen reader needs
/// (cbreak, noecho, keypad, nodelay, ESC delay 25 ms, default colours, hidden cursor);
/// `close()` undoes all of it and is safe to call more than once, from any exit path.
@MainActor
public final class Terminal: FrameSurface {
    public private(set) var size: Size
    /// The read end of the signal self-pipe (-1 for a terminal on pipes, in tests).
    public let signalFD: Int32
    private var screen: OpaquePointer?
    /// The stream ncurses writes to (for escape sequences ncurses has no call for).
    private var output: UnsafeMutablePointer<FILE>?
    private var window: UnsafeMutablePointer<WINDOW>?
    private var colorPairs: [Int: Int16] = [:]
    private var hasColors = false
    /// The colours the screen draws with: the terminal's (8, 16, 256…), or 0 for none (a
    /// terminal without colours, or `NO_COLOR` set).
    public private(set) var colorCount = 0
    private var defaultColors = false
    private let maxPairs: Int

    /// Opens the user's terminal on stdin/stdout.
    public static func open() throws(TerminalError) -> Terminal {
        guard isatty(0) == 1, isatty(1) == 1 else {
            throw TerminalError(description: "herald needs a terminal (stdin and stdout must be a tty)")
        }
        hs_save_tty_modes(0)
        return try Terminal(inputFD: 0, outputFD: 1, type: nil, size: nil)
    }

    /// Opens ncurses on any pair of file descriptors: the tty, or pipes in tests (`type` then
    /// names the terminal, and `size` replaces the tty's size). Signal handlers are installed
    /// only for the real terminal. `noColor` stands for `NO_COLOR` (nil: the environment's).
    public init(
        inputFD: Int32, outputFD: Int32, type: String?, size: Size?,
        installSignalHandlers: Bool = true, noColor: Bool? = nil
    ) throws(TerminalError) {
        TerminalLocale.ensureUTF8()
        let termType = type ?? (getenv("TERM").map { String(cString: $0) } ?? "xterm-256color")
        guard let input = fdopen(inputFD, "r"), let output = fdopen(outputFD, "w") else {
            throw TerminalError(description: "cannot open the terminal's streams")
        }
        switch cn_term_is_full_screen(termType, outputFD) {
        case 0:
            throw TerminalError(
                description: "terminal type '\(termType)' cannot move the cursor; herald needs a full-screen "
                    + "terminal (TERM=xterm-256color, screen-256color, tmux-256color…)")
        case -1:
            throw TerminalError(description: "cannot open terminal type '\(termType)' (is TERM right?)")
        default: break
        }
        guard let screen = newterm(termType, output, input) else {
            throw TerminalError(description: "cannot open terminal type '\(termType)' (is TERM right?)")
        }
        set_term(screen)
        self.screen = screen
        self.output = output
        if let size { resizeterm(Int32(size.height), Int32(size.width)) }
        window = cn_stdscr()
        cbreak()
        noecho()
        nonl()
        intrflush(window, false)
        keypad(window, true)
        nodelay(window, true)
        leaveok(window, true)
        set_escdelay(25)
        curs_set(0)
        // NO_COLOR (no-color.org) and terminals without colours: attributes only; the reader
        // switches to its monochrome theme (`ReaderApp.adapt(toColors:)`).
        let noColor = noColor ?? getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
        if has_colors(), !noColor {
            start_color()
            hasColors = true
            defaultColors = use_default_colors() == cn_ok()
            colorCount = Int(cn_colors())
        }
        maxPairs = Int(cn_color_pairs())
        self.size = Size(width: Int(cn_cols()), height: Int(cn_lines()))
        signalFD = installSignalHandlers ? hs_install_signal_handlers() : -1
        if installSignalHandlers { setCrashReset() }
    }

    /// Gives the crash handler the bytes that undo this terminal's modes (terminfo's, where
    /// it has them), then `extra` (the window title saved at the start, say).
    public func setCrashReset(appending extra: String = "") {
        let bytes = Array((Self.crashReset() + extra).utf8)
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { hs_set_crash_reset($0.baseAddress, $0.count) }
        }
    }

    /// Attributes off, mouse reporting and bracketed paste off (terminfo has no strings for
    /// them), keypad and cursor keys back to normal, the cursor shown, the alternate screen
    /// left.
    private static func crashReset() -> String {
        func capability(_ name: String, _ fallback: String) -> String {
            guard let value = cn_terminfo_string(name) else { return fallback }
            // Padding (`$<5>`) is for printing terminals: drop it.
            var text = String(cString: value)[...]
            var kept = ""
            while let start = text.firstRange(of: "$<"), let end = text[start.upperBound...].firstIndex(of: ">") {
                kept += text[..<start.lowerBound]
                text = text[text.index(after: end)...]
            }
            return kept + text
        }
        return capability("sgr0", "\u{1b}[0m")
            + "\u{1b}[?1000l\u{1b}[?1002l\u{1b}[?1003l\u{1b}[?1006l\u{1b}[?1015l\u{1b}[?2004l"
            + capability("rmkx", "\u{1b}[?1l\u{1b}>") + capability("cnorm", "\u{1b}[?25h")
            + capability("rmcup", "\u{1b}[?1049l") + "\r\n"
    }

    /// Restores the terminal: leaves the alternate screen, shows the cursor, resets modes.
    public func close() {
        guard let screen else { return }
        set_term(screen)
        curs_set(1)
        endwin()
        delscreen(screen)
        self.screen = nil
        window = nil
        if signalFD >= 0 { hs_reset_signal_handlers() }
    }

    public var isOpen: Bool { screen != nil }

    /// Gives the terminal to another program (a text browser): leaves the alternate screen
    /// and restores the tty modes until `resume()`.
    public func suspend() {
        guard screen != nil else { return }
        def_prog_mode()
        endwin()
    }

    /// Paints the whole screen again from what ncurses knows it holds (`wrefresh(curscr)`):
    /// what another program wrote over it goes.
    public func repaint() {
        guard window != nil else { return }
        wrefresh(cn_curscr())
    }

    /// Takes the terminal back after `suspend()`; the next frame must be drawn whole.
    public func resume() {
        guard let window else { return }
        reset_prog_mode()
        curs_set(0)
        clearok(window, true)
        wrefresh(window)
    }

    /// Sends bytes to the terminal outside ncurses' screen model: sequences that draw
    /// nothing (OSC 52, which sets the clipboard). Feed data never reaches here unencoded.
    public func sendControlSequence(_ sequence: String) {
        guard screen != nil, let output else { return }
        fputs(sequence, output)
        fflush(output)
    }

    // MARK: Drawing

    public func present(_ changes: [CellChange], clear: Bool) {
        guard let window else { return }
        if clear { werase(window) }
        var chars = [wchar_t](repeating: 0, count: Int(cn_ccharw_max()) + 1)
        var cell = cchar_t()
        var blank = cchar_t()
        for change in changes {
            let (clusters, pad) = TerminalGlyph.reduce(change.cell.grapheme, width: Int(change.cell.width))
            let (attrs, pair) = attributes(change.cell.style)
            var x = Int32(change.x)
            for cluster in clusters {
                for (i, scalar) in cluster.enumerated() { chars[i] = wchar_t(bitPattern: scalar) }
                chars[cluster.count] = 0
                cn_setcchar(&cell, chars, attrs, pair)
                mvwadd_wch(window, Int32(change.y), x, &cell)
                x += max(wcwidth(chars[0]), 1)
            }
            if pad {
                cn_setcchar(&blank, [32, 0], attrs, pair)
                mvwadd_wch(window, Int32(change.y), x, &blank)
            }
        }
        wnoutrefresh(window)
        doupdate()
    }

    private func attributes(_ style: Style) -> (attr_t, Int16) {
        var attrs = cn_a_normal()
        if style.bold { attrs |= cn_a_bold() }
        if style.reverse { attrs |= cn_a_reverse() }
        if style.underline { attrs |= cn_a_underline() }
        if style.dim { attrs |= cn_a_dim() }
        if style.italic { attrs |= cn_a_italic() }
        // Without colours, a coloured background (the selection bar) becomes reverse video.
        if !hasColors, style.background != .default { attrs |= cn_a_reverse() }
        return (attrs, pair(style.foreground, style.background))
    }

    /// Colour pairs are made on first use: one per foreground/background combination, of
    /// the colours the terminal has (`TerminalColor.fitted(toColors:)`: a 256-colour style
    /// on an 8-colour terminal takes the nearest basic colour). When the terminal's pairs run
    /// out, a new combination is drawn in the nearest basic colours' pair, else uncoloured.
    private func pair(_ foreground: TerminalColor, _ background: TerminalColor) -> Int16 {
        guard hasColors else { return 0 }
        let fg = foreground.fitted(toColors: colorCount) ?? .default
        let bg = background.fitted(toColors: colorCount) ?? .default
        guard fg != .default || bg != .default else { return 0 }
        let key = Self.pairKey(fg, bg)
        if let pair = colorPairs[key] { return pair }
        let number = colorPairs.count + 1
        // init_pair takes a short, whatever COLOR_PAIRS says.
        guard number < min(maxPairs, Int(Int16.max)) else {
            guard colorCount > 16 else { return 0 }
            let basic = (fg.fitted(toColors: 16) ?? .default, bg.fitted(toColors: 16) ?? .default)
            return colorPairs[Self.pairKey(basic.0, basic.1)] ?? 0
        }
        func curses(_ color: TerminalColor, fallback: Int16) -> Int16 {
            color.index.map { Int16($0) } ?? (defaultColors ? -1 : fallback)
        }
        init_pair(Int16(number), curses(fg, fallback: 7), curses(bg, fallback: 0))
        colorPairs[key] = Int16(number)
        return Int16(number)
    }

    private static func pairKey(_ foreground: TerminalColor, _ background: TerminalColor) -> Int {
        func code(_ color: TerminalColor) -> Int { color.index.map { Int($0) + 1 } ?? 0 }
        return code(foreground) * 257 + code(background)
    }

    // MARK: Input

    /// Drains every key ncurses has (it reads the tty itself, in nodelay mode).
    public func readKeys() -> [Key] {
        guard let window else { return [] }
        var keys: [Key] = []
        var pending: [UInt32] = []
        var wch: wint_t = 0
        while true {
            let result = wget_wch(window, &wch)
            if result == cn_key_code_yes() {
                keys += KeyDecoder.characters(pending)
                pending.removeAll()
                if Int32(wch) == cn_key_mouse() {
                    if let event = Self.mouseEvent() { keys.append(.mouse(event)) }
                } else if let key = KeyDecoder.functionKey(Int32(wch)) {
                    keys.append(key)
                }
            } else if result == cn_ok() {
                pending.append(UInt32(wch))
            } else {
                break
            }
        }
        keys += KeyDecoder.characters(pending)
        return keys
    }

    /// Turns mouse reporting on (the wheel, clicks and double clicks come as keys) or off
    /// (the terminal keeps the mouse, to select text).
    public func enableMouse(_ on: Bool) {
        guard screen != nil else { return }
        cn_mouse_enable(on ? 1 : 0)
    }

    private static func mouseEvent() -> MouseEvent? {
        var x: Int32 = 0
        var y: Int32 = 0
        let kind: MouseEvent.Kind
        switch cn_get_mouse(&x, &y) {
        case 1: kind = .click
        case 2: kind = .doubleClick
        case 3: kind = .wheelUp
        case 4: kind = .wheelDown
        default: return nil
        }
        return MouseEvent(kind, x: Int(x), y: Int(y))
    }

    /// Reads the tty's size after SIGWINCH and resizes ncurses to it. True if it changed.
    @discardableResult
    public func resizeFromTTY() -> Bool {
        var rows: Int32 = 0
        var cols: Int32 = 0
        guard cn_winsize(1, &rows, &cols) == 0 || cn_winsize(0, &rows, &cols) == 0 else { return false }
        return resize(to: Size(width: Int(cols), height: Int(rows)))
    }

    /// Resizes ncurses' screens; the next frame is drawn whole.
    @discardableResult
    public func resize(to newSize: Size) -> Bool {
        guard screen != nil else { return false }
        resizeterm(Int32(newSize.height), Int32(newSize.width))
        // resizeterm queues KEY_RESIZE for wget_wch; the caller already knows.
        size = Size(width: Int(cn_cols()), height: Int(cn_lines()))
        return true
    }

    /// The colours of a cell on ncurses' physical screen: its pair's foreground and
    /// background (-1: the default colour), nil for the default pair. For tests.
    public func physicalColors(x: Int, y: Int) -> (foreground: Int, background: Int)? {
        var cell = cchar_t()
        mvwin_wch(cn_curscr(), Int32(y), Int32(x), &cell)
        var chars = [wchar_t](repeating: 0, count: Int(cn_ccharw_max()) + 1)
        var attrs: attr_t = 0
        var pair: Int16 = 0
        cn_getcchar(&cell, &chars, &attrs, &pair)
        guard pair > 0 else { return nil }
        var foreground: Int16 = 0
        var background: Int16 = 0
        pair_content(pair, &foreground, &background)
        return (Int(foreground), Int(background))
    }

    /// How many colour pairs have been made so far.
    public var pairsMade: Int { colorPairs.count }

    /// Reads a cell back from what ncurses believes is on the physical screen (`curscr`):
    /// its characters, and whether it is bold and reversed. For tests.
    public func physicalCell(x: Int, y: Int) -> (text: String, bold: Bool, reverse: Bool) {
        var cell = cchar_t()
        mvwin_wch(cn_curscr(), Int32(y), Int32(x), &cell)
        var chars = [wchar_t](repeating: 0, count: Int(cn_ccharw_max()) + 1)
        var attrs: attr_t = 0
        var pair: Int16 = 0
        cn_getcchar(&cell, &chars, &attrs, &pair)
        var text = String.UnicodeScalarView()
        for c in chars {
            guard c != 0, let scalar = Unicode.Scalar(UInt32(bitPattern: c)) else { break }
            text.append(scalar)
        }
        return (String(text), attrs & cn_a_bold() != 0, attrs & cn_a_reverse() != 0)
    }
}
