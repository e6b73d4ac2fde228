/// One laid-out line of rich text: spans drawn left to right.
public struct RichLine: Sendable, Hashable {
    public var spans: [RichSpan]

    public init(spans: [RichSpan] = []) { self.spans = spans }

    /// The line's text without styles.
    public var text: String { spans.map(\.text).joined() }
}

/// Where a laid-out line's text starts in its source: the block, and how many graphemes
/// of it came before (-1 for the blank line before a block). Comparable in reading order.
public struct TextAnchor: Sendable, Hashable, Comparable {
    public var block: Int
    public var offset: Int

    public init(block: Int, offset: Int) {
        self.block = block
        self.offset = offset
    }

    public static func < (a: TextAnchor, b: TextAnchor) -> Bool {
        a.block != b.block ? a.block < b.block : a.offset < b.offset
    }
}

/// Text drawn in one style.
public struct RichSpan: Sendable, Hashable {
    /// What the text is, for the theme to choose how it looks.
    public enum Role: Sendable, Hashable {
        /// Body text with its inline styles.
        case text(InlineStyle)
        /// Heading text (`level` 1–6) with its inline styles.
        case heading(level: Int, InlineStyle)
        /// A block's prefix: a list marker, an indent, a quote's `> `.
        case prefix
        /// A horizontal rule.
        case rule
    }

    public var text: String
    public var role: Role
    /// Inside a blockquote.
    public var quoted: Bool

    public init(_ text: String, role: Role, quoted: Bool = false) {
        self.text = text
        self.role = role
        self.quoted = quoted
    }
}

/// Wraps rich text to a width: at spaces, or anywhere for CJK, or at the edge for a word
/// (a URL) longer than the line and for preformatted text. Wrapped lines of a list item or a
/// quote keep its indent or `> `. Blocks are separated by one blank line.
public enum RichLayout {
    public static func lines(_ text: RichText, width: Int) -> [RichLine] {
        anchoredLines(text, width: width).map(\.line)
    }

    /// The lines, each with where its text starts in the source (block and grapheme offset),
    /// so a view can keep the same text at the top when the width changes.
    public static func anchoredLines(_ text: RichText, width: Int) -> [(line: RichLine, anchor: TextAnchor)] {
        let width = max(width, 1)
        var lines: [(line: RichLine, anchor: TextAnchor)] = []
        var previous: RichBlock?
        for (index, block) in text.blocks.enumerated() {
            if let previous, !block.tight {
                // Between two paragraphs of one quote, the blank line keeps the quote's `>`.
                var mark = Substring(TextLayout.truncate(block.indent, toWidth: width / 2, marker: ""))
                while mark.last == " " { mark = mark.dropLast() }
                let inOneQuote =
                    previous.quoted && block.quoted && previous.indent.hasPrefix(mark) && !mark.isEmpty
                let blank = RichLine(
                    spans: inOneQuote ? [RichSpan(String(mark), role: .prefix, quoted: true)] : [])
                lines.append((blank, TextAnchor(block: index, offset: -1)))
            }
            lines += anchored(block, width: width, index: index)
            previous = block
        }
        if !text.links.isEmpty {
            let first = text.blocks.count
            if !lines.isEmpty { lines.append((RichLine(), TextAnchor(block: first, offset: -1))) }
            // Laid out like any heading, so it too keeps to a width narrower than itself.
            lines += anchored(
                RichBlock(kind: .heading(level: 6), runs: [RichRun("Links:")]), width: width, index: first)
            for (index, link) in text.links.enumerated() {
                let number = "[\(index + 1)] "
                let block = RichBlock(
                    kind: .paragraph, lead: number, indent: String(repeating: " ", count: number.count),
                    runs: [RichRun(link, .link)])
                lines += anchored(block, width: width, index: first + 1 + index)
            }
        }
        return lines
    }

    /// One block's lines, each anchored where its text starts in the block (counted in the
    /// source, spaces dropped at a wrap included, so the anchor is the same at any width).
    private static func anchored(_ block: RichBlock, width: Int, index: Int) -> [(
        line: RichLine, anchor: TextAnchor
    )] {
        var starts: [Int] = []
        let lines = self.lines(block, width: width, starts: &starts)
        return lines.enumerated().map { line in
            (
                line.element,
                TextAnchor(
                    block: index, offset: starts.indices.contains(line.offset) ? starts[line.offset] : 0)
            )
        }
    }

    /// One block's lines.
    public static func lines(_ block: RichBlock, width: Int) -> [RichLine] {
        var starts: [Int] = []
        return lines(block, width: width, starts: &starts)
    }

    /// One block's lines, and where each starts in the block's text (in graphemes).
    static func lines(_ block: RichBlock, width: Int, starts: inout [Int]) -> [RichLine] {
        // A prefix may take at most half the width, and none when it would leave the text
        // less than two columns (a wide character needs two).
        let budget = width >= 4 ? width / 2 : 0
        let lead = TextLayout.truncate(block.lead, toWidth: budget, marker: "")
        let indent = TextLayout.truncate(block.indent, toWidth: budget, marker: "")
        func prefixed(_ spans: [RichSpan], first: Bool) -> RichLine {
            let prefix = first ? lead : indent
            return RichLine(
                spans: (prefix.isEmpty ? [] : [RichSpan(prefix, role: .prefix, quoted: block.quoted)]) + spans
            )
        }
        if block.kind == .rule {
            let rule = String(repeating: "─", count: max(width - DisplayWidth.of(lead), 1))
            starts = [0]
            return [prefixed([RichSpan(rule, role: .rule, quoted: block.quoted)], first: true)]
        }
        let role: (InlineStyle) -> RichSpan.Role =
            if case .heading(let level) = block.kind { { .heading(level: level, $0) } } else { { .text($0) } }
        var breaker = LineBreaker(
            width: max(width - max(DisplayWidth.of(lead), DisplayWidth.of(indent)), 1),
            anywhere: block.kind == .preformatted)
        for run in block.runs {
            let span = RichSpan("", role: role(run.style), quoted: block.quoted)
            for g in run.text {
                switch g {
                case "\n": breaker.hardBreak()
                case "\t":
                    // Preformatted tabs stop every 8 columns; elsewhere a tab is 4 spaces.
                    let spaces = block.kind == .preformatted ? 8 - breaker.column % 8 : 4
                    for _ in 0..<spaces { breaker.add(" ", width: 1, span: span) }
                default: breaker.add(g, width: DisplayWidth.of(g), span: span)
                }
                breaker.consumed += 1
            }
        }
        let lines = breaker.finish()
        starts = breaker.lineStarts
        return lines.enumerated().map { prefixed($0.element, first: $0.offset == 0) }
    }
}

/// Breaks a stream of styled graphemes into lines of at most `width` columns.
///
/// Words break at spaces; CJK ideographs and kana are break opportunities of their own
/// (Hangul, like Latin, breaks between words); a word wider than the line is cut at the edge.
/// With `anywhere` (preformatted text) every grapheme may end a line and spaces are kept.
struct LineBreaker {
    let width: Int
    let anywhere: Bool
    private var lines: [[RichSpan]] = []
    private var current: [RichSpan] = []
    private var currentWidth = 0
    private var word: [RichSpan] = []
    private var wordWidth = 0
    /// Lines written before the current hard line began: every hard line gives at least one.
    private var linesBeforeHardLine = 0
    /// Source graphemes handed over so far (the caller advances it: a tab is one grapheme
    /// whatever number of spaces it becomes).
    var consumed = 0
    /// Where the word being collected starts in the source.
    private var wordStart = 0
    /// Where the line being filled starts in the source, once something is on it.
    private var currentStart: Int?
    /// Where each finished line starts in the source (what `finish()` returned, line by line).
    private(set) var lineStarts: [Int] = []

    init(width: Int, anywhere: Bool) {
        self.width = max(width, 1)
        self.anywhere = anywhere
    }

    /// The column the next grapheme goes to.
    var column: Int { currentWidth + wordWidth }

    mutating func add(_ g: Character, width w: Int, span: RichSpan) {
        if g == " " && !anywhere {
            placeWord()
            // A line that wrapped does not start with a space (a hard line may: indentation).
            if currentWidth == 0 && lines.count > linesBeforeHardLine { return }
            if currentWidth + 1 <= width {
                if currentStart == nil { currentStart = consumed }
                Self.append(g, span, to: &current)
                currentWidth += 1
            } else {
                flushLine()
            }
        } else if anywhere || (w == 2 && !Self.isHangul(g)) {
            placeWord()
            wordStart = consumed
            Self.append(g, span, to: &word)
            wordWidth = w
            placeWord()
        } else {
            if word.isEmpty { wordStart = consumed }
            Self.append(g, span, to: &word)
            wordWidth += w
        }
    }

    /// A line break in the text.
    mutating func hardBreak() {
        endHardLine()
        linesBeforeHardLine = lines.count
    }

    mutating func finish() -> [[RichSpan]] {
        endHardLine()
        return lines
    }

    private mutating func endHardLine() {
        placeWord()
        if currentWidth > 0 || lines.count == linesBeforeHardLine { flushLine() }
    }

    private mutating func placeWord() {
        guard !word.isEmpty else { return }
        if currentWidth + wordWidth > width, currentWidth > 0 { flushLine() }
        if wordWidth > width {
            // A word wider than the line: cut it grapheme by grapheme.
            var offset = wordStart
            for span in word {
                for g in span.text {
                    let w = DisplayWidth.of(g)
                    if currentWidth + w > width, currentWidth > 0 { flushLine() }
                    if currentStart == nil { currentStart = offset }
                    Self.append(g, span, to: &current)
                    currentWidth += w
                    offset += 1
                }
            }
        } else {
            if currentStart == nil { currentStart = wordStart }
            for span in word { Self.append(span.text, span, to: &current) }
            currentWidth += wordWidth
        }
        word.removeAll(keepingCapacity: true)
        wordWidth = 0
    }

    private mutating func flushLine() {
        lineStarts.append(currentStart ?? consumed)
        currentStart = nil
        // Trailing spaces go (preformatted ones too: nothing shows them).
        while var last = current.last {
            while last.text.last == " " { last.text.removeLast() }
            if last.text.isEmpty {
                current.removeLast()
            } else {
                current[current.count - 1] = last
                break
            }
        }
        lines.append(current)
        current.removeAll(keepingCapacity: true)
        currentWidth = 0
    }

    /// Appends text to the spans, merging with the last span when they look the same.
    private static func append(_ text: some StringProtocol, _ like: RichSpan, to spans: inout [RichSpan]) {
        if let last = spans.last, last.role == like.role, last.quoted == like.quoted {
            spans[spans.count - 1].text += text
        } else {
            spans.append(RichSpan(String(text), role: like.role, quoted: like.quoted))
        }
    }

    private static func append(_ g: Character, _ like: RichSpan, to spans: inout [RichSpan]) {
        append(String(g), like, to: &spans)
    }

    private static func isHangul(_ g: Character) -> Bool {
        guard let v = g.unicodeScalars.first?.value else { return false }
        return (0xAC00...0xD7A3).contains(v) || (0x1100...0x11FF).contains(v)
            || (0x3130...0x318F).contains(v)
    }
}
