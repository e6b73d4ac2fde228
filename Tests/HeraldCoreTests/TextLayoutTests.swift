import Testing

@testable import HeraldCore

@Suite("Truncating and wrapping")
struct TextLayoutTests {
    @Test("truncation ends with an ellipsis inside the budget")
    func truncates() {
        #expect(TextLayout.truncate("Hello, world", toWidth: 8) == "Hello, …")
        #expect(TextLayout.truncate("short", toWidth: 8) == "short")
    }

    @Test("truncation never splits a wide grapheme")
    func truncatesWide() {
        let cut = TextLayout.truncate("한국어 제목", toWidth: 6)
        #expect(DisplayWidth.of(cut) <= 6)
        #expect(cut == "한국…")
    }

    @Test("a tail is the end that fits; cut, it leaves a column for the marker and never splits a wide grapheme")
    func tails() {
        #expect(TextLayout.tail("short", toWidth: 8) == ("short", false))
        #expect(TextLayout.tail("exactly8", toWidth: 8) == ("exactly8", false))
        #expect(TextLayout.tail("Hello, world", toWidth: 8) == (", world", true))
        let wide = TextLayout.tail("한국어 제목", toWidth: 6)
        #expect(wide.cut && wide.text == " 제목" && DisplayWidth.of(wide.text) + 1 <= 6)
        #expect(TextLayout.tail("한국어제목", toWidth: 6) == ("제목", true), "5 columns: a wide grapheme is not split")
        #expect(TextLayout.tail("", toWidth: 4) == ("", false))
        #expect(TextLayout.tail("ab", toWidth: 0) == ("", true))
        // Its cost is the width's: the end of a text of a million graphemes.
        let long = String(repeating: "한", count: 1_000_000) + "end"
        #expect(TextLayout.tail(long, toWidth: 10) == ("한한한end", true))
    }

    @Test("words wrap at spaces within the width")
    func wrapsWords() {
        let lines = TextLayout.wrap("the quick brown fox jumps over the lazy dog", width: 10)
        #expect(lines == ["the quick", "brown fox", "jumps over", "the lazy", "dog"])
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 10 })
    }

    @Test("paragraphs keep one blank line between them")
    func paragraphs() {
        let lines = TextLayout.wrap("one\n\n\n\ntwo\n", width: 20)
        #expect(lines == ["one", "", "two"])
    }

    @Test("a URL longer than the line is cut at the edge")
    func longWord() {
        let url = "https://example.org/a/very/long/path"
        let lines = TextLayout.wrap("see \(url) now", width: 12)
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 12 })
        #expect(lines.joined().replacingOccurrences(of: " ", with: "") == "see\(url)now")
    }

    @Test("Korean wraps between words, Japanese between characters")
    func eastAsianWrapping() {
        let korean = TextLayout.wrap("한글 기술 일지 터미널", width: 10)
        #expect(korean == ["한글 기술", "일지", "터미널"])
        let japanese = TextLayout.wrap("日本語の文章を折り返す", width: 8)
        #expect(japanese == ["日本語の", "文章を折", "り返す"])
    }

    @Test("wrapping at any width keeps every line inside it", arguments: [1, 2, 3, 7, 40])
    func neverOverflows(_ width: Int) {
        let text = "Herald 한글 👍🏽 日本語 a-very-long-word-that-goes-on\n\n- item"
        for line in TextLayout.wrap(text, width: width) {
            #expect(DisplayWidth.of(line) <= max(width, 2))
        }
    }
}
