import Testing

@testable import HeraldCore

/// A page from the web gives the reader only links it may follow: relative ones, resolved
/// against the page (or its `<base>` when that is a web address), and http, https, mailto.
@Suite("The links of an extracted article")
struct ExtractedLinksTests {
    static func page(base: String? = nil, links: [String]) -> String {
        let head = base.map { "<head><base href=\"\($0)\"></head>" } ?? ""
        let anchors = links.enumerated().map { "<a href=\"\($1)\">link \($0)</a>" }.joined(separator: ", ")
        return """
            <html>\(head)<body><nav><a href="/">Home</a></nav><article>
            <p>The first paragraph says enough, with commas, clauses and words, to be read as prose by anyone.</p>
            <p>The second one holds the links, \(anchors), and goes on a while longer after them.</p>
            </article></body></html>
            """
    }

    @Test("javascript:, data: and file: links are text only; http, https, mailto and relative ones stay")
    func schemes() throws {
        let html = Self.page(links: [
            "javascript:alert(1)", " JaVa\tScRiPt:alert(2)", "data:text/html,<b>x</b>", "file:///etc/passwd",
            "https://example.org/a", "mailto:me@example.org", "b/c.html", "http://example.org/d",
        ])
        let article = try #require(ArticleExtractor.extract(html: html, url: "https://news.example/2026/story"))
        #expect(
            article.links == [
                "https://example.org/a", "mailto:me@example.org", "https://news.example/2026/b/c.html",
                "http://example.org/d",
            ])
        #expect(article.text.contains("link 0, link 1, link 2, link 3, link 4"))
    }

    @Test("a <base> that is not a web address is ignored; a web one resolves relative links")
    func base() throws {
        let hostile = try #require(
            ArticleExtractor.extract(
                html: Self.page(base: "javascript:alert(1)//", links: ["x.html"]), url: "https://news.example/a/"))
        #expect(hostile.links == ["https://news.example/a/x.html"])
        let file = try #require(
            ArticleExtractor.extract(html: Self.page(base: "file:///etc/", links: ["passwd"]), url: "https://news.example/"))
        #expect(file.links == ["https://news.example/passwd"])
        let web = try #require(
            ArticleExtractor.extract(
                html: Self.page(base: "https://cdn.example/b/", links: ["x.html"]), url: "https://news.example/a/"))
        #expect(web.links == ["https://cdn.example/b/x.html"])
    }
}
