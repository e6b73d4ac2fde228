import Testing

@testable import HeraldUI

/// Highlight ranges and prompt editing: plain text in, plain text out.
@Suite("Search text")
struct SearchTextTests {
    @Test("highlighting ignores case and diacritics")
    func caseAndDiacritics() {
        #expect(SearchHighlight.ranges(of: "cafe", in: "Le Café du CAFE") == [3..<7, 11..<15])
        #expect(SearchHighlight.ranges(of: "CAFÉ", in: "cafe") == [0..<4])
        // A decomposed é (e + combining acute) is one grapheme, highlighted whole.
        #expect(SearchHighlight.ranges(of: "e", in: "Cafe\u{301}!") == [3..<4])
    }

    @Test("every word of the query is highlighted, overlapping matches merged")
    func severalWords() {
        let title = "Reading the Spring Tide Tables"
        #expect(SearchHighlight.ranges(of: "tide  table", in: title) == [19..<23, 24..<29])
        #expect(SearchHighlight.ranges(of: "term terminal", in: "a terminal") == [2..<10])
        #expect(SearchHighlight.ranges(of: "ab", in: "abab ab") == [0..<4, 5..<7])
        #expect(SearchHighlight.ranges(of: "zebra", in: title).isEmpty)
        #expect(SearchHighlight.ranges(of: "   ", in: title).isEmpty)
        // Phrase quotes are not text; an excluded word is not in the results to highlight.
        #expect(SearchHighlight.ranges(of: "\"spring tide\" -reading", in: title) == [12..<18, 19..<23])
    }

    @Test("Korean words are found by grapheme, with emoji and mixed scripts around them")
    func korean() {
        let title = "터미널에서 한글이 깨질 때: wcwidth와 East Asian Width 정리 🇰🇷"
        #expect(SearchHighlight.ranges(of: "한글", in: title) == [6..<8])
        #expect(SearchHighlight.ranges(of: "한글 width", in: title) == [6..<8, 18..<23, 36..<41])
        #expect(SearchHighlight.ranges(of: "정리", in: title) == [42..<44])
    }

    @Test("typing appends graphemes; controls and bidi overrides never reach the query")
    func typing() {
        #expect(QueryEditing.edit("ab", with: .character("한")) == "ab한")
        #expect(QueryEditing.edit("ab", with: .character(" ")) == "ab ")
        #expect(QueryEditing.edit("ab", with: .character("\u{202E}")) == "ab")
        #expect(QueryEditing.edit("ab", with: .character("👍🏽")) == "ab👍🏽")
        #expect(QueryEditing.edit("ab", with: .down) == nil)
        #expect(QueryEditing.edit("ab", with: .enter) == nil)
    }

    @Test("Backspace deletes a grapheme, Ctrl-W a word, Ctrl-U everything")
    func deleting() {
        #expect(QueryEditing.edit("한글👍🏽", with: .backspace) == "한글")
        #expect(QueryEditing.edit("", with: .backspace) == "")
        #expect(QueryEditing.edit("tide tables  ", with: .control("w")) == "tide ")
        #expect(QueryEditing.edit("tide", with: .control("w")) == "")
        #expect(QueryEditing.edit("한글 기술", with: .control("w")) == "한글 ")
        #expect(QueryEditing.edit("tide tables", with: .control("u")) == "")
    }
}
