import Foundation
import HeraldCore
import HeraldStore

/// `herald show ID [--json]`: one article as the reader shows it: its header, its text (the
/// whole article read from its web page once fetched and chosen, else the feed's) and its
/// links, for scripts and tests.
enum ShowCommand {
    static func run(_ arguments: [String], options: GlobalOptions) async throws {
        var id: String?
        var json = false
        for argument in arguments {
            if argument == "--json" {
                json = true
            } else if id == nil {
                id = argument
            } else {
                throw UsageError("show takes one article id")
            }
        }
        guard let id, Int64(id) != nil else {
            throw UsageError("show needs an article's id (herald list --json gives them): herald show ID [--json]")
        }
        let store = try await options.openLibrary(importingDemo: false)
        let article = try await store.article(id: id)
        let rich = ArticleProcessor.richText(html: article.shownHTML, text: article.shownText, baseURL: article.link)
        if json { printJSON(article, rich) } else { printText(article, rich) }
    }

    struct Document: Encodable {
        var id: String
        var feed: String
        var title: String
        var author: String?
        var published: String?
        var link: String?
        /// `page` when the text is the whole article read from `page`, else `feed`.
        var source: String
        var page: String?
        /// Why the page gave no whole article.
        var note: String?
        var text: String
        var links: [String]
    }

    static func printJSON(_ article: Article, _ rich: RichText) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let document = Document(
            id: article.id, feed: article.feedTitle, title: article.summary.title, author: article.summary.author,
            published: article.summary.published?.formatted(.iso8601), link: article.link,
            source: article.showsFullArticle ? "page" : "feed", page: article.full?.page, note: article.full?.note,
            text: rich.blocks.map(\.plainText).joined(separator: "\n\n"), links: rich.links)
        if let data = try? encoder.encode(document) { print(JSONText.safe(String(decoding: data, as: UTF8.self))) }
    }

    static func printText(_ article: Article, _ rich: RichText) {
        let fields: [(String, String?)] = [
            ("Feed:", article.feedTitle), ("Title:", article.summary.title), ("Author:", article.summary.author),
            ("Date:", article.summary.published?.formatted(.iso8601)), ("Link:", article.link),
            ("Text:", article.textSource),
        ]
        for (label, value) in fields {
            guard let value, !value.isEmpty else { continue }
            Console.say(label.padding(toLength: 8, withPad: " ", startingAt: 0) + TextSanitizer.singleLine(value))
        }
        Console.say("")
        Console.say(TextSanitizer.multiLine(rich.plainText))
    }
}
