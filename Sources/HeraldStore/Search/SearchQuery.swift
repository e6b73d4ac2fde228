/// What the user typed, turned into FTS5 queries that cannot fail to parse.
///
/// Every word is quoted, so FTS5 syntax typed by the user (`AND(`, `NEAR`, `*`, `:`, a lone
/// quote) is searched as text. Two pieces of syntax are understood, as in web search:
/// `"an exact phrase"` and `-word` to leave out articles with a word. The last word is a
/// prefix while the user is still typing it (no space after it yet). Words in CJK or Hangul
/// go to the character index as phrases of characters, which finds them anywhere.
public struct SearchQuery: Sendable, Hashable {
    /// The MATCH expression for the word index, or nil.
    public var words: String?
    /// The MATCH expression for the character index, or nil.
    public var characters: String?

    public var isEmpty: Bool { words == nil && characters == nil }

    public init(_ input: String) {
        var wordTerms: [String] = []
        var wordExclusions: [String] = []
        var charTerms: [String] = []
        var charExclusions: [String] = []
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
                if endsInput && runs.isEmpty { term += "*" }
                if token.excluded { wordExclusions.append(term) } else { wordTerms.append(term) }
            }
        }
        words = Self.expression(wordTerms, excluding: wordExclusions)
        characters = Self.expression(charTerms, excluding: charExclusions)
        // Exclusions alone select nothing useful; a query with only exclusions of one kind
        // still narrows the other kind's matches.
        if wordTerms.isEmpty && charTerms.isEmpty { words = nil; characters = nil }
        if wordTerms.isEmpty, !wordExclusions.isEmpty, characters != nil {
            // FTS5's NOT needs a left side; express "chars but not words" on the char side only.
            words = nil
        }
        if charTerms.isEmpty, !charExclusions.isEmpty, words != nil { characters = nil }
    }

    private static func expression(_ terms: [String], excluding: [String]) -> String? {
        guard !terms.isEmpty else { return nil }
        var expression = terms.joined(separator: " ")
        for exclusion in excluding { expression = "(\(expression)) NOT \(exclusion)" }
        return expression
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
