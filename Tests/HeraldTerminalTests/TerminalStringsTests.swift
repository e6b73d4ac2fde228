import Foundation
import Testing

@testable import HeraldTerminal

@Suite("Clipboard and title strings")
struct TerminalStringsTests {
    let url = "https://example.org/a?b=1"
    var encoded: String { Data(url.utf8).base64EncodedString() }

    @Test("OSC 52 as it is on a plain terminal")
    func plain() {
        #expect(
            TerminalStrings.clipboard(url, environment: ["TERM": "xterm-256color"]) == [
                "\u{1b}]52;c;\(encoded)\u{07}"
            ])
    }

    @Test("inside tmux: plain, and wrapped for passthrough with every ESC doubled")
    func tmux() {
        let sent = TerminalStrings.clipboard(
            url, environment: ["TMUX": "/tmp/tmux-0/default,1,0", "TERM": "tmux-256color"])
        #expect(
            sent == [
                "\u{1b}]52;c;\(encoded)\u{07}", "\u{1b}Ptmux;\u{1b}\u{1b}]52;c;\(encoded)\u{07}\u{1b}\\",
            ])
    }

    @Test("inside GNU screen: through its DCS passthrough, in pieces of 76 characters")
    func screen() throws {
        let long = String(repeating: "https://example.org/", count: 10)
        let sent = try #require(TerminalStrings.clipboard(long, environment: ["STY": "123.pts-0.host"]).first)
        #expect(sent.hasPrefix("\u{1b}P\u{1b}]52;c;") && sent.hasSuffix("\u{07}\u{1b}\\"))
        let pieces = sent.dropFirst(9).dropLast(3).components(separatedBy: "\u{1b}\\\u{1b}P")
        #expect(pieces.count > 1 && pieces.allSatisfy { $0.count <= 76 })
        #expect(Data(base64Encoded: pieces.joined()).map { String(decoding: $0, as: UTF8.self) } == long)
    }

    @Test("titles only where the terminal shows them")
    func takesTitles() {
        #expect(
            TerminalStrings.takesTitles(term: "xterm-256color")
                && TerminalStrings.takesTitles(term: "tmux-256color"))
        #expect(!TerminalStrings.takesTitles(term: "linux") && !TerminalStrings.takesTitles(term: "vt100"))
    }

    @Test("the title is sanitised: no escape sequence of a feed's reaches the terminal")
    func title() {
        #expect(
            TerminalStrings.title("Herald · Evil\u{1b}]2;pwned\u{07} title")
                == "\u{1b}]2;Herald · Evil title\u{07}")
    }
}
