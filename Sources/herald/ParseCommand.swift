import Foundation
import HeraldCore
import HeraldFetch

/// `herald parse FILE_OR_URL [--json]`: the feed as Herald reads it, for debugging a feed
/// (`-` reads standard input).
enum ParseCommand {
    static func run(_ arguments: [String]) async throws {
        var source: String?
        var json = false
        for argument in arguments {
            if argument == "--json" {
                json = true
            } else if source == nil {
                source = argument
            } else {
                throw UsageError("parse takes one file or URL")
            }
        }
        guard let source else {
            throw UsageError("parse needs a file or URL: herald parse FILE_OR_URL [--json]")
        }
        let (data, base, charset): (Data, String?, String?)
        if source == "-" {
            // Standard input: relative links have no base to resolve against.
            (data, base, charset) = (try LocalFile.read("-", limit: FetchLimits().maxBytes), nil, nil)
        } else {
            let url = source.contains("://") ? URL(string: source) : URL(fileURLWithPath: source)
            guard let url else { throw UsageError("not a URL: \(source)") }
            if url.isFileURL {
                // A file named on the command line is read as it is, a FIFO as it flows
                // (`herald parse <(curl …)`); a subscription's file: feed reads regular files only.
                (data, base, charset) = (
                    try LocalFile.read(url.path, limit: FetchLimits().maxBytes), url.absoluteString, nil
                )
                let feed = try FeedParser.parse(data, baseURL: base, httpCharset: charset)
                if json { printJSON(feed) } else { printText(feed) }
                return
            }
            guard case .fetched(let document) = try await FeedFetcher().fetch(FetchRequest(url: url)) else {
                throw UsageError("the server answered 304 Not Modified")
            }
            (data, base, charset) = (document.data, document.finalURL.absoluteString, document.charset)
        }
        let feed = try FeedParser.parse(data, baseURL: base, httpCharset: charset)
        if json { printJSON(feed) } else { printText(feed) }
    }

    struct Item: Encodable {
        var id: String
        var title: String
        var link: String?
        var author: String?
        var published: String?
        var text: String
        var enclosures: [ArticleOutput.EnclosureRow]
        var image: String?
    }

    struct Document: Encodable {
        var title: String
        var link: String?
        var author: String?
        var id: String?
        /// What was wrong with a document read all the same (absent for a sound one).
        var warnings: [String]?
        var items: [Item]
    }

    static func printJSON(_ feed: ParsedFeed) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let document = Document(
            title: feed.title, link: feed.siteURL, author: feed.author, id: feed.id,
            warnings: feed.warnings.isEmpty ? nil : feed.warnings,
            items: feed.items.map {
                Item(
                    id: $0.id, title: $0.title, link: $0.link, author: $0.author,
                    published: $0.published?.formatted(.iso8601), text: $0.text,
                    enclosures: $0.enclosures.map(ArticleOutput.EnclosureRow.init), image: $0.image)
            })
        if let data = try? encoder.encode(document) {
            print(JSONText.safe(String(decoding: data, as: UTF8.self)))
        }
    }

    static func printText(_ feed: ParsedFeed) {
        Console.say(
            "\(TextSanitizer.singleLine(feed.title))  \(TextSanitizer.singleLine(feed.siteURL ?? ""))")
        if let author = feed.author { Console.say("author: \(TextSanitizer.singleLine(author))") }
        if let id = feed.id { Console.say("id: \(TextSanitizer.singleLine(id))") }
        for warning in feed.warnings { Console.say("read with errors: \(TextSanitizer.singleLine(warning))") }
        Console.say("\(feed.items.count) items")
        for item in feed.items {
            Console.say("")
            Console.say("- \(TextSanitizer.singleLine(item.title))")
            Console.say("  id: \(TextSanitizer.singleLine(item.id))")
            if let link = item.link { Console.say("  link: \(TextSanitizer.singleLine(link))") }
            if let author = item.author { Console.say("  author: \(TextSanitizer.singleLine(author))") }
            Console.say("  published: \(item.published?.formatted(.iso8601) ?? "unknown")")
            for enclosure in item.enclosures {
                let details = enclosure.details
                let shown = enclosure.url + (details.isEmpty ? "" : " (\(details))")
                Console.say("  enclosure: \(TextSanitizer.singleLine(shown))")
            }
            if let image = item.image { Console.say("  image: \(TextSanitizer.singleLine(image))") }
            let preview = TextLayout.truncate(TextSanitizer.singleLine(item.text), toWidth: 100)
            if !preview.isEmpty { Console.say("  text: \(preview)") }
        }
    }
}
