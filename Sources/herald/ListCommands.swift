import Foundation
import HeraldCore
import HeraldStore

/// `herald list` and `herald search`: articles printed without opening the reader, as
/// aligned text or as JSON (one object per line, for scripts).
enum ListCommands {
    /// `herald list [--feed URL] [--tag T] [--starred] [--unread] [--query EXPR] [--limit N]
    /// [--json]`: the filters combine (every one given must hold).
    static func list(_ arguments: [String], options: GlobalOptions) async throws {
        var filter = ArticleFilter()
        var query: ArticleQuery?
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
            case "--query": query = try parseQuery(try reader.value(of: argument), and: query)
            default: throw UsageError("list: unknown option '\(argument)'")
            }
        }
        let store = try await options.openLibrary(importingDemo: true)
        let feeds = Dictionary(
            try await store.feedSummaries().map { ($0.id, $0.feed) }, uniquingKeysWith: { first, _ in first })
        if let feed = filter.feed, !feeds.values.contains(where: { $0.url == feed }) {
            throw UsageError("no feed \(feed) (`herald export` lists the feeds)")
        }
        if let tag = filter.tag, !feeds.values.contains(where: { $0.tags.contains(tag) }) {
            throw UsageError("no tag '\(tag)' (`herald tags` lists the tags)")
        }
        let output = ArticleOutput(json: json)
        let printPage: ([ArticleListing]) -> Void = { page in
            for listing in page {
                let feed = feeds[listing.summary.feedID]
                output.print(
                    listing.summary, feedTitle: feed?.title ?? "", feedURL: feed?.url ?? "",
                    details: ArticleOutput.Details(
                        link: listing.link, tags: feed?.tags ?? [], enclosures: listing.enclosures))
            }
        }
        if let query {
            try await store.forEachArticle(
                matching: query.and(filter), feedURL: filter.feed, limit: limit, printPage)
        } else {
            try await store.forEachArticle(matching: filter, limit: limit, printPage)
        }
    }

    /// A `--query` expression (several are all required); a bad one is a usage error
    /// naming the column: `herald: query:5: unclosed quote opened at column 5`.
    static func parseQuery(_ text: String, and previous: ArticleQuery?) throws -> ArticleQuery {
        do {
            let query = try ArticleQuery.parse(text)
            // One `and` however many there are: nesting one per `--query` would give every
            // walk over the query a level per argument (`InputLimits.queryDepth`).
            switch previous {
            case .and(let terms)?: return .and(terms + [query])
            case let previous?: return .and([previous, query])
            case nil: return query
            }
        } catch {
            throw UsageError("query:\(error.column): \(error.message)")
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
        let addresses = Dictionary(
            try await repository.feedSummaries().map { ($0.id, $0.feed.url) }, uniquingKeysWith: { first, _ in first })
        for hit in try await repository.search(words.joined(separator: " "), limit: limit) {
            output.print(hit.article, feedTitle: hit.feedTitle, feedURL: addresses[hit.article.feedID] ?? "")
        }
    }
}

extension ArticleQuery {
    /// The query with `list`'s other filters also required (`--feed` is passed apart: it
    /// names one feed exactly).
    fileprivate func and(_ filter: ArticleFilter) -> ArticleQuery {
        var terms = [self]
        if let tag = filter.tag { terms.append(.tag(tag)) }
        if filter.starredOnly { terms.append(.flag(.starred)) }
        if filter.unreadOnly { terms.append(.flag(.unread)) }
        return terms.count == 1 ? self : .and(terms)
    }
}
