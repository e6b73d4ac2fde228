import Testing

@testable import HeraldCore

@Suite("Sanitising text from feeds")
struct TextSanitizerTests {
    @Test("an OSC title sequence goes whole, ESC to BEL")
    func oscIsDefused() {
        #expect(TextSanitizer.singleLine("Hi\u{1b}]0;pwned\u{7} there") == "Hi there")
    }

    @Test("CSI sequences go whole; C1 controls and DEL are removed")
    func controlsAreRemoved() {
        #expect(TextSanitizer.singleLine("a\u{1b}[2Jb\u{9b}31mc\u{7f}d\u{85}e") == "abcde")
        #expect(TextSanitizer.singleLine("\u{1b}[31mRed\u{1b}[0m") == "Red")
        #expect(TextSanitizer.singleLine("\u{1b}[?1049h\u{1b}[38;5;196mx\u{1b}[ q") == "x")
    }

    @Test("strings (OSC hyperlinks, DCS, APC) go up to their terminator, ESC \\ or C1 ST or BEL")
    func stringsGoWhole() {
        #expect(
            TextSanitizer.singleLine("see \u{1b}]8;;http://e\u{1b}\\link\u{1b}]8;;\u{1b}\\ now")
                == "see link now")
        #expect(
            TextSanitizer.singleLine("a\u{1b}Pdcs data\u{1b}\\b\u{9d}0;t\u{9c}c\u{1b}_apc\u{7}d") == "abcd")
    }

    @Test("two-byte escapes and charset designations go; an unterminated string ends at a line break")
    func otherEscapes() {
        #expect(TextSanitizer.singleLine("a\u{1b}cb\u{1b}(Bc\u{1b}7d") == "abcd")
        #expect(
            TextSanitizer.multiLine("a\u{1b}]0;never ends\nrest of the article") == "a\nrest of the article")
        // An ESC before a line break is not a sequence: the break stays.
        #expect(TextSanitizer.multiLine("a\u{1b}\nb") == "a\nb")
    }

    @Test(
        "bidi overrides and isolates are removed",
        arguments: [
            0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
        ])
    func bidiIsRemoved(_ value: Int) {
        let scalar = Unicode.Scalar(UInt32(value))!
        let clean = TextSanitizer.singleLine("abc\(Character(scalar))txt.exe")
        #expect(clean == "abctxt.exe")
    }

    @Test("line breaks and tabs become one space on a single line")
    func singleLineFolds() {
        #expect(TextSanitizer.singleLine("one\r\ntwo\tthree\n\nfour") == "one two three four")
    }

    @Test("a body keeps its line breaks and tabs, normalising CRLF and CR")
    func multiLineKeepsBreaks() {
        #expect(TextSanitizer.multiLine("a\r\nb\rc\n\td\u{1b}[0m") == "a\nb\nc\n\td")
    }

    @Test(
        "the fast byte scan finds every forbidden character in a body, and passes clean ones",
        arguments: [
            0x00, 0x07, 0x1B, 0x7F, 0x80, 0x85, 0x9B, 0x9F, 0x061C, 0x200E, 0x200F, 0x202A, 0x202E, 0x2066,
            0x2069,
        ])
    func byteScan(_ value: Int) {
        let scalar = Unicode.Scalar(UInt32(value))!
        // A line break ends any sequence the control may start.
        #expect(TextSanitizer.multiLine("한글\n\tx\(Character(scalar))\ny") == "한글\n\tx\ny")
        #expect(TextSanitizer.multiLine("한글\n\t\u{2028}\u{A0}é") == "한글\n\t\u{2028}\u{A0}é")
    }

    @Test("clean text is returned unchanged")
    func cleanTextUnchanged() {
        let text = "한글 👍🏽 café"
        #expect(TextSanitizer.singleLine(text) == text)
    }

    @Test("a control's stand-in (U+FDD0 + N) is the control: a sequence it starts goes whole")
    func standIns() {
        // Swift takes no noncharacter in a literal.
        func standIn(_ control: UInt32) -> String { String(Unicode.Scalar(0xFDD0 + control)!) }
        let (esc, bel) = (standIn(0x1B), standIn(0x07))
        #expect(TextSanitizer.singleLine("a\(esc)[31mb\(esc)]0;x\(bel)c") == "abc")
        #expect(TextSanitizer.multiLine("a\(standIn(0))\(standIn(0x1F))b\n") == "ab\n")
        #expect(TextSanitizer.isForbidden(Unicode.Scalar(0xFDEB)!))
        #expect(!TextSanitizer.isForbidden(Unicode.Scalar(0xFDF0)!))
    }

    @Test("HTML's references to controls are read as the controls, so the sanitiser takes their sequences")
    func htmlControlReferences() {
        #expect(HTMLText.process("<p>a &#27;[31mb&#x1B;[0m c &#10; &amp;#27;</p>").text == "a b c &#27;")
        #expect(ControlReferences.decoded("x &#27;y &#9; &#1234;") == "x \u{1B}y &#9; &#1234;")
    }
}
