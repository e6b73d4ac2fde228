public import Foundation

/// Reads a directory of feed files (JSON Feed for now) into an in-memory repository.
///
/// A file that cannot be read or parsed becomes a feed row carrying its error, so one bad
/// file never hides the others.
public enum FeedDirectory {
    public static func load(_ directory: URL) async throws -> InMemoryArticleRepository {
        let files = try FileManager.default.contentsOfDirectory(
            at: directory, includingPropertiesForKeys: nil
        )
        .filter { $0.pathExtension.lowercased() == "json" }
        .sorted { $0.lastPathComponent < $1.lastPathComponent }

        var entries: [(Feed, [Article])] = []
        for file in files {
            entries.append(read(file))
        }
        return InMemoryArticleRepository(feeds: entries)
    }

    static func read(_ file: URL) -> (Feed, [Article]) {
        let id = file.path
        let parsed: ParsedFeed
        do {
            parsed = try JSONFeedParser.parse(Data(contentsOf: file))
        } catch let error as FeedParseError {
            return (Feed(url: id, title: file.lastPathComponent, lastError: error.description), [])
        } catch {
            return (
                Feed(url: id, title: file.lastPathComponent, lastError: error.localizedDescription), []
            )
        }
        // A feed that names its own URL keeps that identity wherever its file lies.
        let address = parsed.feedURL ?? id
        let feed = Feed(url: address, title: parsed.title, siteURL: parsed.siteURL)
        var seen = Set<String>()
        let articles = parsed.items.compactMap { item -> Article? in
            // Feeds repeat ids; the first occurrence wins.
            guard seen.insert(item.id).inserted else { return nil }
            let summary = ArticleSummary(
                id: address + "#" + item.id, feedID: feed.id, title: item.title, author: item.author,
                published: item.published)
            return Article(
                summary: summary, feedTitle: parsed.title, link: item.link, text: item.text, html: item.html,
                enclosures: item.enclosures, image: item.image)
        }
        return (feed, articles)
    }
}
