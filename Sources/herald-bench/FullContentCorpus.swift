import Foundation

/// Full-content feeds shaped like those of issue 9: every item carries its whole article as
/// HTML (about 3.7 KB: 3–12 paragraphs of 20–90 words, links, lists, `pre`), and one feed in
/// four is written in Korean (the others in English or Indonesian). Deterministic per seed.
///
/// `herald-bench corpus` writes them as RSS files (to serve to newsboat and Herald alike);
/// `herald-bench store` parses them with Herald's parser and stores them, to measure what an
/// article costs on disk.
enum FullContentCorpus {
    static func language(ofFeed feed: Int) -> SyntheticText.Language {
        switch feed % 4 {
        case 3: .korean
        case 1: .indonesian
        default: .english
        }
    }

    /// An RSS 2.0 feed of `items` full-content items, `content:encoded` in CDATA.
    static func feed(_ feed: Int, items: Int, rng: inout SplitMix64) -> String {
        let language = language(ofFeed: feed)
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" \
            xmlns:dc="http://purl.org/dc/elements/1.1/">
            <channel>
            <title>\(SyntheticFeed.escaped(SyntheticText.title(language, rng: &rng)))</title>
            <link>https://bench.example.org/\(feed)/</link>
            <description>Full-content feed \(feed)</description>

            """
        for item in 0..<items {
            let title = SyntheticText.title(language, rng: &rng)
            let link = "https://bench.example.org/\(feed)/\(2026 - item / 100)/article-\(item).html"
            out += "<item>\n<title>\(SyntheticFeed.escaped(title))</title>\n<link>\(link)</link>\n"
            out += "<guid isPermaLink=\"false\">urn:herald-bench:full:\(feed):\(item)</guid>\n"
            out += "<pubDate>\(SyntheticFeed.rfc822(index: item, rng: &rng))</pubDate>\n"
            out += "<dc:creator>\(SyntheticFeed.author(rng: &rng))</dc:creator>\n"
            out += "<content:encoded><![CDATA[\(article(language, rng: &rng))]]></content:encoded>\n"
            out += "</item>\n"
        }
        out += "</channel>\n</rss>\n"
        return out
    }

    /// One article: 3–12 paragraphs of 20–90 words with links and emphasis, now and then a
    /// list or a `pre` block.
    static func article(_ language: SyntheticText.Language, rng: inout SplitMix64) -> String {
        var html = ""
        for _ in 0..<(3 + rng.below(10)) {
            html += "<p>" + paragraph(language, words: 20 + rng.below(71), rng: &rng) + "</p>\n"
            switch rng.below(10) {
            case 0, 1:
                html += "<ul>\n"
                for _ in 0..<(2 + rng.below(4)) {
                    html +=
                        "<li>\(SyntheticText.sentence(language, words: 3 + rng.below(6), rng: &rng))</li>\n"
                }
                html += "</ul>\n"
            case 2:
                html += "<pre><code>"
                for line in 0..<(2 + rng.below(6)) {
                    html += "let value\(line) = lookup(&quot;\(rng.below(10_000))&quot;) &amp;&amp; ready\n"
                }
                html += "</code></pre>\n"
            default: break
            }
        }
        return html
    }

    /// Sentences of 6–17 words until `words`, one in four inside a link or emphasis.
    static func paragraph(_ language: SyntheticText.Language, words: Int, rng: inout SplitMix64) -> String {
        var sentences: [String] = []
        var remaining = words
        while remaining > 0 {
            let count = min(remaining, 6 + rng.below(12))
            remaining -= count
            let sentence = SyntheticText.sentence(language, words: count, rng: &rng)
            switch rng.below(8) {
            case 0:
                sentences.append(
                    "<a href=\"https://example.com/notes/\(rng.below(100_000))\">\(sentence)</a>")
            case 1: sentences.append("<em>\(sentence)</em>")
            default: sentences.append(sentence)
            }
        }
        return sentences.joined(separator: " ")
    }

    /// Writes `feeds` feed files (`0000.xml`, …) sharing `articles` items, and `urls`, the
    /// newsboat urls file for a server at `baseURL` serving the directory.
    static func write(articles: Int, feeds: Int, seed: UInt64, directory: String, baseURL: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var rng = SplitMix64(seed: seed)
        var urls = ""
        var bytes = 0
        for feed in 0..<feeds {
            let items = articles / feeds + (feed < articles % feeds ? 1 : 0)
            let name = String(format: "%04d.xml", feed)
            let data = Data(self.feed(feed, items: items, rng: &rng).utf8)
            bytes += data.count
            try data.write(to: URL(fileURLWithPath: directory).appendingPathComponent(name))
            urls += "\(baseURL)/\(name)\n"
        }
        try Data(urls.utf8).write(to: URL(fileURLWithPath: directory).appendingPathComponent("urls"))
        print("wrote \(feeds) feeds, \(articles) items, \(bytes / 1024) KB of XML to \(directory)")
    }
}
