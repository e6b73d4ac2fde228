import Foundation
import HeraldCore
import HeraldStore

/// `herald list` and `herald search`: articles printed without opening the reader, as
/// aligned text or as JSON (one object per line, for scripts).
enum ListCommands {
    /// `herald list [--feed URL] [--tag T] [--starred] [--unread] [--limit N] [--json]`:
    /// the filters combine (every one given must hold).
    static func list(_ arguments: [String], options: GlobalOptions) async throws {
        var filter = ArticleFilter()
        var limit: Int?
        var json = false
        var reader = ArgumentReader(arguments)
        while let argument = reader.next() {
            switch argument {
            case "--feed":
                guard filter.feed == nil else { throw UsageError("list: --feed may be given once") }
                filter.feed = try reader.value(of: argument)
            case "--tag":
                guard filter.tag == nil else { throw UsageError("list: --tag may be given once") }
                filter.tag = try reader.value(of: argument)
            case "--starred": filter.starredOnly = true
            case "--unread": filter.unreadOnly = true
            case "--limit": limit = try reader.positiveNumber(of: argument)
            case "--json": json = true
            default: throw UsageError("list: unknown option '\(argument)'")
            }
        }
        let store = try await options.openLibrary(importingDemo: true)
        let feeds = Dictionary(
            try await store.feedSummaries().map { ($0.id, $0.feed) }, uniquingKeysWith: { first, _ in first })
        if let feed = filter.feed, feeds[feed] == nil {
            throw UsageError("no feed \(feed) (`herald export` lists the feeds)")
        }
        if let tag = filter.tag, !feeds.values.contains(where: { $0.tags.contains(tag) }) {
            throw UsageError("no tag '\(tag)' (`herald tags` lists the tags)")
        }
        let output = ArticleOutput(json: json)
        try await store.forEachArticle(matching: filter, limit: limit) { page in
            for listing in page {
                let feed = feeds[listing.summary.feedID]
                output.print(
                    listing.summary, feedTitle: feed?.title ?? "",
                    details: ArticleOutput.Details(
                        link: listing.link, tags: feed?.tags ?? [], enclosures: listing.enclosures))
            }
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
        let output = ArticleOutput(json: json)
        for hit in try await repository.search(words.joined(separator: " "), limit: limit) {
            output.print(hit.article, feedTitle: hit.feedTitle)
        }
    }
}
