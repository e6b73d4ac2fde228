/// Width-aware text operations: truncating to a column budget and wrapping paragraphs.
public enum TextLayout {
    /// The longest prefix of `text` that fits in `width` columns; when the text is cut, it
    /// ends with `marker` inside the budget.
    public static func truncate(_ text: String, toWidth width: Int, marker: String = "…") -> String {
        guard width > 0 else { return "" }
        if DisplayWidth.of(text) <= width { return text }
        let budget = width - DisplayWidth.of(marker)
        var out = ""
        var used = 0
        for grapheme in text {
            let w = DisplayWidth.of(grapheme)
            if used + w > budget { break }
            out.append(grapheme)
            used += w
        }
        return out + marker
    }

    /// The longest suffix of `text` that fits in `width` columns, and whether the text was
    /// cut: then the suffix leaves one column free for a marker (`…`) before it. Walks from
    /// the end and stops at the width, so its cost is the width's, not the text's (a prompt
    /// shows the end of what is typed, however long).
    public static func tail(_ text: String, toWidth width: Int) -> (text: Substring, cut: Bool) {
        guard width > 0 else { return (text[text.endIndex...], !text.isEmpty) }
        var start = text.endIndex
        var used = 0
        while start > text.startIndex {
            let before = text.index(before: start)
            let w = DisplayWidth.of(text[before])
            if used + w > width {
                // Cut: one column for the marker.
                while used > width - 1, start < text.endIndex {
                    used -= DisplayWidth.of(text[start])
                    start = text.index(after: start)
                }
                return (text[start...], true)
            }
            used += w
            start = before
        }
        return (text[...], false)
    }

    /// Wraps a body into lines of at most `width` columns. Paragraphs are separated by one
    /// blank line; words break at spaces, wide (CJK) graphemes break anywhere, and a word
    /// longer than the line (a URL) is cut at the edge. Tabs become spaces.
    public static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(width, 1)
        var lines: [String] = []
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.replacingOccurrences(of: "\t", with: "    ")
            if line.allSatisfy({ $0 == " " }) {
                lines.append("")
                continue
            }
            wrapLine(String(line), width: width, into: &lines)
        }
        // Collapse runs of blank lines to one and trim blank lines at both ends.
        var collapsed: [String] = []
        for line in lines where !(line.isEmpty && (collapsed.last?.isEmpty ?? true)) {
            collapsed.append(line)
        }
        while collapsed.last?.isEmpty == true { collapsed.removeLast() }
        return collapsed
    }

    private static func wrapLine(_ line: String, width: Int, into lines: inout [String]) {
        var breaker = LineBreaker(width: width, anywhere: false)
        let plain = RichSpan("", role: .text([]))
        for g in line { breaker.add(g, width: DisplayWidth.of(g), span: plain) }
        lines += breaker.finish().map { $0.map(\.text).joined() }
    }
}
