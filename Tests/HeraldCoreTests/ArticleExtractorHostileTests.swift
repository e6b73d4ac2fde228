import Foundation
import Testing

@testable import HeraldCore

/// The extractor on pages built to hurt it: deep nesting, markup left open to the end,
/// crowded tags, references to nothing, terminal controls, script links, a page of text
/// without tags and bytes that are no UTF-8. Each finishes in time proportional to its size
/// (the bounds below are generous for a debug build on a loaded machine) and gives what a
/// reader should see.
@Suite("Article extraction: hostile pages")
struct ArticleExtractorHostileTests {
    static let lead =
        "<p>The committee met on Thursday, in the small hall, and agreed, after a long debate, to keep the library open.</p>"
    static let second =
        "<p>Opening hours will be shorter in winter, from ten until four, but the reading room, the archive and the café stay.</p>"

    /// `body` inside a page with a title, between two paragraphs of an article.
    static func page(_ body: String, title: String = "Library stays open") -> [UInt8] {
        Array(
            ("<html><head><title>\(title)</title></head><body><article>" + lead + body + second
                + "</article></body></html>").utf8)
    }

    /// The article of `page` (as fetched from a news site), and how long finding it took.
    func extract(_ page: [UInt8]) -> (ExtractedArticle?, Duration) {
        var article: ExtractedArticle?
        let elapsed = ContinuousClock().measure {
            article = ArticleExtractor.extract(html: page, url: "https://news.example.com/library")
        }
        return (article, elapsed)
    }

    /// How long a page of megabytes may take: generous for a debug build on a loaded
    /// two-core machine (a million nested divs took 10–20 s there).
    static let bound = Duration.seconds(60)

    /// Expects `page`, which took `elapsed`, to cost about what `flat` (as many elements, not
    /// nested) costs, timed now, so that a slow or loaded machine slows both: depth must not
    /// multiply the work (work grown with depth times size took a million nested divs 187 s).
    func expectLinear(
        _ elapsed: Duration, flat: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let (_, baseline) = extract(flat)
        #expect(elapsed < Self.bound, "\(elapsed)", sourceLocation: sourceLocation)
        #expect(
            elapsed < baseline * 4 + .milliseconds(500), "\(elapsed), flat \(baseline)",
            sourceLocation: sourceLocation)
    }

    func expectArticle(_ article: ExtractedArticle?, sourceLocation: SourceLocation = #_sourceLocation) {
        let text = article?.text ?? ""
        let first = "agreed, after a long debate, to keep the library open."
        #expect(text.contains(first), sourceLocation: sourceLocation)
        let second = "the reading room, the archive and the café stay."
        #expect(text.contains(second), sourceLocation: sourceLocation)
    }

    @Test("a million nested divs: no recursion, the paragraph at the bottom is found")
    func nestedDivs() {
        let depth = 1_000_000
        let page = Self.page(
            String(repeating: "<div>", count: depth)
                + "<p>At the bottom of the well, far below the page, the last paragraph still reads, clearly.</p>"
                + String(repeating: "</div>", count: depth))
        let (article, elapsed) = extract(page)
        expectArticle(article)
        #expect(article?.text.contains("At the bottom of the well, far below the page,") == true)
        expectLinear(elapsed, flat: Self.page(String(repeating: "<div></div>", count: depth)))
    }

    @Test("a million nested <b>, never closed: the text inside is kept")
    func nestedBold() {
        let page = Self.page(
            "<p>Loud: " + String(repeating: "<b>", count: 1_000_000)
                + "the words inside every bold, all of them.</p>")
        let (article, elapsed) = extract(page)
        expectArticle(article)
        #expect(article?.text.contains("Loud: the words inside every bold, all of them.") == true)
        expectLinear(elapsed, flat: Self.page(String(repeating: "<b></b>", count: 1_000_000)))
    }

    // Past `PageParser.maxDepth` (256) boxes become siblings and their text runs together in
    // the deepest one, which then outscores the rest: what comes back is near the bottom.
    @Test("boxes nested 300 deep, a paragraph in each, then stray end tags: linear, and an article")
    func deepBoxesAndStrayEndTags() {
        let box = "<div><p>A paragraph at this level, with a comma, and another, to score well enough.</p>"
        let tail = String(repeating: "<i></i></span>", count: 200_000)
        let (article, elapsed) = extract(
            Self.page(String(repeating: box, count: 300) + tail + String(repeating: "</div>", count: 300)))
        #expect(article?.text.contains("A paragraph at this level") == true)
        expectLinear(elapsed, flat: Self.page(String(repeating: box + "</div>", count: 300) + tail))
    }

    @Test("a comment opened at the start of a large page and never closed hides all of it")
    func unclosedComment() {
        let page =
            "<html><body><article>" + String(repeating: Self.lead, count: 20_000) + "</article></body></html>"
        let (article, elapsed) = extract(Array(("<!--" + page).utf8))
        // As a browser reads it: the whole page is a comment, nothing is shown.
        #expect(article == nil)
        #expect(elapsed < Self.bound, "\(elapsed)")
    }

    @Test("an attribute quote never closed swallows the rest, as in a browser; what came before stays")
    func unterminatedQuote() {
        let rest = String(
            repeating: "<p>Swallowed by the attribute, with commas, and more, and more.</p>", count: 20_000)
        let page = Array(
            ("<html><body><article>" + Self.lead + Self.second + "<img alt=\"a broken quote src=x.png>" + rest)
                .utf8)
        let (article, elapsed) = extract(page)
        expectArticle(article)
        #expect(article?.text.contains("Swallowed") == false)
        #expect(elapsed < Self.bound, "\(elapsed)")
    }

    @Test("a script holding </div> and prose is code: none of it is text")
    func scriptWithMarkup() {
        let script = """
            <script>var html = "</div></article><p>Script prose, with commas, that must never be shown, at all.</p>";
            if (a < b && c > d) { document.write("<div>Written by script, with commas, never shown</div>"); }</script>
            <SCRIPT type="text/javascript">var upper = "<p>Upper-case script, with commas, never shown either.</p>";</SCRIPT >
            """
        let (article, _) = extract(Self.page(script))
        expectArticle(article)
        #expect(article?.text.contains("never") == false)
        #expect(article?.html.contains("script") == false)
    }

    @Test("a script never closed runs to the end of the page; the article before it stays")
    func unclosedScript() {
        let rest =
            "<script>var x = 1;"
            + String(repeating: "<p>Inside the open script, with commas, not text.</p>", count: 10_000)
        let page = Array(("<html><body><article>" + Self.lead + Self.second + rest).utf8)
        let (article, elapsed) = extract(page)
        expectArticle(article)
        #expect(article?.text.contains("open script") == false)
        #expect(elapsed < Self.bound, "\(elapsed)")
    }

    @Test("100,000 attributes on one tag: read in linear time, the first href is the link")
    func crowdedTag() {
        var tag = "<a"
        for i in 0..<100_000 { tag += " data-x\(i)=\"\(i)\" href=\"/link/\(i)\"" }
        let page = Self.page(
            "<p>A paragraph, with commas, that holds " + tag + ">one crowded link</a>, and then ends.</p>")
        let (article, elapsed) = extract(page)
        expectArticle(article)
        #expect(article?.text.contains("that holds one crowded link, and then ends.") == true)
        #expect(article?.links == ["https://news.example.com/link/0"])
        #expect(elapsed < Self.bound, "\(elapsed)")
    }

    @Test(
        "references to nothing become U+FFFD, C1 ones Windows-1252, unknown and doubled ones stay as written")
    func references() throws {
        let paragraph =
            "<p>Nul &#0; past &#x110000; surrogate &#xD800; dash &#150; escaped &amp;lt; unknown &notanentity; fish &amp chips, "
            + "<a href=\"/search?q=fish&amp=chips&copy=1\">query</a>.</p>"
        let article = try #require(extract(Self.page(paragraph)).0)
        #expect(
            article.text.contains(
                "Nul \u{FFFD} past \u{FFFD} surrogate \u{FFFD} dash \u{2013} escaped &lt; unknown &notanentity; fish & chips, query."
            ), "\(article.text)")
        // In an attribute a reference needs its `;`: the query keeps `&amp=` and `&copy=`.
        #expect(article.links == ["https://news.example.com/search?q=fish&amp=chips&copy=1"])
    }

    @Test("escaped markup is text: &lt;blink&gt; reads <blink>, in the body and in the title")
    func escapedMarkup() throws {
        let page = Self.page(
            "<p>History of the &lt;blink&gt; tag, and of &lt;marquee&gt;, in one page.</p>",
            title: "History of the &lt;blink&gt; tag")
        let article = try #require(extract(page).0)
        #expect(article.text.contains("History of the <blink> tag, and of <marquee>, in one page."))
        #expect(article.title == "History of the <blink> tag")
    }

    @Test("terminal escapes and bidi controls reach neither the text nor the title nor the byline")
    func terminalControls() throws {
        let esc = "\u{1B}"
        let body = """
            <body><article>\(Self.lead)
            <p>Text with \(esc)[31mcolour\(esc)[0m, a reference &#27;[2J, an override \u{202E}here, and \
            &#x2066;isolates&#x2069;.</p>\(Self.second)</article></body></html>
            """
        let fromTags = """
            <html><head><title>\(esc)[31mRed\(esc)[0m title\u{202E}</title>
            <meta name="author" content="Eve \(esc)]0;owned\u{07}&#x202E;Mallory&#27;[2J"></head>
            """
        // JSON writes the controls as escapes (`\u001b`): they exist once the JSON is read.
        let fromLinkedData = """
            <html><head><script type="application/ld+json">{"@type": "NewsArticle",
            "headline": "\\u001b[31mRed\\u001b[0m title\\u202e",
            "author": {"name": "Eve \\u001b]0;owned\\u0007\\u202eMallory\\u001b[2J"}}</script></head>
            """
        for head in [fromTags, fromLinkedData] {
            let article = try #require(extract(Array((head + body).utf8)).0)
            for field in [article.text, article.title ?? "", article.byline ?? ""] {
                // Line breaks separate the text's paragraphs; nothing else forbidden passes.
                #expect(
                    !field.unicodeScalars.contains { $0 != "\n" && TextSanitizer.isForbidden($0) }, "\(field)"
                )
                #expect(
                    !field.contains("[31m") && !field.contains("[2J") && !field.contains("]0;"), "\(field)")
            }
            #expect(article.text.contains("Text with colour, a reference , an override here, and isolates."))
            #expect(article.title == "Red title")
            #expect(article.byline == "Eve Mallory")
        }
    }

    @Test("javascript: links are never listed, however they are spelled")
    func scriptLinks() {
        let links = [
            "javascript:alert(1)", " JaVaScRiPt:alert(2)", "&#106;avascript:alert(3)",
            "javascript&#58;alert(4)",
            // A browser drops tabs and line breaks inside an address.
            "java&#x09;script:alert(5)", "\njavascript:alert(6)", "java\nscript:alert(7)",
            "javas&#13;cript:alert(8)",
        ].map { "<a href=\"\($0)\">bad link</a>" }.joined(separator: ", ")
        let page = Self.page("<p>Links, " + links + ", and <a href=\"/safe\">a good one</a>.</p>")
        let (article, _) = extract(page)
        expectArticle(article)
        #expect(article?.links == ["https://news.example.com/safe"])
    }

    @Test("ten megabytes of text without a tag: bounded, and no article")
    func tagless() {
        let sentence = "Words without markup, line after line, and never a tag, for ever and ever.\n"
        let page = Array(String(repeating: sentence, count: 10_000_000 / sentence.utf8.count).utf8)
        let (article, elapsed) = extract(page)
        #expect(article == nil)
        #expect(elapsed < Self.bound, "\(elapsed)")
    }

    /// `template` as UTF-8 with each `¤` replaced by the next of `bytes`.
    static func splice(_ template: String, _ bytes: [[UInt8]]) -> [UInt8] {
        var page: [UInt8] = []
        for (k, part) in template.split(separator: "¤", omittingEmptySubsequences: false).enumerated() {
            if k > 0 { page += bytes[k - 1] }
            page += part.utf8
        }
        return page
    }

    @Test("bytes that are no UTF-8 become U+FFFD; the words around them stay")
    func invalidUTF8() throws {
        let page = Self.splice(
            """
            <html><head><title>Bad ¤bytes</title></head><body><article>\(Self.lead)
            <p>Broken: ¤ lone ¤ cut ¤ overlong ¤ nul ¤ and the end, of it.</p>
            <div class="¤">\(Self.second)</div></article></body></html>
            """,
            // Not UTF-8 at all; a lone continuation byte; a cut sequence; an overlong `/`; NUL;
            // bytes past U+10FFFF.
            [[0xFF], [0xFF, 0xFE], [0x80], [0xE3, 0x81], [0xC0, 0xAF], [0x00], [0xF5, 0xFF]])
        let article = try #require(extract(page).0)
        expectArticle(article)
        #expect(article.text.contains("Broken: "))
        #expect(article.text.contains(" lone "))
        #expect(article.text.contains(" and the end, of it."))
        #expect(article.text.contains("\u{FFFD}"))
        #expect(!article.text.unicodeScalars.contains { $0.value == 0 })
        #expect(article.title == "Bad \u{FFFD}bytes")
    }
}
