import Foundation
import HeraldCore
import HeraldStore

/// `herald list` and `herald search`: articles printed without opening the reader, as
/// aligned text or as JSON (one object per line, for scripts).
enum ListCommands {
    static func list(_ arguments: [String], options: GlobalOptions) async throws {
        var feed: String?
        var unreadOnly = false
        var json = false
        var reader = ArgumentReader(arguments)
        while let argument = reader.next() {
            switch argument {
            case "--feed": feed = try reader.value(of: argument)
            case "--unread": unreadOnly = true
            case "--json": json = true
            default: throw UsageError("list: unknown option '\(argument)'")
            }
        }
        let store = try await options.openLibrary(importingDemo: true)
        let titles = Dictionary(
            try await store.feedSummaries().map { ($0.id, $0.feed.title) }, uniquingKeysWith: { a, _ in a })
        if let feed, titles[feed] == nil { throw UsageError("no feed \(feed) (see `herald list` for the feeds)") }
        let output = Output(json: json)
        try await store.forEachArticle(feed: feed, unreadOnly: unreadOnly) { page in
            for article in page { output.print(article, feedTitle: titles[article.feedID] ?? "") }
        }
    }

    static func search(_ arguments: [String], options: GlobalOptions) async throws {
        var words: [String] = []
        var limit = 50
        var json = false
        var reader = ArgumentReader(arguments)
        while let argument = reader.next() {
            switch argument {
            case "--limit": limit = try reader.positiveNumber(of: argument)
            case "--json": json = true
            default: words.append(argument)
            }
        }
        guard !words.isEmpty else { throw UsageError("search needs a query: herald search WORDS") }
        let repository = try await options.openRepository()
        let output = Output(json: json)
        for hit in try await repository.search(words.joined(separator: " "), limit: limit) {
            output.print(hit.article, feedTitle: hit.feedTitle)
        }
    }

    /// Prints article rows as text or JSON lines.
    struct Output {
        var json: Bool
        let encoder: JSONEncoder = {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return encoder
        }()

        struct Row: Encodable {
            var id: String
            var feed: String
            var feed_url: String
            var title: String
            var author: String?
            var published: String?
            var read: Bool
            var starred: Bool
        }

        func print(_ article: ArticleSummary, feedTitle: String) {
            let published = article.published.map { $0.formatted(.iso8601) }
            if json {
                let row = Row(
                    id: article.id, feed: feedTitle, feed_url: article.feedID, title: article.title,
                    author: article.author, published: published, read: article.isRead, starred: article.isStarred)
                if let data = try? encoder.encode(row) { Swift.print(String(decoding: data, as: UTF8.self)) }
            } else {
                let flags = (article.isRead ? " " : "N") + (article.isStarred ? "*" : " ")
                let day = published.map { String($0.prefix(10)) } ?? "          "
                let feed = TextLayout.truncate(TextSanitizer.singleLine(feedTitle), toWidth: 20)
                let pad = String(repeating: " ", count: max(0, 20 - DisplayWidth.of(feed)))
                Swift.print("\(flags) \(day)  \(feed)\(pad)  \(TextSanitizer.singleLine(article.title))")
            }
        }
    }
}
