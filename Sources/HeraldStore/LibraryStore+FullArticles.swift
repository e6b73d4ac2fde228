import Foundation
public import HeraldCore

/// Whole articles read from their web pages (schema 16): kept beside the feed's text, packed
/// as bodies are, and searchable (`full_fts`).
extension LibraryStore {
    /// An article's page to fetch: where, and what the feed gave (to tell whether the page
    /// says more).
    public struct PageRequest: Sendable, Hashable {
        public var articleID: String
        public var link: String
        public var feedText: String
        public var feedHTML: String?
    }

    /// The page of one article (nil: it has no link). A link that is no web address
    /// (`file:`, `javascript:`) is asked for too: the reader (`WebPages`) refuses it, and
    /// that is stored as why the article has no page.
    public func pageRequest(articleID: String) throws -> PageRequest? {
        let statement = try db.prepare("SELECT link, body FROM articles WHERE id = ?1")
        try statement.bind(.integer(Int64(articleID) ?? -1))
        return try statement.firstRow { row -> PageRequest? in
            guard let link = row.text(0), Self.isLink(link) else { return nil }
            let body = try row.withBlob(1) { try bodies.unpack($0) }
            return PageRequest(articleID: articleID, link: link, feedText: body.text, feedHTML: body.html)
        } ?? nil
    }

    /// Articles first seen at or after `since` (seconds) in feeds whose `full-article` is
    /// `yes` or `auto` (`fallback`: the mode of feeds with no setting of their own) that have
    /// no page fetched yet, newest first; `auto` keeps those whose text is short or ends in a
    /// read-more link.
    public func pagesWanted(since: Int64, fallback: FullArticleMode, limit: Int = 500) throws -> [PageRequest] {
        let settings = try feedSettings()
        var modes: [Int64: FullArticleMode] = [:]
        let feeds = try db.prepare("SELECT id, url FROM feeds")
        while try feeds.step() {
            let mode = settings[feeds.text(1) ?? ""]?.fullArticle ?? fallback
            if mode != .no { modes[feeds.int64(0)] = mode }
        }
        guard !modes.isEmpty else { return [] }
        let statement = try db.prepare(
            """
            SELECT a.id, a.feed_id, a.link, a.body FROM articles a
            WHERE a.first_seen >= ?1 AND a.link IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM full_articles x WHERE x.article_id = a.id)
            ORDER BY a.first_seen DESC, a.id DESC LIMIT ?2
            """)
        try statement.bind(.integer(since), .integer(Int64(limit) * 4))
        var wanted: [PageRequest] = []
        while try statement.step(), wanted.count < limit {
            guard let mode = modes[statement.int64(1)], let link = statement.text(2), Self.isLink(link)
            else { continue }
            let body = try statement.withBlob(3) { try bodies.unpack($0) }
            if mode == .auto, !FullArticle.feedTextIsShort(text: body.text, html: body.html) { continue }
            wanted.append(
                PageRequest(
                    articleID: String(statement.int64(0)), link: link, feedText: body.text, feedHTML: body.html))
        }
        return wanted
    }

    static func isLink(_ link: String) -> Bool {
        !link.trimmingCharacters(in: .whitespaces).isEmpty
    }

    /// Stores what the page gave: the whole article (indexed for search), or why there is
    /// none. A later fetch replaces an earlier one; whether it is shown stays as chosen.
    public func saveFullArticle(articleID: String, _ full: FullArticle) throws {
        let id = Int64(articleID) ?? -1
        try db.transaction {
            guard
                let (title, author) = try db.prepare("SELECT title, author FROM articles WHERE id = ?1")
                    .bind(.integer(id)).firstRow({ ($0.text(0) ?? "", $0.text(1)) })
            else { throw RepositoryError.noSuchArticle(articleID) }
            let shown = try db.prepare("SELECT shown FROM full_articles WHERE article_id = ?1")
                .bind(.integer(id)).firstRow { $0.int64(0) != 0 } ?? full.shown
            let body: SQLiteValue =
                full.state == .whole ? .blob(bodies.pack(text: full.text, html: full.html)) : .null
            try db.prepare(
                """
                INSERT OR REPLACE INTO full_articles(article_id, state, page, fetched, note, shown, body)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                """
            ).bind(
                .integer(id), .text(full.state.rawValue), .text(full.page),
                .integer(Int64(full.fetched.timeIntervalSince1970)), .optional(full.note), .integer(shown ? 1 : 0),
                body
            ).run()
            try db.prepare("DELETE FROM full_fts WHERE rowid = ?1").bind(.integer(id)).run()
            if full.state == .whole {
                try db.prepare("INSERT INTO full_fts(rowid, title, author, text) VALUES (?1, ?2, ?3, ?4)")
                    .bind(.integer(id), .text(title), .optional(author), .text(full.text)).run()
            }
        }
    }

    /// Shows the whole article, or the feed's text, for this article from now on.
    public func setFullArticleShown(_ shown: Bool, articleID: String) throws {
        try db.prepare("UPDATE full_articles SET shown = ?2 WHERE article_id = ?1")
            .bind(.integer(Int64(articleID) ?? -1), .integer(shown ? 1 : 0)).run()
    }

    /// The article's page as stored, if it was fetched.
    public func fullArticle(articleID: String) throws -> FullArticle? {
        let statement = try db.prepare(
            "SELECT state, page, fetched, note, shown, body FROM full_articles WHERE article_id = ?1")
        try statement.bind(.integer(Int64(articleID) ?? -1))
        return try statement.firstRow { row in
            var full = FullArticle(
                state: FullArticle.State(rawValue: row.text(0) ?? "") ?? .failed, page: row.text(1) ?? "",
                fetched: Date(timeIntervalSince1970: TimeInterval(row.int64(2))), note: row.text(3),
                shown: row.int64(4) != 0)
            if !row.isNull(5) {
                let body = try row.withBlob(5) { try bodies.unpack($0) }
                (full.text, full.html) = (body.text, body.html)
            }
            return full
        }
    }
}
