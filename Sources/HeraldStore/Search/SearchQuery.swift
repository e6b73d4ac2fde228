import Foundation

/// What the user typed, turned into FTS5 queries that cannot fail to parse.
///
/// Every word is quoted, so FTS5 syntax typed by the user (`AND(`, `NEAR`, `*`, `:`, a lone
/// quote) is searched as text. Two pieces of syntax are understood, as in web search:
/// `"an exact phrase"` and `-word` to leave out articles with a word. The last word is a
/// prefix while the user is still typing it (no space after it yet). Words in CJK or Hangul
/// go to the character index as phrases of characters, which finds them anywhere.
///
/// The prefix is not left to FTS5 (`"gar"*` merges the match lists of every word starting
/// with "gar" in memory: 150 MB and 2.7 s for "g" over a million articles). The store looks
/// its first completions up in the index's vocabulary instead and asks for any of them, which
/// FTS5 reads lazily, newest first, like any word.
public struct SearchQuery: Sendable, Hashable {
    /// The MATCH expression for the word index, or nil.
    public var words: String?
    /// The MATCH expression for the character index, or nil.
    public var characters: String?
    /// The word still being typed, folded as the index folds it (lowercase, no accents),
    /// when its completions are to be looked up; `words` then holds `{prefix}` in its place.
    public var prefix: String?
    /// The `-words` alone (any of them), when `words` leaves them out: an article has a word
    /// when either of its texts has it (the feed's, or the whole article from its page), and
    /// each index knows only its own.
    public var exclusions: String?

    public static let prefixPlaceholder = "{prefix}"

    public var isEmpty: Bool { words == nil && characters == nil }

    /// The word expression with the prefix replaced by any of its completions; nil when the
    /// prefix completes to nothing (then nothing can match).
    public func words(completions: [String]) -> String? {
        guard let words else { return nil }
        guard prefix != nil else { return words }
        guard !completions.isEmpty else { return nil }
        let any = "(" + completions.map(Self.quote).joined(separator: " OR ") + ")"
        return words.replacingOccurrences(of: Self.prefixPlaceholder, with: any)
    }

    public init(_ input: String) {
        var wordTerms: [String] = []
        var wordExclusions: [String] = []
        var charTerms: [String] = []
        var charExclusions: [String] = []
        var prefix: String?
        let tokens = Self.tokenize(input)
        for (index, token) in tokens.enumerated() {
            let isLast = index == tokens.count - 1
            // Split a token into its CJK/Hangul runs and the rest ("KTX에서" → "KTX", "에서").
            var latin = ""
            var runs: [String] = []
            var run = ""
            for character in token.text {
                if CJKText.contains(String(character)) {
                    run.append(character)
                    latin.append(" ")
                } else {
                    if !run.isEmpty { runs.append(run); run = "" }
                    latin.append(character)
                }
            }
            if !run.isEmpty { runs.append(run) }
            for run in runs {
                let phrase = Self.quote(run.map(String.init).joined(separator: " "))
                if token.excluded { charExclusions.append(phrase) } else { charTerms.append(phrase) }
            }
            let words = token.isPhrase ? [latin] : latin.split(separator: " ").map(String.init)
            for (wordIndex, word) in words.enumerated() where Self.hasTokenCharacters(word) {
                var term = Self.quote(word)
                let endsInput = isLast && wordIndex == words.count - 1 && !token.isPhrase && !token.followedBySpace
                if endsInput && runs.isEmpty && !token.excluded {
                    let folded = Self.fold(word)
                    if folded.unicodeScalars.allSatisfy(Self.isWordScalar) {
                        prefix = folded
                        term = Self.prefixPlaceholder
                    } else {
                        term += "*"  // "a-b": several tokens; rare enough for FTS5's own prefix
                    }
                }
                if token.excluded { wordExclusions.append(term) } else { wordTerms.append(term) }
            }
        }
        self.prefix = prefix
        words = Self.expression(wordTerms, excluding: wordExclusions)
        exclusions = words == nil || wordExclusions.isEmpty ? nil : wordExclusions.joined(separator: " OR ")
        characters = Self.expression(charTerms, excluding: charExclusions)
        // Exclusions alone select nothing useful; a query with only exclusions of one kind
        // still narrows the other kind's matches.
        if wordTerms.isEmpty && charTerms.isEmpty { words = nil; characters = nil; self.prefix = nil }
        if wordTerms.isEmpty, !wordExclusions.isEmpty, characters != nil {
            // FTS5's NOT needs a left side; express "chars but not words" on the char side only.
            words = nil
        }
        if words == nil { exclusions = nil }
        if charTerms.isEmpty, !charExclusions.isEmpty, words != nil { characters = nil }
    }

    private static func expression(_ terms: [String], excluding: [String]) -> String? {
        guard !terms.isEmpty else { return nil }
        var expression = terms.joined(separator: " AND ")
        for exclusion in excluding { expression = "(\(expression)) NOT \(exclusion)" }
        return expression
    }

    /// Lowercase without diacritics, as `unicode61 remove_diacritics 2` folds.
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
    }

    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar.properties.numericType != nil
    }

    private static func quote(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static func hasTokenCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil }
    }

    struct Token {
        var text: String
        var isPhrase = false
        var excluded = false
        var followedBySpace = false
    }

    /// Words, `"phrases"` (an unclosed quote runs to the end) and `-exclusions`.
    static func tokenize(_ input: String) -> [Token] {
        var tokens: [Token] = []
        var current = Token(text: "")
        var inQuote = false
        var atStart = true
        func finish(space: Bool) {
            if !current.text.isEmpty {
                current.followedBySpace = space
                tokens.append(current)
            }
            current = Token(text: "")
            atStart = true
        }
        for character in input {
            if inQuote {
                if character == "\"" {
                    inQuote = false
                    finish(space: false)
                } else {
                    current.text.append(character)
                }
            } else if character.isWhitespace {
                finish(space: true)
            } else if character == "\"" && atStart {
                inQuote = true
                current.isPhrase = true
                atStart = false
            } else if character == "-" && atStart && !current.excluded {
                current.excluded = true
            } else {
                current.text.append(character)
                atStart = false
            }
        }
        finish(space: input.last?.isWhitespace == true)
        if let last = tokens.indices.last, input.last?.isWhitespace == true {
            tokens[last].followedBySpace = true
        }
        return tokens
    }
}
