import Foundation
import HeraldUI
import Testing

@testable import HeraldTerminal
import HeraldConfig

/// Colours as ncurses holds them: 256 colours where the terminal has them, the nearest basic
/// colour where it has 8, and no more pairs than the terminal allows. In the serialized
/// ncurses suite: one ncurses screen at a time. (`swift test` sets NO_COLOR; these
/// terminals ignore it.)
extension HeadlessNCursesTests {
    func drawn(type: String, _ styles: [Style]) throws -> (Terminal, [(foreground: Int, background: Int)?]) {
        let null = open("/dev/null", O_WRONLY)
        let input = Pipe()
        let terminal = try Terminal(
            inputFD: dup(input.fileHandleForReading.fileDescriptor), outputFD: null, type: type,
            size: Size(width: 80, height: 24), installSignalHandlers: false, noColor: false)
        var canvas = Canvas(size: Size(width: 80, height: 24))
        for (index, style) in styles.enumerated() {
            canvas.write("x", x: index % 80, y: index / 80, style: style)
        }
        FrameRenderer(surface: terminal).draw(canvas)
        let colours = styles.indices.map { terminal.physicalColors(x: $0 % 80, y: $0 / 80) }
        return (terminal, colours)
    }

    @Test("a 256-colour terminal gets colour 208; an 8-colour one the nearest basic colour")
    func fittedColours() throws {
        let styles = [
            Style(foreground: TerminalColor(208), background: TerminalColor(19)),
            Style(foreground: .red), Style(foreground: TerminalColor(9)), Style(),
        ]
        let (rich, richColours) = try drawn(type: "xterm-256color", styles)
        #expect((try #require(richColours[0])) == (208, 19))
        #expect((try #require(richColours[1])) == (1, -1))
        #expect((try #require(richColours[2])) == (9, -1))
        #expect(richColours[3] == nil, "plain text uses the default pair")
        rich.close()
        let (basic, basicColours) = try drawn(type: "xterm", styles)
        #expect([1, 3].contains((try #require(basicColours[0])).foreground), "orange: red or yellow")
        #expect((try #require(basicColours[0])).background == 4, "deep blue: blue")
        #expect((try #require(basicColours[2])) == (1, -1), "bright red: red")
        #expect(basic.colorCount == 8)
        basic.close()
    }

    @Test("more colour combinations than the terminal has pairs: the rest fall back, nothing breaks")
    func pairLimit() throws {
        // 8 colours × 8 backgrounds and the default: an 8-colour xterm has 64 pairs.
        let styles = (0..<256).map {
            Style(foreground: TerminalColor(UInt8($0)), background: TerminalColor(UInt8(255 - $0)))
        }
        let (basic, colours) = try drawn(type: "xterm", styles)
        #expect(basic.pairsMade < 64)
        #expect(colours.allSatisfy { ($0?.foreground ?? 0) < 8 && ($0?.background ?? 0) < 8 })
        basic.close()
        let (rich, richColours) = try drawn(type: "xterm-256color", styles)
        #expect(rich.pairsMade == 256)
        #expect((try #require(richColours[100])) == (100, 155))
        rich.close()
    }

    @Test("TERM=vt100 has no colours: attributes only")
    func vt100() throws {
        let (terminal, colours) = try drawn(
            type: "vt100", [Style(foreground: .red, background: .cyan, bold: true)])
        #expect(terminal.colorCount == 0)
        #expect(colours[0] == nil)
        #expect(terminal.physicalCell(x: 0, y: 0).reverse, "a coloured background: reverse video")
        terminal.close()
    }
}
