import Testing

@testable import HeraldCore

@Suite("XML feed text: the byte scan for clean lines agrees with the Character-level reading")
struct XMLFeedTextFastPathTests {
    /// Pieces of titles: words in several scripts, and every kind of character the scan must
    /// send to the Character-level reading (controls, bidi, non-ASCII spaces, combining marks
    /// and a prepended concatenation mark next to spaces).
    static let pieces = [
        "word", "Café", "naïve", "바다", "東京", "ことば", "«", "»", "©", "—", "“quoted”", "…", "@", "(Jo)", " ",
        "  ",
        "\t", "\n", "\r\n", "\u{1B}", "\u{7F}", "\u{85}", "\u{A0}", "\u{9F}", "\u{61C}", "\u{1680}",
        "\u{2003}",
        "\u{200B}", "\u{200D}", "\u{200E}", "\u{2028}", "\u{202E}", "\u{202F}", "\u{205F}", "\u{2067}",
        "\u{3000}",
        "\u{301}", "e\u{301}", "\u{600}", "\u{1F44D}\u{1F3FD}", "\u{1F468}\u{200D}\u{1F469}", "\u{200C}",
        "\u{20DD}", "\u{3099}", "\u{483}", "\u{93E}", "\u{E33}", "\u{AD}", "\u{1F3FB}", "Ωμέγα", "Жук", "€",
        "™",
        "\u{A66F}", "\u{A8E0}", "\u{D7B0}", "\u{2061}",
    ]

    @Test("oneLine answers as the Character-level reading on mixed text")
    func oneLineAgrees() {
        var state: UInt64 = 1
        var clean = 0
        for _ in 0..<20_000 {
            var text = ""
            for _ in 0..<(1 + Int(state % 6)) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                // Mostly words and single spaces, so that many texts are clean.
                let pick = Int((state >> 33) % UInt64(Self.pieces.count * 3))
                text +=
                    pick < Self.pieces.count
                    ? Self.pieces[pick] : (pick % 2 == 0 ? " " : Self.pieces[pick % 12])
            }
            #expect(
                XMLFeedText.oneLine(text) == XMLFeedText.oneLineByCharacters(text), "\(text.debugDescription)"
            )
            if XMLFeedText.isOneCleanLine(text.utf8) { clean += 1 }
        }
        #expect(clean > 2_000)
    }

    @Test(
        "texts the scan calls clean",
        arguments: [
            "Hello world", "바다 도시", "東京の駅", "Zoë Müller", "“Quoted” — dash…", "Ωμέγα Жук", "«Titre» ©", "5 €",
        ])
    func clean(text: String) {
        #expect(XMLFeedText.isOneCleanLine(text.utf8))
    }

    @Test(
        "texts the scan leaves to the Character-level reading",
        arguments: [
            " lead", "trail ", "two  spaces", "tab\there", "nb\u{A0}sp", "ideographic\u{3000}space",
            "rlo\u{202E}x",
            "space \u{301}mark", "",
        ])
    func notClean(text: String) {
        #expect(!XMLFeedText.isOneCleanLine(text.utf8) || text.isEmpty)
        #expect(XMLFeedText.oneLine(text) == XMLFeedText.oneLineByCharacters(text))
    }
}
