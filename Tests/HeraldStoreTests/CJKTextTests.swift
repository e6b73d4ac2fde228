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

    @Test("both splits agree with a scalar-by-scalar reading on generated mixed text")
    func agreesOnGeneratedText() {
        let pool: [Unicode.Scalar] = [
            "a", " ", "Z", "\n", "é", "—", "東", "京", "한", "국", "タ", "に", "😀", "\u{1100}", "\u{3130}",
            "\u{FA00}", "\u{20000}", "\u{2FFFF}", "\u{30000}", "\u{E000}", "ü", "\u{0800}", "\u{1000}",
        ]
        var state: UInt64 = 42
        for _ in 0..<500 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int(state % 40) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                scalars.append(pool[Int(state >> 33) % pool.count])
            }
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let text = String(scalars)
            let spaced = String(
                String.UnicodeScalarView(text.unicodeScalars.map { CJKText.isIndexed($0) ? " " : $0 }))
            #expect(CJKText.withoutIndexed(text) == spaced)
            // Runs of indexed characters, one token each, runs joined by x.
            var runs: [[String]] = []
            var inRun = false
            for scalar in text.unicodeScalars {
                if CJKText.isIndexed(scalar) {
                    if inRun {
                        runs[runs.count - 1].append(String(scalar))
                    } else {
                        runs.append([String(scalar)])
                    }
                    inRun = true
                } else {
                    inRun = false
                }
            }
            #expect(
                CJKText.characters(text) == runs.map { $0.joined(separator: " ") }.joined(separator: " x "))
        }
    }
}
