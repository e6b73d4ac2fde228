public import Foundation

/// An article of a test feed: full HTML content of a few KB, an author, a date, maybe an
/// enclosure. Its title and GUID name it, so a test can find it again on the far side.
public struct TestArticle: Sendable, Hashable {
    public var guid: String
    public var title: String
    public var author: String?
    public var published: Date
    public var link: String
    public var html: String
    public var enclosure: TestEnclosure?

    public init(
        guid: String, title: String, author: String? = nil, published: Date, link: String, html: String,
        enclosure: TestEnclosure? = nil
    ) {
        (self.guid, self.title, self.author, self.published) = (guid, title, author, published)
        (self.link, self.html, self.enclosure) = (link, html, enclosure)
    }

    /// Articles `first..<first+count` of a feed named `feed`: "`feed` article N", an hour
    /// apart (newest last), each with about 3 KB of HTML whose first paragraph names it, an
    /// author, and on every third an audio enclosure.
    public static func numbered(_ count: Int, feed: String, from first: Int = 0) -> [TestArticle] {
        (first..<first + count).map { number in
            let name = "\(feed) article \(number)"
            let paragraph =
                "<p>Lanterns on the quay &amp; the <b>harbour</b> at dusk: <a href=\"https://example.org/\(feed)/\(number)/more\">"
                + "more</a> of the long walk, told again with every detail the morning brought.</p>"
            return TestArticle(
                guid: "\(feed)-\(number)", title: name, author: "Author \(number % 3)",
                published: Date(timeIntervalSince1970: 1_790_000_000 + Double(number) * 3600),
                link: "https://example.org/\(feed)/\(number)",
                html: "<p>The body of \(name).</p>" + String(repeating: paragraph, count: 14),
                enclosure: number % 3 == 0
                    ? TestEnclosure(
                        url: "https://example.org/\(feed)/\(number).mp3", type: "audio/mpeg",
                        length: 1000 + number)
                    : nil)
        }
    }
}

public struct TestEnclosure: Sendable, Hashable {
    public var url: String
    public var type: String
    public var length: Int

    public init(url: String, type: String, length: Int) {
        (self.url, self.type, self.length) = (url, type, length)
    }
}

/// A feed a test serves to a real server: RSS 2.0, written to a file named `name`.xml.
public struct TestFeed: Sendable, Hashable {
    public var name: String
    public var title: String
    /// The folder the feed is subscribed in (an OPML outline around it), if any.
    public var category: String?
    public var articles: [TestArticle]

    public init(name: String, title: String, category: String? = nil, articles: [TestArticle]) {
        (self.name, self.title, self.category, self.articles) = (name, title, category, articles)
    }

    /// The document, newest article first as feeds have it.
    public var rss: String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" \
            xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
            <title>\(Self.escape(title))</title><link>https://example.org/\(Self.escape(name))</link>
            <description>A test feed</description>

            """
        for article in articles.sorted(by: { $0.published > $1.published }) {
            text += "<item><guid isPermaLink=\"false\">\(Self.escape(article.guid))</guid>"
            text += "<title>\(Self.escape(article.title))</title><link>\(Self.escape(article.link))</link>"
            text += "<pubDate>\(Self.rfc822(article.published))</pubDate>"
            if let author = article.author { text += "<dc:creator>\(Self.escape(author))</dc:creator>" }
            text += "<content:encoded><![CDATA[\(article.html)]]></content:encoded>"
            if let enclosure = article.enclosure {
                text +=
                    "<enclosure url=\"\(Self.escape(enclosure.url))\" type=\"\(Self.escape(enclosure.type))\" "
                text += "length=\"\(enclosure.length)\"/>"
            }
            text += "</item>\n"
        }
        return text + "</channel></rss>\n"
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func rfc822(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    /// An OPML document subscribing to `feeds`, each at `address(feed)`, in its category.
    public static func opml(_ feeds: [TestFeed], address: (TestFeed) -> String) -> String {
        var text =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\"><head><title>test</title></head><body>\n"
        func outline(_ feed: TestFeed) -> String {
            "<outline type=\"rss\" text=\"\(escape(feed.title))\" title=\"\(escape(feed.title))\" "
                + "xmlUrl=\"\(escape(address(feed)))\"/>\n"
        }
        var categories: [String] = []
        for feed in feeds {
            if let category = feed.category, !categories.contains(category) { categories.append(category) }
        }
        for category in categories {
            text += "<outline text=\"\(escape(category))\" title=\"\(escape(category))\">\n"
            for feed in feeds where feed.category == category { text += outline(feed) }
            text += "</outline>\n"
        }
        for feed in feeds where feed.category == nil { text += outline(feed) }
        return text + "</body></opml>\n"
    }
}
