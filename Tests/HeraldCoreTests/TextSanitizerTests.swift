import Testing

@testable import HeraldCore

@Suite("Sanitising text from feeds")
struct TextSanitizerTests {
    @Test("an OSC title sequence loses its ESC and BEL")
    func oscIsDefused() {
        let clean = TextSanitizer.singleLine("Hi\u{1b}]0;pwned\u{7} there")
        #expect(!clean.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        #expect(clean == "Hi]0;pwned there")
    }

    @Test("CSI sequences, C1 controls and DEL are removed")
    func controlsAreRemoved() {
        let clean = TextSanitizer.singleLine("a\u{1b}[2Jb\u{9b}31mc\u{7f}d\u{85}e")
        #expect(clean == "a[2Jb31mcde")
    }

    @Test("bidi overrides and isolates are removed", arguments: [
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
        #expect(TextSanitizer.multiLine("a\r\nb\rc\n\td\u{1b}[0m") == "a\nb\nc\n\td[0m")
    }

    @Test("the fast byte scan finds every forbidden character in a body, and passes clean ones", arguments: [
        0x00, 0x07, 0x1B, 0x7F, 0x80, 0x85, 0x9B, 0x9F, 0x061C, 0x200E, 0x200F, 0x202A, 0x202E, 0x2066, 0x2069,
    ])
    func byteScan(_ value: Int) {
        let scalar = Unicode.Scalar(UInt32(value))!
        #expect(TextSanitizer.multiLine("한글\n\tx\(Character(scalar))y") == "한글\n\txy")
        #expect(TextSanitizer.multiLine("한글\n\t\u{2028}\u{A0}é") == "한글\n\t\u{2028}\u{A0}é")
    }

    @Test("clean text is returned unchanged")
    func cleanTextUnchanged() {
        let text = "한글 👍🏽 café"
        #expect(TextSanitizer.singleLine(text) == text)
    }
}
