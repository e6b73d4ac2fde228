/// The `highlight` lines at work: which style a title takes.
///
/// A title is matched once, the first time a row shows it, and remembered (by its text, so a
/// title changed by a reload is matched again); frames after that look the answer up. With
/// no `highlight` line it costs one check of an empty array.
@MainActor
public final class TitleHighlighter {
    public var highlights: [TitleHighlight] = [] {
        didSet { memo.removeAll() }
    }
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
            index = highlights.firstIndex { $0.matches(title) } ?? -1
            // A bound on memory: a long session rematches rather than growing without end.
            if memo.count >= 20_000 { memo.removeAll() }
            memo[title] = index
        }
        guard index >= 0 else { return nil }
        let style = highlights[index].style
        return monochrome ? style.withoutColors : style
    }
}
