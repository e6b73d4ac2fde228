import Foundation
public import HeraldCore

/// A `highlight` line: titles its pattern matches are drawn in its style (or, for
/// `highlight article|all`, the words it matches in an article's text).
public struct TitleHighlight: Sendable {
    /// The pattern as written in the config file.
    public var pattern: String
    public var style: Style
    let regex: TimedRegex

    /// A highlight, or the regex's problem in words.
    public init(pattern: String, style: Style) throws(ConfigWordError) {
        do {
            regex = try TimedRegex(pattern)
        } catch {
            // Foundation's error says only "the value is invalid": say what to look at.
            throw ConfigWordError(
                message:
                    "`\(pattern)` is not a regular expression (look at its brackets, parentheses and \\ escapes)"
            )
        }
        self.pattern = pattern
        self.style = style
    }

    /// True when the pattern matches somewhere in `title`; throws when the pattern is too
    /// slow for `budget` (`TitleHighlighter`'s lasts the session).
    public func matches(_ title: String, within budget: RegexBudget = .inForce) throws(SlowRegexError) -> Bool
    {
        try budget.firstMatch(regex, in: title)
    }

    /// Every stretch of `text` the pattern matches; throws when the pattern is too slow for
    /// `budget` (`TextHighlighter`'s lasts the session).
    public func matches(in text: String, within budget: RegexBudget = .inForce) throws(SlowRegexError)
        -> [Range<String.Index>]
    {
        try budget.matches(regex, in: text)
    }
}

/// A word of the config file that cannot be read, and why.
public struct ConfigWordError: Error, Sendable {
    public var message: String
}

extension ConfigFile {
    /// `highlight [TARGET] REGEX FG [BG] [ATTR…]`: titles in article lists and search results
    /// that the regex matches (case-insensitive, anywhere in the title) take that style; the
    /// first matching line wins. `highlight article REGEX …` colours each stretch of an
    /// article's text the regex matches instead, `highlight all REGEX …` both;
    /// `articlelist` (newsboat's word) is the titles, as without a target.
    static func highlight(
        _ words: [Word], after directive: Word, into config: inout ReaderConfig,
        diagnose: (Int, String) -> Void
    ) {
        var words = words[...]
        var target = HighlightTarget.titles
        if words.count >= 3, let first = words.first,
            first.text == "feedlist" || HighlightTarget(rawValue: first.text) != nil,
            TerminalColor.parse(words[words.startIndex + 1].text) == nil
        {
            guard let named = HighlightTarget(rawValue: first.text) else {
                return diagnose(
                    first.column,
                    "highlight colours articles' titles and text, not feeds; the line is ignored")
            }
            target = named
            words = words.dropFirst()
        }
        guard words.count >= 2, let pattern = words.first else {
            return diagnose(
                (words.last ?? directive).end,
                "highlight needs a pattern and a colour: highlight REGEX FG [BG] [ATTR…]")
        }
        guard let style = style(words.dropFirst(), backgroundOptional: true, diagnose: diagnose) else {
            return
        }
        for problem in config.apply(.highlight(pattern: pattern.text, style: style, target: target)) {
            diagnose(pattern.column, problem.message)
        }
    }

    /// `FG BG [ATTR…]` (`FG [BG] [ATTR…]` when the background may be left out) as a style, or
    /// nil after a diagnostic.
    static func style(
        _ words: ArraySlice<Word>, backgroundOptional: Bool, diagnose: (Int, String) -> Void
    ) -> Style? {
        var style = Style()
        var rest = words
        for position in 0..<2 {
            guard let word = rest.first else { break }
            if position == 1, backgroundOptional, TerminalColor.parse(word.text) == nil,
                attributeNames.contains(word.text.lowercased())
            {
                break
            }
            guard let color = TerminalColor.parse(word.text) else {
                diagnose(
                    word.column,
                    "unknown colour `\(word.text)`" + suggestion(for: word.text, among: colorNames)
                        + " (\(colorNames.joined(separator: ", ")), bright-NAME, or color0…color255)")
                return nil
            }
            if position == 0 { style.foreground = color } else { style.background = color }
            rest = rest.dropFirst()
        }
        for word in rest {
            switch word.text.lowercased() {
            case "bold": style.bold = true
            case "dim": style.dim = true
            case "underline": style.underline = true
            case "reverse": style.reverse = true
            case "italic": style.italic = true
            case "normal": break
            default:
                diagnose(
                    word.column,
                    "unknown attribute `\(word.text)`" + suggestion(for: word.text, among: attributeNames))
                return nil
            }
        }
        return style
    }
}
