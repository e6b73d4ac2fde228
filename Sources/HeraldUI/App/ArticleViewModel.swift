public import HeraldCore

/// One article, read in a scrolling view.
@MainActor
public final class ArticleViewModel {
    /// The row this article was opened from; its flags change with N and s.
    public var summary: ArticleSummary
    public private(set) var state: ViewState<Article> = .idle
    /// The first line shown.
    public var top = 0
    /// The body as rich text, made off the main actor when the article arrives.
    public private(set) var body = RichText()
    private let repository: any ArticleRepository
    private let processor: ArticleProcessor
    /// Wrapping is done once per width, not once per frame.
    private var wrapped: (width: Int, lines: [ArticleLine])?

    public init(
        summary: ArticleSummary, repository: any ArticleRepository, processor: ArticleProcessor = .shared
    ) {
        self.summary = summary
        self.repository = repository
        self.processor = processor
    }

    public func load(in work: PendingWork) {
        state = .loading
        let id = summary.id
        work.start { [repository, processor] in
            do {
                let article = try await repository.article(id: id)
                self.body = await processor.richText(for: article)
                self.state = .loaded(article)
                self.wrapped = nil
            } catch {
                self.state = .failed("\(error)")
            }
        }
    }

    /// The article laid out for a width: header fields, a blank line, the body wrapped (a
    /// new width rewraps it).
    public func lines(width: Int, theme: Theme) -> [ArticleLine] {
        if let wrapped, wrapped.width == width { return wrapped.lines }
        guard let article = state.value else { return [] }
        var lines: [ArticleLine] = []
        func field(_ label: String, _ value: String?, _ style: Style) {
            guard let value, !value.isEmpty else { return }
            let labelWidth = 8
            let wrappedValue = TextLayout.wrap(
                TextSanitizer.singleLine(value), width: max(width - labelWidth, 1))
            for (i, line) in wrappedValue.enumerated() {
                lines.append(ArticleLine(label: i == 0 ? label : "", text: line, style: style))
            }
        }
        field("Feed:", article.feedTitle, theme.read)
        field("Title:", article.summary.title, theme.title)
        field("Author:", article.summary.author, theme.read)
        field("Date:", theme.dayAndTime(article.summary.published), theme.read)
        field("Link:", article.link, theme.link)
        lines.append(ArticleLine(label: "", text: "", style: theme.read))
        for line in RichLayout.lines(body, width: width) {
            lines.append(ArticleLine(label: nil, spans: line.spans.map { ($0.text, theme.style(of: $0)) }))
        }
        wrapped = (width, lines)
        return lines
    }

    /// Scrolls by `delta` lines, never past the last screenful.
    public func scroll(by delta: Int, lineCount: Int, visible: Int) {
        top = max(0, min(top + delta, lineCount - visible))
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
}
