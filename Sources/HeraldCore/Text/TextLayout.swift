/// Width-aware text operations: truncating to a column budget and wrapping paragraphs.
public enum TextLayout {
    /// The longest prefix of `text` that fits in `width` columns; when the text is cut, it
    /// ends with `…` inside the budget.
    public static func truncate(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        if DisplayWidth.of(text) <= width { return text }
        var out = ""
        var used = 0
        for grapheme in text {
            let w = DisplayWidth.of(grapheme)
            if used + w > width - 1 { break }
            out.append(grapheme)
            used += w
        }
        return out + "…"
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
        let start = lines.count
        var current = ""
        var currentWidth = 0
        var word = ""
        var wordWidth = 0

        func flushLine() {
            var trimmed = current
            while trimmed.last == " " { trimmed.removeLast() }
            lines.append(trimmed)
            current = ""
            currentWidth = 0
        }
        func placeWord() {
            guard !word.isEmpty else { return }
            if currentWidth + wordWidth > width, currentWidth > 0 {
                flushLine()
            }
            if wordWidth > width {
                // A word wider than the line: cut it grapheme by grapheme.
                for g in word {
                    let w = DisplayWidth.of(g)
                    if currentWidth + w > width { flushLine() }
                    current.append(g)
                    currentWidth += w
                }
            } else {
                current += word
                currentWidth += wordWidth
            }
            word = ""
            wordWidth = 0
        }

        for g in line {
            let w = DisplayWidth.of(g)
            if g == " " {
                placeWord()
                if currentWidth + 1 <= width {
                    current.append(" ")
                    currentWidth += 1
                } else {
                    flushLine()
                }
            } else if w == 2 && !isHangul(g) {
                // CJK ideographs and kana are their own break opportunities; Hangul, like
                // Latin, breaks between words.
                placeWord()
                word = String(g)
                wordWidth = 2
                placeWord()
            } else {
                word.append(g)
                wordWidth += w
            }
        }
        placeWord()
        if currentWidth > 0 || lines.count == start { flushLine() }
    }

    private static func isHangul(_ g: Character) -> Bool {
        guard let v = g.unicodeScalars.first?.value else { return false }
        return (0xAC00...0xD7A3).contains(v) || (0x1100...0x11FF).contains(v)
            || (0x3130...0x318F).contains(v)
    }
}
