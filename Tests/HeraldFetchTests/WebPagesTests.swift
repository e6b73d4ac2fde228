import Foundation
import HeraldCore
import HeraldTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@testable import HeraldFetch
@testable import HeraldReload
@testable import HeraldStore

/// Whole articles from web pages on the loopback fixture server (`/wp-…`): what a page
/// gives, in whatever charset it is written, what is stored, and hosts that ask to rest.
/// Hosts are 127.0.0.N: all of 127/8 reaches the server.
@Suite("Reading articles' web pages", .serialized)
struct WebPagesTests {
    func address(_ server: FixtureServer, _ path: String, host: String = "127.0.0.1") -> String {
        "http://\(host):\(server.port)\(path)"
    }

    /// How many requests each `/wp-` path had.
    func counts(_ server: FixtureServer) async throws -> [String: Int] {
        let (data, _) = try await URLSession.shared.data(from: server.url("/wp-count"))
        return try JSONDecoder().decode([String: Int].self, from: data)
    }

    /// The articles `fetchWanted` told of, in order.
    final class Heard: Sendable {
        let ids = Mutex<[String]>([])
        var all: [String] { ids.withLock { $0 } }
    }

    func article(_ result: Result<(ExtractedArticle, page: String), WebPages.PageError>) throws -> ExtractedArticle {
        switch result {
        case .success(let (article, _)): return article
        case .failure(let error): throw error
        }
    }

    func request(_ link: String, feedText: String) -> LibraryStore.PageRequest {
        LibraryStore.PageRequest(articleID: "1", link: link, feedText: feedText, feedHTML: nil)
    }

    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    @Test("an http page gives its article, without the page's menu and footer, and where it was read")
    func readsArticle() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let pages = WebPages(store: nil)
        let link = address(server, "/wp-article")
        let result = await pages.read(link)
        let (found, page) = try result.get()
        #expect(page == link)
        #expect(found.title == "Lanterns on the quay")
        #expect(found.text.contains("lit at dusk, one by one, by the ferrymen"))
        #expect(found.text.contains("Zoë counted 47 of them"))
        #expect(!found.text.contains("Subscribe") && !found.text.contains("harbour trust"), "\(found.text)")
        #expect(found.wordCount > 100)
        // Stored whole when it says more than the feed.
        let full = WebPages.outcome(result, request: request(link, feedText: "A teaser."), now: Self.now)
        #expect(full.state == .whole && full.page == link && full.note == nil && full.shown)
        #expect(full.text == found.text && full.html == found.html)
    }

    @Test("file: and javascript: links are no web pages: nothing is read, not even a file that holds an article")
    func notWeb() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-pages-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("article.html")
        let paragraph = "<p>The lanterns along the quay were lit at dusk, one by one, by the ferrymen.</p>"
        try Data("<html><body><article>\(String(repeating: paragraph, count: 5))</article></body></html>".utf8)
            .write(to: file)
        #expect(ArticleExtractor.extract(html: try [UInt8](Data(contentsOf: file)), url: nil) != nil)
        let pages = WebPages(store: nil)
        for link in [file.absoluteString, "javascript:alert(1)", "JavaScript://%0Aalert(1)", "ftp://example.org/a"] {
            let result = await pages.read(link)
            guard case .failure(.notWeb(let named)) = result else {
                Issue.record("\(link): \(result)")
                continue
            }
            #expect(named == link)
        }
    }

    @Test("a missing page is a fetch error, stored as failed with its reason; a page of links has no article")
    func missingPage() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let pages = WebPages(store: nil)
        let link = address(server, "/wp-missing")
        let result = await pages.read(link)
        guard case .failure(.fetch(.httpStatus(404))) = result else {
            Issue.record("\(result)")
            return
        }
        let full = WebPages.outcome(result, request: request(link, feedText: "A teaser."), now: Self.now)
        #expect(full.state == .failed && full.text.isEmpty && full.html == nil)
        #expect(full.note == "the page could not be fetched: HTTP 404")
        let empty = await pages.read(address(server, "/wp-empty"))
        guard case .failure(.noArticle) = empty else {
            Issue.record("\(empty)")
            return
        }
    }

    @Test("a page whose article has no more words than the feed's text is stored failed, saying so")
    func saysNoMore() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let link = address(server, "/wp-short")
        let result = await WebPages(store: nil).read(link)
        let words = try article(result).wordCount
        #expect(words > 5)
        let teaser = (0..<words).map { "word\($0)" }.joined(separator: " ")
        let same = WebPages.outcome(result, request: request(link, feedText: teaser), now: Self.now)
        #expect(same.state == .failed && same.page == link && same.text.isEmpty)
        #expect(
            same.note
                == "the page's article (\(words) words) says no more than the feed (\(words)): a paywall, a consent wall or a page that needs JavaScript?"
        )
        let shorter = WebPages.outcome(
            result, request: request(link, feedText: teaser.split(separator: " ").dropLast().joined(separator: " ")),
            now: Self.now)
        #expect(shorter.state == .whole)
    }

    @Test(
        "a page not in UTF-8 is read in the charset its server or its meta names",
        arguments: [
            ("/wp-1252", "Café naïve “quoted” — €5 for a lantern, they said at the quay."),
            ("/wp-meta/iso-8859-1", "Ærøskøbing's façade, señor: the lanterns ½ lit by the quay."),
            ("/wp-meta/iso-8859-2", "Zażółć gęślą jaźń: the lanterns lit by the quay."),
            ("/wp-sjis", String(repeating: "東京の電車は時間通りに来ました。", count: 3)),
        ])
    func charsets(_ path: String, _ paragraph: String) async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let found = try article(await WebPages(store: nil).read(address(server, path)))
        #expect(found.text.hasPrefix(paragraph), "\(found.text)")
        #expect(!found.text.contains("\u{FFFD}"))
    }

    @Test("a 429 with Retry-After rests its host: the next page of that host is not asked for; other hosts are")
    func resting() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let pages = WebPages(store: nil)
        let busy = await pages.read(address(server, "/wp-busy/120", host: "127.0.0.2"))
        guard case .failure(.fetch(.serverAskedToWait(status: 429, seconds: 120))) = busy else {
            Issue.record("\(busy)")
            return
        }
        let next = await pages.read(address(server, "/wp-article", host: "127.0.0.2"))
        guard case .failure(.resting(host: "127.0.0.2")) = next else {
            Issue.record("\(next)")
            return
        }
        #expect(try await counts(server) == ["/wp-busy/120": 1])
        _ = try article(await pages.read(address(server, "/wp-article", host: "127.0.0.3")))
        #expect(try await counts(server) == ["/wp-busy/120": 1, "/wp-article": 1])
        // A 503 without Retry-After rests its host too.
        _ = await pages.read(address(server, "/status/503", host: "127.0.0.4"))
        guard case .failure(.resting) = await pages.read(address(server, "/wp-article", host: "127.0.0.4")) else {
            Issue.record("a host that answered 503 was asked again")
            return
        }
        #expect(try await counts(server)["/wp-article"] == 1)
    }

    @Test("after a reload the wanted pages are read and stored, resting hosts' articles left unmarked, each heard")
    func fetchWanted() async throws {
        let server = try FixtureServer()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("herald-pages-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await LibraryStore.open(path: directory.appendingPathComponent("h.db").path)
        let feed = "https://a.example/feed"
        try await store.upsertFeed(url: feed, title: "A", siteURL: nil)
        try await store.setFeedSetting(url: feed, key: .fullArticle, value: "yes")
        let long = (0..<200).map { "word\($0)" }.joined(separator: " ")
        let links: [(String, String, String)] = [
            ("whole", address(server, "/wp-article?n=1", host: "127.0.0.5"), "A teaser."),
            ("no more", address(server, "/wp-short?n=2", host: "127.0.0.5"), long),
            ("missing", address(server, "/wp-missing?n=3", host: "127.0.0.5"), "A teaser."),
            ("file", "file:///etc/passwd", "A teaser."),
        ] + (1...4).map { ("busy \($0)", address(server, "/wp-busy/120?n=\($0)", host: "127.0.0.6"), "A teaser.") }
        try await store.upsertArticles(
            feedURL: feed,
            items: links.map { ParsedItem(id: $0.0, title: $0.0, link: $0.1, published: Self.now, text: $0.2) })
        var ids: [String: String] = [:]
        for row in try await store.articles(in: .all, page: .first(limit: 100)) { ids[row.title] = row.id }
        let heard = Heard()
        let pages = WebPages(store: store)
        let counts = try await pages.fetchWanted(since: 0, fallback: .no) { id in heard.ids.withLock { $0.append(id) } }
        // The file: link is never fetched, but stored as failed with why (`herald show`, `x`).
        #expect(counts == (whole: 1, failed: 3))
        #expect(heard.all.sorted() == ["whole", "no more", "missing", "file"].compactMap { ids[$0] }.sorted())
        func stored(_ title: String) async throws -> Article {
            try await store.article(id: try #require(ids[title]))
        }
        let whole = try await stored("whole")
        #expect(whole.showsFullArticle && whole.shownText.contains("Zoë counted 47"))
        let noMore = try #require(try await stored("no more").full)
        #expect(noMore.state == .failed && noMore.note?.contains("says no more than the feed") == true)
        #expect(try await stored("missing").full?.note == "the page could not be fetched: HTTP 404")
        #expect(try await stored("file").full?.note == "not a web address: file:///etc/passwd")
        for title in ["busy 1", "busy 2", "busy 3", "busy 4"] {
            #expect(try await stored(title).full == nil, "\(title)")
        }
        // The busy host was asked at most as often as pages of a host are read at once.
        let asked = try await self.counts(server)["/wp-busy/120"] ?? 0
        #expect(asked >= 1 && asked <= WebPages.pagesPerHost, "\(asked)")
        #expect(try await store.search("ferrymen", limit: 10).map(\.article.id) == [ids["whole"]])
        // Again: what was stored is not read again, and the resting host is not asked.
        let again = try await pages.fetchWanted(since: 0, fallback: .no)
        #expect(again == (whole: 0, failed: 0))
        #expect(try await self.counts(server) == ["/wp-article": 1, "/wp-short": 1, "/wp-missing": 1, "/wp-busy/120": asked])
        #expect(try await store.integrityCheck() == "ok")
    }
}
