import Foundation
import CNCursesW
import HeraldUI
import Testing

@testable import HeraldTerminal
import HeraldConfig

/// ncurses itself, with no tty: `newterm` on pipes, its screen read back cell by cell.
/// Only one ncurses screen exists at a time, so the suite runs serially on the main actor.
@Suite("ncurses, headless", .serialized)
@MainActor
struct HeadlessNCursesTests {
    /// A terminal writing to /dev/null and reading keys from a pipe the test writes to.
    final class PipeTerminal {
        let terminal: Terminal
        let keyWriter: FileHandle
        private let keyPipe = Pipe()

        @MainActor
        init(size: Size) throws {
            let null = open("/dev/null", O_WRONLY)
            terminal = try Terminal(
                inputFD: dup(keyPipe.fileHandleForReading.fileDescriptor), outputFD: null,
                type: "xterm-256color", size: size, installSignalHandlers: false)
            keyWriter = keyPipe.fileHandleForWriting
        }
    }

    /// What ncurses should hold, column by column, for a canvas cell: the grapheme as the
    /// terminal module reduces it for glibc's widths (a flag is two columns, 🇰 and 🇷).
    func expected(_ cell: Cell) -> [String] {
        let (clusters, pad) = TerminalGlyph.reduce(cell.grapheme, width: Int(cell.width))
        var columns: [String] = []
        for cluster in clusters {
            let text = String(String.UnicodeScalarView(cluster.compactMap(Unicode.Scalar.init)))
            columns.append(text)
            if wcwidth(wchar_t(cluster[0])) == 2 { columns.append(text) }  // ncurses repeats it
        }
        if pad { columns.append(" ") }
        return columns
    }

    func assertScreenMatches(_ canvas: Canvas, _ terminal: Terminal, sourceLocation: SourceLocation = #_sourceLocation) {
        var mismatches: [String] = []
        for y in 0..<canvas.size.height {
            var x = 0
            while x < canvas.size.width {
                let cell = canvas[x, y]
                for (offset, text) in expected(cell).enumerated() {
                    let physical = terminal.physicalCell(x: x + offset, y: y)
                    if physical.text != text || physical.bold != cell.style.bold {
                        mismatches.append("(\(x + offset),\(y)) canvas '\(cell.grapheme)' ncurses '\(physical.text)'")
                    }
                }
                x += max(Int(cell.width), 1)
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10).joined(separator: "\n"))", sourceLocation: sourceLocation)
    }

    @Test("ncurses holds what the canvas holds: Korean, Japanese, emoji, styles")
    func readBack() throws {
        let size = Size(width: 30, height: 6)
        let pipe = try PipeTerminal(size: size)
        defer { pipe.terminal.close() }
        #expect(pipe.terminal.size == size)
        let renderer = FrameRenderer(surface: pipe.terminal)

        var first = Canvas(size: size)
        first.write("Herald 한글 日本語", x: 0, y: 0, style: Style(bold: true))
        first.write("👍🏽 ❤️ 👨‍👩‍👧 🇰🇷 😀 é", x: 1, y: 1)
        first.write("끝까지 가는 줄의 마지막 칸에 넓은 글자", x: 0, y: 2)  // clipped at the edge
        first.write("\u{1b}]0;pwned\u{7}safe", x: 0, y: 3, style: Style(foreground: .red))
        first.write("e\u{301}a\u{308}", x: 28, y: 5)
        renderer.draw(first)
        assertScreenMatches(first, pipe.terminal)

        // A second frame goes through the diff: only changed cells are drawn.
        var second = first
        second.write("abc", x: 7, y: 0)  // over the first halves of 한 and 글
        second.write("日本", x: 0, y: 3)
        second.write(">", x: 0, y: 4, style: Style(foreground: .yellow, bold: true))
        renderer.draw(second)
        assertScreenMatches(second, pipe.terminal)
    }

    @Test("a full redraw after a resize matches the new canvas")
    func resize() throws {
        let pipe = try PipeTerminal(size: Size(width: 20, height: 4))
        defer { pipe.terminal.close() }
        let renderer = FrameRenderer(surface: pipe.terminal)
        var canvas = Canvas(size: Size(width: 20, height: 4))
        canvas.write("wide 한글 text", x: 0, y: 0)
        renderer.draw(canvas)
        pipe.terminal.resize(to: Size(width: 12, height: 3))
        #expect(pipe.terminal.size == Size(width: 12, height: 3))
        renderer.invalidate()
        var small = Canvas(size: pipe.terminal.size)
        small.write("한글 small", x: 0, y: 1)
        renderer.draw(small)
        assertScreenMatches(small, pipe.terminal)
    }

    @Test("keys written to the input pipe decode to Key values")
    func keyDecoding() throws {
        let pipe = try PipeTerminal(size: Size(width: 20, height: 4))
        defer { pipe.terminal.close() }
        // xterm-256color in keypad mode: arrows are ESC O A…, PgDn is ESC [ 6 ~.
        let bytes = "j\u{1b}OA\u{1b}OB\u{1b}OC\u{1b}OD\r\u{1b}[6~\u{1b}[5~\u{1b}OH\u{1b}OF한글\u{7f}\t\u{3}q"
        pipe.keyWriter.write(Data(bytes.utf8))
        var keys: [Key] = []
        let deadline = Date().addingTimeInterval(2)
        while keys.count < 16, Date() < deadline { keys += pipe.terminal.readKeys() }
        #expect(keys == [
            .character("j"), .up, .down, .right, .left, .enter, .pageDown, .pageUp, .home, .end,
            .character("한"), .character("글"), .backspace, .tab, .control("c"), .character("q"),
        ])
    }

    @Test("a lone Esc decodes as Escape after the short ESC delay")
    func loneEscape() throws {
        let pipe = try PipeTerminal(size: Size(width: 20, height: 4))
        defer { pipe.terminal.close() }
        pipe.keyWriter.write(Data("\u{1b}".utf8))
        var keys: [Key] = []
        let deadline = Date().addingTimeInterval(2)
        while keys.isEmpty, Date() < deadline { keys += pipe.terminal.readKeys() }
        #expect(keys == [.escape])
    }

    @Test("decomposed Hangul and emoji with modifiers arrive as one key each")
    func graphemeKeys() {
        #expect(KeyDecoder.characters([0x1112, 0x1161, 0x11AB]) == [.character("\u{1112}\u{1161}\u{11AB}")])
        #expect(KeyDecoder.characters([0x1F44D, 0x1F3FD, 0x61]) == [.character("👍🏽"), .character("a")])
    }
}
