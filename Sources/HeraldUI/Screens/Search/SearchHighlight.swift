public import Foundation

/// Where the words of a query occur in a text, for highlighting search results.
///
/// Matching ignores case and diacritics ("cafe" finds "Café", "CAFE" finds "café") and works
/// for every script (Hangul, CJK, Cyrillic …). It is computed in Swift at draw time, for the
/// visible rows only, so it costs nothing for results that are never shown and does not
/// depend on how the repository matched (FTS5, trigram, a plain scan).
public enum SearchHighlight {
    /// How a query word is compared with the text.
    public static let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]

    /// The words of a query to highlight: split at whitespace, phrase quotes dropped, and
    /// excluded words (`-word`, which results do not contain) left out.
    public static func words(_ query: String) -> [String] {
        query.split(whereSeparator: \.isWhitespace).compactMap { word in
            if word.count > 1, word.hasPrefix("-") { return nil }
            let bare = word.filter { $0 != "\"" }
            return bare.isEmpty ? nil : bare
        }
    }

    /// Every occurrence of every word of `query` in `text`, as grapheme offsets into `text`,
    /// sorted, with overlapping and touching occurrences merged.
    public static func ranges(of query: String, in text: String) -> [Range<Int>] {
        var found: [Range<Int>] = []
        for word in Set(words(query)) {
            var rest = text.startIndex..<text.endIndex
            while let match = text.range(of: word, options: options, range: rest), !match.isEmpty {
                found.append(offsets(of: match, in: text))
                rest = match.upperBound..<text.endIndex
            }
        }
        return merged(found)
    }

    /// The graphemes a match covers, whole: a match that ends inside a grapheme (a base letter
    /// without its combining accent) takes the whole grapheme.
    static func offsets(of match: Range<String.Index>, in text: String) -> Range<Int> {
        let lower = text.distance(from: text.startIndex, to: match.lowerBound)
        var upper = text.distance(from: text.startIndex, to: match.upperBound)
        if match.upperBound.samePosition(in: text) == nil { upper += 1 }
        return lower..<max(upper, lower + 1)
    }

    static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
        var out: [Range<Int>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, range.lowerBound <= last.upperBound {
                out[out.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                out.append(range)
            }
        }
        return out
    }
}
