import Foundation

/// Deterministic synthetic feeds with realistic HTML bodies (1–10 KB: paragraphs, links,
/// emphasis, lists; English, Indonesian, Korean, Japanese, accented words).
enum SyntheticFeed {
    static let accented = [
        "café", "résumé", "naïve", "façade", "Zürich", "São Paulo", "crème brûlée", "déjà vu", "Ångström",
        "piñata",
    ]

    /// An RSS 2.0 feed of about `bytes` bytes: `content:encoded` in CDATA, every fourth one
    /// entity-escaped instead; an escaped HTML `description` excerpt. With `short`, items are
    /// news-sized instead: a 300 B–1.5 KB body, entity-escaped in `description` alone (many
    /// small items cost more per byte).
    static func rss(bytes: Int, seed: UInt64 = 7, short: Bool = false) -> Data {
        var rng = SplitMix64(seed: seed)
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" \
            xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom">
            <channel>
            <title>Synthetic Herald Bench Feed</title>
            <link>https://bench.example.org/</link>
            <atom:link href="https://bench.example.org/feed.xml" rel="self" type="application/rss+xml"/>
            <description>Articles for measuring the parser</description>
            <language>en</language>

            """
        var index = 0
        while out.utf8.count < bytes {
            let language = rng.pick(SyntheticText.Language.allCases)
            let title = SyntheticText.title(language, rng: &rng)
            let html = short ? body(language, bytes: 300..<1500, rng: &rng) : body(language, rng: &rng)
            let link = "https://bench.example.org/\(2026 - index / 1000)/article-\(index)"
            out += "<item>\n<title>\(escaped(title))</title>\n<link>\(link)</link>\n"
            out += "<guid isPermaLink=\"false\">urn:herald-bench:rss:\(index)</guid>\n"
            out += "<pubDate>\(rfc822(index: index, rng: &rng))</pubDate>\n"
            out += "<dc:creator>\(author(rng: &rng))</dc:creator>\n"
            out += "<description>\(escaped(short ? html : excerpt(html)))</description>\n"
            if short {
                // the description is the whole body
            } else if index % 4 == 3 {
                out += "<content:encoded>\(escaped(html))</content:encoded>\n"
            } else {
                out += "<content:encoded><![CDATA[\(html)]]></content:encoded>\n"
            }
            out += "</item>\n"
            index += 1
        }
        out += "</channel>\n</rss>\n"
        return Data(out.utf8)
    }

    /// An Atom 1.0 feed of about `bytes` bytes: `content type="html"` entity-escaped, every
    /// fourth one in CDATA instead; a plain-text summary.
    static func atom(bytes: Int, seed: UInt64 = 11) -> Data {
        var rng = SplitMix64(seed: seed)
        var out = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">
            <title>Synthetic Herald Bench Feed</title>
            <id>urn:herald-bench:atom</id>
            <link rel="alternate" type="text/html" href="https://bench.example.org/"/>
            <link rel="self" href="https://bench.example.org/atom.xml"/>
            <updated>2026-11-30T04:00:00Z</updated>

            """
        var index = 0
        while out.utf8.count < bytes {
            let language = rng.pick(SyntheticText.Language.allCases)
            let title = SyntheticText.title(language, rng: &rng)
            let html = body(language, rng: &rng)
            out += "<entry>\n<id>urn:herald-bench:atom:\(index)</id>\n"
            out += "<title type=\"text\">\(escaped(title))</title>\n"
            out +=
                "<link rel=\"alternate\" type=\"text/html\" href=\"https://bench.example.org/entries/\(index)\"/>\n"
            out += "<updated>\(rfc3339(index: index, rng: &rng))</updated>\n"
            out += "<author><name>\(author(rng: &rng))</name></author>\n"
            out += "<summary type=\"text\">\(escaped(plainExcerpt(html)))</summary>\n"
            if index % 4 == 3 {
                out += "<content type=\"html\"><![CDATA[\(html)]]></content>\n"
            } else {
                out += "<content type=\"html\">\(escaped(html))</content>\n"
            }
            out += "</entry>\n"
            index += 1
        }
        out += "</feed>\n"
        return Data(out.utf8)
    }

    /// An HTML article body of 1–10 KB (or of a size in `bytes`).
    static func body(
        _ language: SyntheticText.Language, bytes: Range<Int> = 1000..<10_000, rng: inout SplitMix64
    ) -> String {
        let target = bytes.lowerBound + rng.below(bytes.count)
        var html = ""
        while html.utf8.count < target {
            switch rng.below(10) {
            case 0:
                html += "<h2>\(SyntheticText.title(language, rng: &rng))</h2>\n"
            case 1:
                html += "<ul>\n"
                for _ in 0..<(2 + rng.below(4)) {
                    html +=
                        "<li>\(SyntheticText.sentence(language, words: 3 + rng.below(6), rng: &rng))</li>\n"
                }
                html += "</ul>\n"
            case 2:
                html +=
                    "<blockquote><p>\(SyntheticText.sentence(language, words: 8 + rng.below(10), rng: &rng))</p></blockquote>\n"
            default:
                html += "<p>"
                for sentence in 0..<(2 + rng.below(5)) {
                    if sentence > 0 { html += language == .japanese ? "" : " " }
                    var text = SyntheticText.sentence(language, words: 6 + rng.below(12), rng: &rng)
                    switch rng.below(6) {
                    case 0:
                        text =
                            "<a href=\"https://example.com/\(language)/\(rng.below(100_000))?ref=bench&amp;x=1\">\(text)</a>"
                    case 1: text = "<em>\(text)</em>"
                    case 2: text = "<strong>\(text)</strong>"
                    case 3: text += " \(rng.pick(accented)) &amp; <code>x &lt; y</code>"
                    default: break
                    }
                    html += text
                }
                html += "</p>\n"
            }
        }
        return html
    }

    static func excerpt(_ html: String) -> String {
        guard let end = html.range(of: "</p>") else { return String(html.prefix(200)) }
        return String(html[..<end.upperBound])
    }

    static func plainExcerpt(_ html: String) -> String {
        var text = ""
        var inTag = false
        for character in excerpt(html) {
            if character == "<" {
                inTag = true
            } else if character == ">" {
                inTag = false
            } else if !inTag {
                text.append(character)
            }
        }
        return text
    }

    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + text.utf8.count / 8)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }

    static func author(rng: inout SplitMix64) -> String {
        rng.pick(["Ana Lima", "Budi Santoso", "김민준", "佐藤花子", "Zoë Müller", "Jo Smith", "Hélène Dubois"])
    }

    static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    static let dayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    static func rfc822(index: Int, rng: inout SplitMix64) -> String {
        let zone = rng.pick(["+0000", "GMT", "-0500", "+0900", "EST", "+0100"])
        return String(
            format: "%@, %02d %@ %d %02d:%02d:%02d %@", dayNames[index % 7], 1 + index % 28,
            monthNames[index % 12], 2026 - index % 10, index % 24, (index * 7) % 60, (index * 13) % 60, zone)
    }

    static func rfc3339(index: Int, rng: inout SplitMix64) -> String {
        let zone = rng.pick(["Z", "+09:00", "-05:00", "+01:00"])
        let fraction = rng.below(4) == 0 ? ".\(100 + rng.below(900))" : ""
        return String(
            format: "%d-%02d-%02dT%02d:%02d:%02d%@%@", 2026 - index % 10, 1 + index % 12, 1 + index % 28,
            index % 24, (index * 7) % 60, (index * 13) % 60, fraction, zone)
    }
}
