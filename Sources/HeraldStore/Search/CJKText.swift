/// The CJK and Hangul characters of a text, one per token, for the character index.
///
/// Japanese and Chinese are written without spaces, and Korean glues particles to words
/// (한국어를), so word tokenizers miss most substrings. Indexing each such character as a
/// token and querying a phrase of characters finds any substring of any length, one
/// character included. Runs are separated by a token no query contains (`x`), so a phrase
/// never matches across two runs.
enum CJKText {
    static func isIndexed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7A3,  // Hangul
            0x3040...0x309F, 0x30A0...0x30FF, 0x31F0...0x31FF,  // kana
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FFFF:  // Han
            true
        default:
            false
        }
    }

    /// `"東京タワーに行った"` → `"東 京 タ ワ ー に 行 っ た"`; runs joined by ` x `.
    static func characters(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var inRun = false
        var any = false
        for scalar in text.unicodeScalars {
            if isIndexed(scalar) {
                if any { out.append(" ") }
                if !inRun && any { out.append(contentsOf: "x ".unicodeScalars) }
                out.append(scalar)
                inRun = true
                any = true
            } else {
                inRun = false
            }
        }
        return String(out)
    }

    /// The text with every character the character index covers replaced by a space: what
    /// the word index sees.
    static func withoutIndexed(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isIndexed) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { out.append(isIndexed(scalar) ? " " : scalar) }
        return String(out)
    }

    /// True when a query word holds characters the character index answers for.
    static func contains(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.contains(where: isIndexed)
    }
}
