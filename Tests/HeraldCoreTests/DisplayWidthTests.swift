import Testing

@testable import HeraldCore

@Suite("Display width")
struct DisplayWidthTests {
    @Test("ASCII letters take one column each")
    func asciiIsNarrow() {
        #expect(DisplayWidth.of("Herald") == 6)
    }

    @Test("Hangul syllables and CJK ideographs take two columns")
    func hangulAndCJKAreWide() {
        #expect(DisplayWidth.of("한글") == 4)
        #expect(DisplayWidth.of("日本語") == 6)
        #expect(DisplayWidth.of("カタカナ") == 8)
        #expect(DisplayWidth.of("ＡＢ") == 4)  // fullwidth forms
    }

    @Test("Hangul written as decomposed jamo is one wide grapheme")
    func decomposedHangul() {
        let decomposed = "\u{1112}\u{1161}\u{11AB}"  // 한 as three jamo
        #expect(decomposed.count == 1)
        #expect(DisplayWidth.of(decomposed) == 2)
    }

    @Test("emoji, skin tones, ZWJ families, flags and VS16 sequences take two columns", arguments: [
        "❤️", "👍🏽", "👨‍👩‍👧", "🇰🇷", "😀", "1️⃣",
    ])
    func emojiAreWide(_ emoji: String) {
        #expect(emoji.count == 1)
        #expect(DisplayWidth.of(emoji) == 2)
    }

    @Test("a heart without VS16 is text presentation and narrow")
    func textPresentationHeart() {
        #expect(DisplayWidth.of("\u{2764}") == 1)
    }

    @Test("combining marks join their base and add no width")
    func combiningMarks() {
        let text = "e\u{301}a\u{308}"  // é ä, decomposed
        #expect(text.count == 2)
        #expect(DisplayWidth.of(text) == 2)
    }

    @Test("a lone combining mark or a zero-width space takes no column")
    func zeroWidth() {
        #expect(DisplayWidth.of(Character("\u{301}")) == 0)
        #expect(DisplayWidth.of(Character("\u{200B}")) == 0)
    }
}
