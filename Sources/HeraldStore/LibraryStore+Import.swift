public import Foundation
public import HeraldCore

/// An article brought in from another reader, with the state it had there.
public struct ImportedArticle: Sendable {
    public var item: ParsedItem
    public var isRead: Bool
    public var isStarred: Bool

    public init(item: ParsedItem, isRead: Bool, isStarred: Bool) {
        (self.item, self.isRead, self.isStarred) = (item, isRead, isStarred)
    }
}

/// What importing one feed's articles did.
public struct ImportCounts: Sendable, Equatable {
    /// Articles the library did not have.
    public var added = 0
    /// Articles now marked read, or starred, that were not before.
    public var markedRead = 0
    public var starred = 0

    public init() {}
}

extension LibraryStore {
    /// Subscribes to a feed and stores another reader's articles of it, in one transaction:
    /// a crash leaves the library as it was before this feed. See `importArticles`.
    public func importFeed(_ subscription: Subscription, articles: [ImportedArticle], now: Date = Date())
        throws
        -> (subscribed: SubscribeResult, counts: ImportCounts)
    {
        try db.transaction {
            let subscribed = try subscribe(subscription)
            return (subscribed, try writeImported(feedURL: subscription.url, articles: articles, now: now))
        }
    }

    /// Stores another reader's articles of one feed in one transaction (a crash leaves the
    /// library as it was before this feed), through the same path as a reload: rows, body,
    /// search indexes, enclosures. Known articles (same feed and guid) are updated like a
    /// reload updates them; an article already here keeps its state, except that read or
    /// starred there makes it read or starred here (nothing is ever made unread or
    /// unstarred). Importing the same articles again changes nothing.
    public func importArticles(feedURL: String, articles: [ImportedArticle], now: Date = Date()) throws
        -> ImportCounts
    {
        try db.transaction { try writeImported(feedURL: feedURL, articles: articles, now: now) }
    }

    /// `importArticles` inside the caller's transaction.
    private func writeImported(feedURL: String, articles: [ImportedArticle], now: Date) throws -> ImportCounts
    {
        let items = articles.map(\.item)
        let known = try knownArticles(feedURL: feedURL, guids: items.map(\.id))
        let prepared = Self.prepare(items, known: known)
        let feed = try feedRowID(feedURL)
        var index = SearchIndex.Pending()
        var counts = ImportCounts()
        counts.added = try upsertArticles(feedURL: feedURL, prepared: prepared, now: now, index: &index)
        try index.apply(in: db)
        for (column, wanted) in [
            ("read", articles.filter(\.isRead)), ("starred", articles.filter(\.isStarred)),
        ] {
            let statement = try db.prepare(
                "UPDATE articles SET \(column) = 1 WHERE feed_id = ?1 AND guid = ?2 AND \(column) = 0")
            for article in wanted {
                statement.reset()
                try statement.bind(.integer(feed), .text(article.item.id)).run()
                if column == "read" { counts.markedRead += db.changes } else { counts.starred += db.changes }
            }
        }
        return counts
    }
}
