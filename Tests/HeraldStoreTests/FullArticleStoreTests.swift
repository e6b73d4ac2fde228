import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

/// Whole articles read from web pages, in a real library file (schema 16): stored packed
/// beside the feed's text, shown in its place or not, which articles a reload wants pages
/// for, found by search, and gone with their article.
@Suite("Whole articles in the library")
struct FullArticleStoreTests {
    let feed = "https://a.example/feed"
    let other = "https://b.example/feed"
    // Items are dated 1_790_000_000 + day × 86,400.
    let now = Date(timeIntervalSince1970: 1_790_000_000 + 10 * 86_400)
    let fetched = Date(timeIntervalSince1970: 1_790_000_123)

    /// 600 characters of prose: more than `feedTextIsShort` calls short.
    static let longText = String(repeating: "The river rose all week and the town watched it. ", count: 12)

    func whole(_ text: String, html: String? = nil, page: String = "https://example.org/page") -> FullArticle {
        FullArticle(state: .whole, page: page, fetched: fetched, html: html, text: text)
    }

    func id(_ store: LibraryStore, _ title: String) async throws -> String {
        try #require(
            try await store.articles(in: .all, page: .first(limit: 100)).first { $0.title == title }?.id)
    }

    func line(_ url: String, _ key: FeedSettingKey, _ value: String) -> FeedSettingLine {
        FeedSettingLine(url: url, key: key, value: value, file: "config", line: 1, column: 6)
    }

    func item(_ id: String, _ title: String, _ text: String, link: String?, html: String? = nil) -> ParsedItem {
        ParsedItem(
            id: id, title: title, link: link, published: Date(timeIntervalSince1970: 1_790_000_000), text: text,
            html: html)
    }

    /// Rows of the whole articles' tables for one article: (full_articles, full_fts).
    func rows(_ store: LibraryStore, _ id: String) async throws -> [Int64] {
        [
            try await store.integer("SELECT count(*) FROM full_articles WHERE article_id = \(id)"),
            try await store.integer("SELECT count(*) FROM full_fts WHERE rowid = \(id)"),
        ]
    }

    // MARK: Stored and shown

    @Test("a whole article comes back with its article, text and HTML as saved, packed, and is what is shown")
    func savedAndShown() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await library.open(withFeed: feed)
        try await store.upsertArticles(
            feedURL: feed, items: [item("1", "Floods", "The river rose.", link: "https://example.org/1", html: "<p>The river rose.</p>")])
        let id = try await id(store, "Floods")
        #expect(try await store.article(id: id).full == nil, "never fetched")
        let text = Self.longText + "\n\nLanterns were lit along the quay."
        let html = "<base href=\"https://example.org/1\"><p>\(Self.longText)</p><p>Lanterns were lit along the quay.</p>"
        try await store.saveFullArticle(articleID: id, whole(text, html: html, page: "https://example.org/1"))
        let article = try await store.article(id: id)
        #expect(article.full == whole(text, html: html, page: "https://example.org/1"))
        #expect(article.showsFullArticle)
        #expect(article.shownText == text && article.shownHTML == html)
        #expect((article.text, article.html) == ("The river rose.", "<p>The river rose.</p>"), "the feed's stays")
        #expect(article.textSource == "the whole article, from its web page (x: the feed's text)")
        // Packed as the articles' bodies are: a repetitive text takes a fraction of its size.
        #expect(try await store.integer("SELECT typeof(body) = 'blob' FROM full_articles") == 1)
        let stored = try await store.integer("SELECT length(body) FROM full_articles")
        #expect(stored * 3 < text.utf8.count + html.utf8.count, "\(stored) bytes")
        // Text without HTML comes back without.
        try await store.saveFullArticle(articleID: id, whole("Only text, no markup at all here.", page: "https://example.org/1"))
        let plain = try await store.article(id: id)
        #expect(plain.full?.html == nil && plain.full?.text == "Only text, no markup at all here.")
        #expect(plain.shownHTML == nil && plain.shownText == "Only text, no markup at all here.")
        #expect(try await store.integrityCheck() == "ok")
    }

    @Test("shown false gives the feed's text back, and a later save keeps the reader's choice")
    func shownChoiceKept() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await library.open(withFeed: feed)
        try await store.upsertArticles(
            feedURL: feed, items: [item("1", "Floods", "The river rose.", link: "https://example.org/1", html: "<p>The river rose.</p>")])
        let id = try await id(store, "Floods")
        try await store.saveFullArticle(articleID: id, whole(Self.longText, html: "<p>\(Self.longText)</p>"))
        try await store.setFullArticleShown(false, articleID: id)
        let feedText = try await store.article(id: id)
        #expect(!feedText.showsFullArticle && feedText.full?.shown == false)
        #expect(feedText.shownText == "The river rose." && feedText.shownHTML == "<p>The river rose.</p>")
        #expect(feedText.textSource == "the feed's (x: the whole article, from https://example.org/page)")
        // The page read again (a new full article asks to be shown): the choice stands.
        try await store.saveFullArticle(articleID: id, whole(Self.longText + " Updated.", html: nil))
        let again = try await store.article(id: id)
        #expect(again.full?.shown == false && again.full?.text == Self.longText + " Updated.")
        #expect(again.shownText == "The river rose.")
        try await store.setFullArticleShown(true, articleID: id)
        #expect(try await store.article(id: id).shownText == Self.longText + " Updated.")
    }

    @Test("a page that gave no article is stored failed, with its note and no body, and the feed's text shows")
    func failedOutcome() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await library.open(withFeed: feed)
        try await store.upsertArticles(
            feedURL: feed, items: [item("1", "Floods", "The river rose.", link: "https://example.org/1")])
        let id = try await id(store, "Floods")
        try await store.saveFullArticle(articleID: id, whole(Self.longText + " lanterns"))
        #expect(try await store.search("lanterns", limit: 10).map(\.article.id) == [id])
        let note = "the page holds no article (it may need JavaScript, or show a consent or login wall)"
        try await store.saveFullArticle(
            articleID: id, FullArticle(state: .failed, page: "https://example.org/1", fetched: fetched, note: note))
        let article = try await store.article(id: id)
        #expect(article.full?.state == .failed && article.full?.note == note)
        #expect(article.full?.text == "" && article.full?.html == nil)
        #expect(!article.showsFullArticle && article.shownText == "The river rose.")
        #expect(article.textSource == "the feed's; its page gave none: \(note)")
        #expect(try await store.integer("SELECT count(*) FROM full_articles WHERE body IS NULL") == 1)
        // The failed page's words are not searched: the whole article it replaced is gone from the index.
        #expect(try await rows(store, id) == [1, 0])
        #expect(try await store.search("lanterns", limit: 10).isEmpty)
        // An article the library does not have is an error, not a row.
        await #expect(throws: RepositoryError.self) {
            try await store.saveFullArticle(articleID: "999", whole("Nothing"))
        }
    }

    // MARK: Which pages a reload wants

    /// Two feeds; in each, a short text, a long one, a long one ending in a read-more link,
    /// and articles whose links are no web pages (and one with none).
    func wantedLibrary() async throws -> (TemporaryLibrary, LibraryStore) {
        let library = try TemporaryLibrary()
        let store = try await LibraryStore.open(path: library.path)
        for (url, name) in [(feed, "a"), (other, "b")] {
            try await store.upsertFeed(url: url, title: name, siteURL: nil)
            try await store.upsertArticles(
                feedURL: url,
                items: [
                    item("\(name)-short", "\(name) short", "A teaser.", link: "https://example.org/\(name)/short"),
                    item("\(name)-long", "\(name) long", Self.longText, link: "https://example.org/\(name)/long"),
                    item(
                        "\(name)-more", "\(name) more", Self.longText + "Read more",
                        link: "HTTP://EXAMPLE.ORG/\(name)/more"),
                    item("\(name)-file", "\(name) file", "A teaser.", link: "file:///etc/passwd"),
                    item("\(name)-js", "\(name) js", "A teaser.", link: "javascript:alert(1)"),
                    item("\(name)-none", "\(name) none", "A teaser.", link: nil),
                ], now: now)
        }
        return (library, store)
    }

    func wanted(_ store: LibraryStore, since: Int64 = 0, _ fallback: FullArticleMode) async throws -> [String] {
        try await store.pagesWanted(since: since, fallback: fallback).map(\.link).sorted()
    }

    @Test("yes wants every linked page, auto the short and read-more texts, no none; file: and javascript: links too, to be told why")
    func modes() async throws {
        let (library, store) = try await wantedLibrary()
        defer { library.cleanUp() }
        #expect(
            try await wanted(store, .yes) == [
                "HTTP://EXAMPLE.ORG/a/more", "HTTP://EXAMPLE.ORG/b/more", "file:///etc/passwd", "file:///etc/passwd",
                "https://example.org/a/long", "https://example.org/a/short", "https://example.org/b/long",
                "https://example.org/b/short", "javascript:alert(1)", "javascript:alert(1)",
            ])
        #expect(
            try await wanted(store, .auto) == [
                "HTTP://EXAMPLE.ORG/a/more", "HTTP://EXAMPLE.ORG/b/more", "file:///etc/passwd", "file:///etc/passwd",
                "https://example.org/a/short", "https://example.org/b/short", "javascript:alert(1)",
                "javascript:alert(1)",
            ])
        #expect(try await wanted(store, .no).isEmpty)
        // A request carries what the feed gave, to tell whether the page says more.
        let short = try #require(
            try await store.pagesWanted(since: 0, fallback: .yes).first { $0.link.hasSuffix("a/short") })
        let shortID = try await id(store, "a short")
        #expect(short.feedText == "A teaser." && short.articleID == shortID)
        #expect(try await store.pageRequest(articleID: short.articleID) == short)
        // A link that is no web address is handed on (WebPages says why, never fetching it);
        // no link at all is nothing to read.
        for title in ["a file", "a js"] {
            #expect(try await store.pageRequest(articleID: try await id(store, title)) != nil, "\(title)")
        }
        #expect(try await store.pageRequest(articleID: try await id(store, "a none")) == nil)
    }

    @Test("a feed's own full-article wins over the fallback, and the config file's over the library's")
    func perFeed() async throws {
        let (library, store) = try await wantedLibrary()
        defer { library.cleanUp() }
        try await store.setFeedSetting(url: feed, key: .fullArticle, value: "no")
        try await store.setFeedSetting(url: other, key: .fullArticle, value: "auto")
        let otherAuto = [
            "HTTP://EXAMPLE.ORG/b/more", "file:///etc/passwd", "https://example.org/b/short", "javascript:alert(1)",
        ]
        #expect(try await wanted(store, .yes) == otherAuto)
        #expect(try await wanted(store, .no) == otherAuto)
        try await store.syncConfigFeedSettings([line(feed, .fullArticle, "yes"), line(other, .fullArticle, "no")])
        #expect(
            try await wanted(store, .no) == [
                "HTTP://EXAMPLE.ORG/a/more", "file:///etc/passwd", "https://example.org/a/long",
                "https://example.org/a/short", "javascript:alert(1)",
            ])
        // Listed (`herald feed show`) in the table's order: after the keys before it.
        try await store.setFeedSetting(url: feed, key: .userAgent, value: "Agent/1")
        #expect(
            try await store.storedFeedSettings(url: feed).map { "\($0.key.rawValue) \($0.source.rawValue)" } == [
                "user-agent library", "full-article config", "full-article library",
            ])
    }

    @Test("only articles first seen since the reload began are wanted, newest first, and none fetched already")
    func sinceAndFetched() async throws {
        let (library, store) = try await wantedLibrary()
        defer { library.cleanUp() }
        let later = now.addingTimeInterval(60)
        try await store.upsertArticles(
            feedURL: feed,
            items: [
                item("new-1", "new 1", "A teaser.", link: "https://example.org/new/1"),
                item("new-2", "new 2", "A teaser.", link: "https://example.org/new/2"),
            ], now: later)
        let since = Int64(later.timeIntervalSince1970)
        #expect(
            try await store.pagesWanted(since: since, fallback: .yes).map(\.link) == [
                "https://example.org/new/2", "https://example.org/new/1",
            ])
        try await store.saveFullArticle(
            articleID: try await id(store, "new 2"),
            FullArticle(state: .failed, page: "https://example.org/new/2", fetched: fetched, note: "HTTP 404"))
        #expect(try await store.pagesWanted(since: since, fallback: .yes).map(\.link) == ["https://example.org/new/1"])
        #expect(try await wanted(store, .yes).count == 11, "the first batch still (less the two without a link)")
        #expect(try await store.pagesWanted(since: since, fallback: .yes, limit: 1).count == 1)
    }

    // MARK: Search

    @Test("a word only in the whole article finds it, typed whole or being typed; a match in both texts counts once")
    func search() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await library.open(withFeed: feed)
        try await store.upsertArticles(
            feedURL: feed,
            items: [
                item("1", "Floods", "The garden flooded.", link: "https://example.org/1"),
                item("2", "Other", "The garden dried.", link: "https://example.org/2"),
            ])
        let id = try await id(store, "Floods")
        #expect(try await store.search("lanterns", limit: 10).isEmpty)
        try await store.saveFullArticle(
            articleID: id, whole("The garden flooded. Lanterns were lit along the quay by the ferrymen."))
        #expect(try await store.search("lanterns ", limit: 10).map(\.article.id) == [id], "a finished word")
        #expect(try await store.search("quay ferrym", limit: 10).map(\.article.id) == [id], "the last word a prefix")
        #expect(try await store.search("LANT", limit: 10).map(\.article.id) == [id])
        #expect(try await store.completions(of: "ferr") == ["ferrymen"])
        // In the feed's text and the page's: once.
        let garden = try await store.search("garden", limit: 10).map(\.article.id)
        #expect(garden.sorted() == [id, try await self.id(store, "Other")].sorted(), "\(garden)")
        #expect(try await store.search("garden flooded ", limit: 10).map(\.article.id) == [id])
    }

    @Test("a -word leaves out an article with the word in either text, the feed's or the page's")
    func exclusions() async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await library.open(withFeed: feed)
        try await store.upsertArticles(
            feedURL: feed,
            items: [
                item("1", "Page says it", "The garden flooded.", link: "https://example.org/1"),
                item("2", "Feed says it", "The garden flooded; lanterns on Quay Weekly.", link: "https://example.org/2"),
                item("3", "Neither", "The garden dried.", link: "https://example.org/3"),
            ])
        try await store.saveFullArticle(
            articleID: try await id(store, "Page says it"), whole("The garden flooded. Lanterns were lit on the quay."))
        try await store.saveFullArticle(
            articleID: try await id(store, "Feed says it"), whole("The garden flooded, the town watched it rise."))
        func titles(_ query: String) async throws -> [String] {
            try await store.search(query, limit: 10).map(\.article.title).sorted()
        }
        #expect(try await titles("garden") == ["Feed says it", "Neither", "Page says it"])
        #expect(try await titles("garden -lanterns") == ["Neither"])
        #expect(try await titles("garden -quay -nothing") == ["Neither"])
        #expect(try await titles("flooded -dried") == ["Feed says it", "Page says it"])
        #expect(try await titles("town ") == ["Feed says it"])
        #expect(try await titles("town -lanterns").isEmpty, "found in the page, left out by the feed's word")
    }
}
