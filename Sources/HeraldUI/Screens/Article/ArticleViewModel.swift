public import HeraldCore
public import HeraldConfig

/// One article, read in a scrolling view.
@MainActor
public final class ArticleViewModel {
    /// The row this article was opened from, with the flags the reader knows for it (N and
    /// s change them in `ArticleFlags`).
    public var summary: ArticleSummary { flags.shown(row) }
    private let row: ArticleSummary
    private let flags: ArticleFlags
    public private(set) var state: ViewState<Article> = .idle
    /// The first line shown.
    public var top = 0
    /// The body as rich text, made off the main actor when the article arrives.
    public private(set) var body = RichText()
    /// The search this article was opened from: its words are highlighted, and the view
    /// opens on the first match in the text.
    public let highlight: String?
    private let repository: any ArticleRepository
    private let processor: ArticleProcessor
    /// Wrapping (and matching the text highlights) is done once per width, not once per
    /// frame; `highlights` is the highlighter's generation it was matched with.
    private var wrapped: (width: Int, highlights: Int, lines: [ArticleLine], anchors: [TextAnchor])?
    /// Scroll to the first match once the article is laid out.
    private var scrollToMatch: Bool
    /// The article's HTML as fetched is shown in place of its text (Ctrl-U).
    public private(set) var showsSource = false
    /// Reading the article (`.load`), and the steps to the next one (`.step`, while on top).
    let effects: Effects

    public init(
        summary: ArticleSummary, repository: any ArticleRepository, work: PendingWork,
        flags: ArticleFlags, highlight: String? = nil, processor: ArticleProcessor = .shared
    ) {
        self.effects = Effects(work: work)
        self.row = summary
        self.flags = flags
        self.repository = repository
        self.processor = processor
        let query = highlight.flatMap { SearchHighlight.words($0).isEmpty ? nil : $0 }
        self.highlight = query
        self.scrollToMatch = query != nil
    }

    public func load() {
        state = .loading
        let id = summary.id
        effects.run(.load) { [repository, processor] in
            await Result {
                let article = try await repository.article(id: id)
                return (article, await processor.richText(for: article))
            }
        } then: { read in
            switch read {
            case .success(let (article, body)):
                self.body = body
                self.state = .loaded(article)
                self.wrapped = nil
            case .failure(let error):
                self.state = .failed("\(error)")
            }
        }
    }

    /// The article laid out for a width: header fields, a blank line, the body wrapped (a
    /// new width rewraps it, keeping the text that was at the top in view), the words of
    /// the body that `highlighter`'s patterns match in their styles. Without a highlighter
    /// (a caller counting lines: highlights change no line's place) the last layout serves.
    public func lines(width: Int, theme: Theme, highlighter: TextHighlighter? = nil) -> [ArticleLine] {
        let generation = highlighter?.generation ?? -1
        if let wrapped, wrapped.width == width, highlighter == nil || wrapped.highlights == generation {
            return wrapped.lines
        }
        guard let article = state.value else { return [] }
        let previous = wrapped.flatMap { $0.anchors.indices.contains(top) ? $0.anchors[top] : nil }
        var lines: [ArticleLine] = []
        var anchors: [TextAnchor] = []
        func field(_ label: String, _ value: String?, _ style: Style) {
            guard let value, !value.isEmpty else { return }
            let labelWidth = ArticleLine.labelWidth
            let wrappedValue = TextLayout.wrap(
                TextSanitizer.singleLine(value), width: max(width - labelWidth, 1))
            for (i, line) in wrappedValue.enumerated() {
                // Header lines sit before every block; each field keeps its own place.
                anchors.append(TextAnchor(block: -100 + lines.count, offset: 0))
                lines.append(ArticleLine(label: i == 0 ? label : "", text: line, style: style))
            }
        }
        for header in Self.headerFields(of: article, theme: theme) { field(header.label, header.value, header.style) }
        anchors.append(TextAnchor(block: -1, offset: 0))
        lines.append(ArticleLine(label: "", text: "", style: theme.read))
        let bodyStart = lines.count
        if showsSource {
            // The markup as text: each line made safe for the terminal, wrapped, unstyled.
            let source = article.html ?? article.text
            for (index, line) in source.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
                .enumerated()
            {
                for piece in TextLayout.wrap(TextSanitizer.singleLine(String(line)), width: max(width, 1)) {
                    lines.append(ArticleLine(label: nil, text: piece, style: theme.read))
                    anchors.append(TextAnchor(block: index, offset: 0))
                }
            }
            wrapped = (width, generation, lines, anchors)
            return lines
        }
        for (line, anchor) in RichLayout.anchoredLines(body, width: width) {
            var spans = line.spans.map { ($0.text, theme.style(of: $0)) }
            if let highlighter {
                let ranges = highlighter.ranges(in: line.spans.map(\.text).joined())
                if !ranges.isEmpty { spans = Self.restyled(spans, ranges) }
            }
            if let highlight { spans = Self.highlighted(spans, query: highlight, match: theme.match) }
            lines.append(ArticleLine(label: nil, spans: spans))
            anchors.append(anchor)
        }
        wrapped = (width, generation, lines, anchors)
        if scrollToMatch {
            scrollToMatch = false
            if let highlight, let first = Self.bestMatch(highlight, in: lines[bodyStart...]) {
                top = max(bodyStart, first - 2)
            }
        } else if let previous {
            // The text that was at the top stays at the top: the last line starting at or
            // before it.
            top = anchors.lastIndex { $0 <= previous } ?? 0
        }
        return lines
    }

    /// The header's fields, in order: the feed, the title, the author, the date, the link and
    /// the enclosures (a field without a value is not shown).
    static func headerFields(of article: Article, theme: Theme) -> [(label: String, value: String?, style: Style)] {
        [
            ("Feed:", article.feedTitle, theme.read), ("Title:", article.summary.title, theme.title),
            ("Author:", article.summary.author, theme.read),
            ("Date:", theme.dayAndTime(article.summary.published), theme.read), ("Link:", article.link, theme.link),
            ("Text:", article.textSource, theme.read),
        ]
            + article.enclosures.map {
                ($0.kindLabel + ":", $0.url + ($0.details.isEmpty ? "" : " (\($0.details))"), theme.link)
            }
    }

    /// The first line matching the most words of the query (so `paragraph 5` opens at the
    /// line with both words, not at the first "paragraph").
    static func bestMatch(_ query: String, in lines: ArraySlice<ArticleLine>) -> Int? {
        let words = Set(SearchHighlight.words(query))
        var best: (index: Int, count: Int)?
        for index in lines.indices {
            let text = lines[index].text
            let count = words.count { !SearchHighlight.ranges(of: $0, in: text).isEmpty }
            if count > (best?.count ?? 0) { best = (index, count) }
            if count == words.count { break }
        }
        return best?.index
    }

    /// Reads the article again (its whole text was fetched or switched), from the top.
    public func reload() {
        top = 0
        wrapped = nil
        load()
    }

    /// Shows the HTML as fetched in place of the text, or the text again, from the top.
    public func toggleSource() {
        showsSource.toggle()
        wrapped = nil
        top = 0
    }

    /// Scrolls by `delta` lines, never past the last screenful.
    public func scroll(by delta: Int, lineCount: Int, visible: Int) {
        top = max(0, min(top + delta, lineCount - visible))
    }

    /// True when the last line is on screen.
    public func isAtEnd(lineCount: Int, visible: Int) -> Bool { top + visible >= lineCount }

    /// Spans with every match of the query's words in the match style.
    static func highlighted(_ spans: [(text: String, style: Style)], query: String, match: Style) -> [(
        text: String, style: Style
    )] {
        let text = spans.map(\.text).joined()
        let ranges = SearchHighlight.ranges(of: query, in: text)
        guard !ranges.isEmpty else { return spans }
        return restyled(spans, ranges.map { ($0, match) })
    }

    /// Spans split where `ranges` (grapheme offsets into the spans' text, in order, not
    /// overlapping) start and end, the graphemes inside a range in its style (keeping the
    /// span's underline and italics: a link stays a link).
    static func restyled(
        _ spans: [(text: String, style: Style)], _ ranges: [(range: Range<Int>, style: Style)]
    ) -> [(text: String, style: Style)] {
        var out: [(text: String, style: Style)] = []
        var offset = 0
        var next = 0  // the first range that may still hold `offset`
        for span in spans {
            var current = ""
            var currentStyle: Style?
            for g in span.text {
                while next < ranges.count, ranges[next].range.upperBound <= offset { next += 1 }
                let style =
                    next < ranges.count && ranges[next].range.contains(offset)
                    ? Self.matchStyle(span.style, ranges[next].style) : span.style
                if currentStyle != style, !current.isEmpty, let currentStyle {
                    out.append((current, currentStyle))
                    current = ""
                }
                current.append(g)
                currentStyle = style
                offset += 1
            }
            if !current.isEmpty, let currentStyle { out.append((current, currentStyle)) }
        }
        return out
    }

    private static func matchStyle(_ style: Style, _ match: Style) -> Style {
        var result = match
        result.underline = style.underline
        result.italic = style.italic
        return result
    }
}

/// One laid-out line of the article view: a field (label + value) or a body line.
public struct ArticleLine: Sendable {
    /// nil for body text; a label (possibly empty, for a continuation) for header fields.
    public var label: String?
    /// The text, left to right, each part in its style.
    public var spans: [(text: String, style: Style)]

    public init(label: String?, spans: [(text: String, style: Style)]) {
        self.label = label
        self.spans = spans
    }

    public init(label: String?, text: String, style: Style) {
        self.init(label: label, spans: [(text, style)])
    }

    /// The line's text without styles.
    public var text: String { spans.map(\.text).joined() }

    /// Columns of the header labels (`Podcast: ` is the widest).
    public static let labelWidth = 9
}
