/// Turns an article's body into rich text for the article view, off the main actor.
///
/// The reader opens one article at a time, so one actor is enough; it keeps the last few
/// results, so going back to an article does not parse it again. (Feeds being reloaded do
/// not come here: their HTML is turned into text by the parser, in parallel tasks.)
public actor ArticleProcessor {
    public static let shared = ArticleProcessor()

    private var recent: [(id: String, html: String?, text: String, rich: RichText)] = []
    private let keep = 8

    public init() {}

    public func richText(for article: Article) -> RichText {
        let (html, text) = (article.shownHTML, article.shownText)
        if let hit = recent.first(where: { $0.id == article.id && $0.html == html && $0.text == text }) {
            return hit.rich
        }
        let rich = Self.richText(html: html, text: text, baseURL: article.link)
        recent.append((article.id, html, text, rich))
        if recent.count > keep { recent.removeFirst() }
        return rich
    }

    /// HTML when there is some, else the plain text: a paragraph per blank-line-separated
    /// part, its line breaks kept.
    public static func richText(html: String?, text: String, baseURL: String?) -> RichText {
        if let html, !html.isEmpty { return HTMLText.process(html, baseURL: baseURL).rich }
        var blocks: [RichBlock] = []
        var paragraph: [Substring] = []
        func end() {
            if !paragraph.isEmpty {
                blocks.append(RichBlock(kind: .paragraph, runs: [RichRun(paragraph.joined(separator: "\n"))]))
            }
            paragraph.removeAll()
        }
        for line in TextSanitizer.multiLine(text).split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { end() } else { paragraph.append(line) }
        }
        end()
        return RichText(blocks: blocks)
    }
}
