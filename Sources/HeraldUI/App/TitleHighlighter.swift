import HeraldCore
public import HeraldConfig

/// The `highlight` lines at work: which style a title takes.
///
/// A title is matched once, the first time a row shows it, and remembered (by its text, so a
/// title changed by a reload is matched again); frames after that look the answer up. With
/// no `highlight` line it costs one check of an empty array.
///
/// The patterns run within one budget for as long as the highlights stay (`RegexBudget`): a
/// pattern found too slow is off from then on, and `takeSlowHighlights()` gives it to the
/// reader to say.
@MainActor
public final class TitleHighlighter {
    public var highlights: [TitleHighlight] = [] {
        didSet {
            memo.removeAll()
            budget = RegexBudget()
            unsaid = []
        }
    }
    private var budget = RegexBudget()
    /// Patterns found too slow that the reader has not said yet.
    private var unsaid: [String] = []
    /// Draw without colours (a monochrome terminal): attributes only.
    public var monochrome = false {
        didSet { memo.removeAll() }
    }
    /// Title → the index of the first matching highlight (-1: none).
    private var memo: [String: Int] = [:]
    /// How many titles were matched against the patterns (for tests: a frame redrawn
    /// matches nothing new).
    public private(set) var matched = 0

    public init() {}

    /// The style of the first highlight matching `title`, or nil.
    public func style(for title: String) -> Style? {
        guard !highlights.isEmpty else { return nil }
        let index: Int
        if let known = memo[title] {
            index = known
        } else {
            matched += 1
            index = firstMatching(title)
            // A bound on memory: a long session rematches rather than growing without end.
            if memo.count >= 20_000 { memo.removeAll() }
            memo[title] = index
        }
        guard index >= 0 else { return nil }
        let style = highlights[index].style
        return monochrome ? style.withoutColors : style
    }

    /// The index of the first highlight matching `title` (-1: none), leaving out those
    /// found too slow.
    private func firstMatching(_ title: String) -> Int {
        for (index, highlight) in highlights.enumerated() where !budget.isTooSlow(highlight.pattern) {
            do {
                if try highlight.matches(title, within: budget) { return index }
            } catch {
                unsaid.append(error.pattern)
            }
        }
        return -1
    }

    /// The patterns found too slow since the last call (each once).
    public func takeSlowHighlights() -> [String] {
        defer { unsaid = [] }
        return unsaid
    }
}
