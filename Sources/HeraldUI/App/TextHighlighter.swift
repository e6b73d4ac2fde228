import HeraldCore
public import HeraldConfig

/// The `highlight article` and `highlight all` lines at work: the stretches of an article's
/// text each pattern matches, in its style.
///
/// An article's lines are matched when the article is laid out for a width
/// (`ArticleViewModel.lines`), not once per frame; a match does not run across the end of
/// a line. Where two lines' matches overlap, the first line's wins.
///
/// The patterns run within one budget for as long as the highlights stay (`RegexBudget`): a
/// pattern found too slow is off from then on, and `takeSlowHighlights()` gives it to the
/// reader to say, as `TitleHighlighter` does for titles.
@MainActor
public final class TextHighlighter {
    public var highlights: [TitleHighlight] = [] {
        didSet {
            budget = RegexBudget()
            unsaid = []
            generation += 1
        }
    }
    private var budget = RegexBudget()
    /// Patterns found too slow that the reader has not said yet.
    private var unsaid: [String] = []
    /// Draw without colours (a monochrome terminal): attributes only.
    public var monochrome = false {
        didSet { generation += 1 }
    }
    /// Changes whenever what `ranges` answers may change (an article laid out before is
    /// laid out again).
    public private(set) var generation = 0
    /// How many lines were matched against the patterns (for tests: a frame redrawn
    /// matches nothing new).
    public private(set) var matched = 0

    public init() {}

    /// The stretches of `line` to draw in a highlight's style, as grapheme offsets, in order
    /// and not overlapping.
    public func ranges(in line: String) -> [(range: Range<Int>, style: Style)] {
        guard !highlights.isEmpty, !line.isEmpty else { return [] }
        matched += 1
        var found: [(range: Range<Int>, style: Style)] = []
        for highlight in highlights where !budget.isTooSlow(highlight.pattern) {
            let matches: [Range<String.Index>]
            do {
                matches = try highlight.matches(in: line, within: budget)
            } catch {
                unsaid.append(error.pattern)
                continue
            }
            let style = monochrome ? highlight.style.withoutColors : highlight.style
            for match in matches {
                // Whole graphemes: a match ending inside one (a letter without its accent) takes it.
                let range = SearchHighlight.offsets(of: match, in: line)
                guard !range.isEmpty, !found.contains(where: { $0.range.overlaps(range) }) else { continue }
                found.append((range, style))
            }
        }
        return found.sorted { $0.range.lowerBound < $1.range.lowerBound }
    }

    /// The patterns found too slow since the last call (each once).
    public func takeSlowHighlights() -> [String] {
        defer { unsaid = [] }
        return unsaid
    }
}
