/// Text that compresses as prose does (not a repeated phrase, which a library stores in a
/// few bytes): `count` words of 2 to 9 letters from a seeded generator, the same for the
/// same seed.
public enum ProseText {
    public static func words(seed: Int, count: Int = 500) -> String {
        var state = UInt64(seed + 1) &* 0x9E37_79B9_7F4A_7C15
        var words: [String] = []
        words.reserveCapacity(count)
        for _ in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(state >> 61) + 2
            let letters = (0..<length).map { index in
                Character(UnicodeScalar(97 + UInt8((state >> (UInt64(index) * 5 + 8)) % 26)))
            }
            words.append(String(letters))
        }
        return words.joined(separator: " ")
    }
}
