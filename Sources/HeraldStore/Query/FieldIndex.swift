import Foundation

/// The trigram index of titles and authors (`articles_fields`, migration 11), which narrows
/// `title:`/`author:` to a few candidate rows before the exact test (`herald_contains`,
/// `REGEXP`) runs on them. The index only narrows; what matches is decided as before.
///
/// It holds each title and author canonically decomposed (NFD), and its tokenizer folds case
/// as SQLite's tables do. A text that contains the needle (as `QueryPattern.contains`
/// decides: lowercased, compared as characters, so `é` typed finds `e` + U+0301 too) then
/// holds the needle's trigrams in the index. For the few scripts whose case SQLite's tables
/// do not know (Georgian capitals, Cherokee …) the phrase is cut at such letters, so the
/// index still finds a superset. A needle with no run of three characters left (`title:ab`,
/// `author:김`) is not narrowed: its term scans as before.
///
/// A regular expression (ICU, case-insensitive, with full case folding: `ss` matches `ß`,
/// `fi` matches `ﬁ`) is narrowed by the literal runs every match must contain, read from
/// the pattern conservatively: a pattern with `|` at its top level, inline flags or escapes
/// that stand for other characters gives none. Letters that a ligature or `ß` could stand
/// for (`ss`, `st`, `ff`, `fi`, `fl`) are left out of the runs.
enum FieldIndex {
    /// What the index holds for a title or an author.
    static func indexed(_ text: String) -> String {
        text.utf8.allSatisfy { $0 < 0x80 } ? text : text.decomposedStringWithCanonicalMapping
    }

    /// The FTS5 expression for the candidates of a pattern on `column` (`title`, `author`),
    /// or nil when the pattern cannot be narrowed.
    static func match(column: String, pattern: QueryPatternRuns) -> String? {
        guard !pattern.runs.isEmpty else { return nil }
        let phrases = pattern.runs.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        return "{\(column)} : (" + phrases.joined(separator: " AND ") + ")"
    }

    /// The runs of at least three characters (Unicode scalars, as the trigram tokenizer
    /// counts them) that a text containing `needle` holds.
    static func runs(containing needle: String) -> QueryPatternRuns {
        let decomposed = needle.lowercased().decomposedStringWithCanonicalMapping
        return QueryPatternRuns(
            split(decomposed.unicodeScalars.map { isFolded($0) ? $0 : nil }).filter(isLong))
    }

    /// The runs every match of the regular expression holds (none when it cannot tell).
    static func runs(regex pattern: String) -> QueryPatternRuns {
        guard let literals = RegexLiterals.required(pattern) else { return QueryPatternRuns([]) }
        var runs: [String] = []
        for literal in literals {
            let scalars = Array(literal.lowercased().unicodeScalars)
            var kept: [Unicode.Scalar?] = scalars.map { isRegexSafe($0) ? $0 : nil }
            // Two letters that a ligature or ß may stand for in the text: the text holds
            // neither of them as such.
            for index in scalars.indices.dropLast() {
                let pair = String(String.UnicodeScalarView([scalars[index], scalars[index + 1]]))
                if ["ss", "st", "ff", "fi", "fl"].contains(pair) {
                    (kept[index], kept[index + 1]) = (nil, nil)
                }
            }
            // Decomposed as the index holds it (a Hangul syllable becomes its letters).
            runs += split(kept).map(\.decomposedStringWithCanonicalMapping).filter(isLong)
        }
        return QueryPatternRuns(runs)
    }

    /// The runs of scalars between the nils.
    private static func split(_ scalars: [Unicode.Scalar?]) -> [String] {
        var runs: [String] = []
        var run = String.UnicodeScalarView()
        for scalar in scalars + [nil] {
            if let scalar {
                run.append(scalar)
            } else if !run.isEmpty {
                runs.append(String(run))
                run = String.UnicodeScalarView()
            }
        }
        return runs
    }

    /// A trigram index finds runs of three scalars or more.
    private static func isLong(_ run: String) -> Bool { run.unicodeScalars.count >= 3 }

    /// Whether SQLite's case folding agrees with Swift's lowercasing on this scalar and on
    /// every letter that lowercases to it: caseless scalars, and the scripts whose case has
    /// been in Unicode from the start (Latin, Greek, Cyrillic, Armenian).
    static func isFolded(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return true }
        guard scalar.properties.isCased || scalar.properties.changesWhenCaseMapped else { return true }
        switch scalar.value {
        case 0x00C0...0x024F, 0x0370...0x03FF, 0x0400...0x04FF, 0x0531...0x0587, 0x1E00...0x1EFF: return true
        default: return false
        }
    }

    /// Whether a literal character of a regular expression is matched only by itself or
    /// letters the index folds to it: ASCII, and caseless characters that are not marks.
    static func isRegexSafe(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return true }
        let properties = scalar.properties
        if properties.isCased || properties.changesWhenCaseFolded || properties.changesWhenCaseMapped {
            return false
        }
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return false
        default: return properties.canonicalCombiningClass == .notReordered
        }
    }
}

/// Substrings that every text matching a pattern holds.
struct QueryPatternRuns: Equatable {
    var runs: [String]
    init(_ runs: [String]) { self.runs = runs }
}
