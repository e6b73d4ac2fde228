import Foundation
import HeraldCore
import HeraldFetch
import HeraldReload

/// `herald extract FILE_OR_URL [--json]`: the article Herald reads in a web page (what `x`
/// and `full-article` store), for checking a site or a page (`-` reads standard input).
enum ExtractCommand {
    static func run(_ arguments: [String]) async throws {
        var source: String?
        var json = false
        for argument in arguments {
            if argument == "--json" {
                json = true
            } else if source == nil {
                source = argument
            } else {
                throw UsageError("extract takes one file or URL")
            }
        }
        guard let source else { throw UsageError("extract needs a file or URL: herald extract FILE_OR_URL [--json]") }
        let article: ExtractedArticle?
        let page: String?
        if source.lowercased().hasPrefix("http://") || source.lowercased().hasPrefix("https://") {
            switch await WebPages(store: nil).read(source) {
            case .success(let (found, finalPage)): (article, page) = (found, finalPage)
            case .failure(let error): throw PageFailure("\(TextSanitizer.singleLine(source)): \(error)")
            }
        } else {
            let path = source.hasPrefix("file://") ? URL(string: source)?.path ?? source : source
            let data = try LocalFile.read(path, limit: FetchLimits().maxBytes)
            page = path == "-" ? nil : URL(fileURLWithPath: path).absoluteString
            article = ArticleExtractor.extract(html: PageBytes.utf8([UInt8](data)), url: page)
        }
        guard let article else {
            throw PageFailure("\(TextSanitizer.singleLine(source)): no article found in the page")
        }
        if json { printJSON(article, page: page) } else { printText(article, page: page) }
    }

    /// A page that gave no article: the page's fault, not the command line's (status 1, no
    /// usage hint).
    struct PageFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    struct Document: Encodable {
        var title: String?
        var byline: String?
        var date: String?
        var page: String?
        var text: String
        var links: [String]
    }

    static func printJSON(_ article: ExtractedArticle, page: String?) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let document = Document(
            title: article.title, byline: article.byline, date: article.date?.formatted(.iso8601),
            page: page.map(TextSanitizer.singleLine), text: article.text, links: article.links)
        if let data = try? encoder.encode(document) { print(JSONText.safe(String(decoding: data, as: UTF8.self))) }
    }

    static func printText(_ article: ExtractedArticle, page: String?) {
        if let title = article.title { Console.say("Title: \(TextSanitizer.singleLine(title))") }
        if let byline = article.byline { Console.say("Author: \(TextSanitizer.singleLine(byline))") }
        if let date = article.date { Console.say("Date: \(date.formatted(.iso8601))") }
        if let page { Console.say("Page: \(TextSanitizer.singleLine(page))") }
        Console.say("")
        Console.say(TextSanitizer.multiLine(article.rich.plainText))
    }
}
