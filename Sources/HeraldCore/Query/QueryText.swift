import Foundation

/// Free words as the search index sees them, for matching in memory what the store finds
/// with FTS5: text folded as `unicode61 remove_diacritics 2` folds it (lowercase, no
/// accents) and split into words; CJK and Hangul characters apart, matched as runs.
public enum QueryText {
    /// Lowercase without diacritics (the same folding as the store's `SearchQuery.fold`).
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }

    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    /// The characters the store's character index holds (kept equal to `CJKText.isIndexed`
    /// in HeraldStore, which HeraldCore cannot see).
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

    /// The folded words of a text, CJK and Hangul left out (the word index's view).
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        for scalar in fold(text).unicodeScalars {
            if isWordScalar(scalar) && !isIndexed(scalar) {
                word.append(scalar)
            } else if !word.isEmpty {
                words.append(String(word))
                word = String.UnicodeScalarView()
            }
        }
        if !word.isEmpty { words.append(String(word)) }
        return words
    }

    /// A free word or phrase split as the store splits it: word sequences (each must occur
    /// as consecutive words) and CJK/Hangul runs (each must occur as a substring).
    struct Pattern {
        var sequences: [[String]] = []
        var runs: [String] = []
        /// The last word of the last sequence matches any word it begins.
        var lastIsPrefix = false

        init(_ free: FreeText) {
            var latin = ""
            var run = ""
            for character in free.text {
                if character.unicodeScalars.contains(where: QueryText.isIndexed) {
                    run.append(character)
                    latin.append(" ")
                } else {
                    if !run.isEmpty { runs.append(run) }
                    run = ""
                    latin.append(character)
                }
            }
            if !run.isEmpty { runs.append(run) }
            let parts = free.isPhrase ? [latin] : latin.split(separator: " ").map(String.init)
            sequences = parts.map(QueryText.words).filter { !$0.isEmpty }
            // As `SearchQuery`: only a bare word that ends the text, without CJK, completes.
            lastIsPrefix = free.isPrefix && runs.isEmpty && !sequences.isEmpty
        }

        var isEmpty: Bool { sequences.isEmpty && runs.isEmpty }
    }

    /// Whether `sequence` occurs as consecutive words of `words` (the last as a prefix).
    static func contains(_ words: [String], _ sequence: [String], lastIsPrefix: Bool) -> Bool {
        guard !sequence.isEmpty, words.count >= sequence.count else { return false }
        for start in 0...(words.count - sequence.count) {
            var found = true
            for (offset, wanted) in sequence.enumerated() {
                let word = words[start + offset]
                let isLast = offset == sequence.count - 1
                if !(word == wanted || (isLast && lastIsPrefix && word.hasPrefix(wanted))) {
                    found = false
                    break
                }
            }
            if found { return true }
        }
        return false
    }
}
