import Testing

@testable import HeraldStore

@Suite("CJK text for the character index")
struct CJKTextTests {
    @Test("indexed characters become one token each, runs separated by x")
    func characters() {
        #expect(CJKText.characters("東京タワーに行った") == "東 京 タ ワ ー に 行 っ た")
        #expect(CJKText.characters("서울역에서 KTX를 — 탔다") == "서 울 역 에 서 x 를 x 탔 다")
        #expect(CJKText.characters("café — naïve 🇰🇷 𠀋") == "𠀋")
        #expect(CJKText.characters("plain ASCII") == "")
        #expect(CJKText.characters("") == "")
    }

    @Test("the word index sees spaces where indexed characters were, everything else intact")
    func withoutIndexed() {
        #expect(CJKText.withoutIndexed("Tokyo 東京 café — 한국 👍🏽") == "Tokyo    café —    👍🏽")
        #expect(CJKText.withoutIndexed("plain ASCII, ü") == "plain ASCII, ü")
        #expect(CJKText.withoutIndexed("𠀋x") == " x")
    }

    @Test("agrees with a scalar-by-scalar reading on mixed text")
    func agrees() {
        let samples = ["a東b", "—한—", "ÄÖ😀日本語🇯🇵ひらがなカタカナ", "\u{1100}\u{1161}", "x\u{3400}y\u{FA00}z"]
        for text in samples {
            let expected = String(
                String.UnicodeScalarView(text.unicodeScalars.map { CJKText.isIndexed($0) ? " " : $0 }))
            #expect(CJKText.withoutIndexed(text) == expected)
        }
    }
}
