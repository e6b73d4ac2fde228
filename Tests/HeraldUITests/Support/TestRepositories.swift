import Foundation
import HeraldCore

/// A small library built in code: `feeds` feeds of `articles` articles each.
func makeLibrary(feeds: Int = 2, articles: Int = 30) -> InMemoryArticleRepository {
    let start = Date(timeIntervalSince1970: 1_790_000_000)
    return InMemoryArticleRepository(
        feeds: (0..<feeds).map { f in
            let feed = Feed(url: "feed-\(f)", title: "Feed \(f)")
            let items = (0..<articles).map { a in
                Article(
                    summary: ArticleSummary(
                        id: "feed-\(f)/\(a)", feedID: feed.id, title: "Article \(a)",
                        published: start.addingTimeInterval(Double(a) * 3600)),
                    feedTitle: feed.title, link: nil,
                    text: (0..<8).map { "Paragraph \($0) of article \(a)." }.joined(separator: "\n\n"))
            }
            return (feed, items)
        })
}

/// A repository whose feed list waits until the test opens a gate, to see loading states.
actor GatedRepository: WrappingRepository {
    nonisolated let inner: InMemoryArticleRepository
    private let gate = Gate()
    private let failure: String?

    init(inner: InMemoryArticleRepository, failure: String? = nil) {
        self.inner = inner
        self.failure = failure
    }

    func openGate() async { await gate.open() }

    struct Failure: Error, CustomStringConvertible { var description: String }

    func feedSummaries() async throws -> [FeedSummary] {
        await gate.pass()
        if let failure { throw Failure(description: failure) }
        return await inner.feedSummaries()
    }
}
