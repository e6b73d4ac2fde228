/// Namespaces the feed parser knows.
enum XMLFeedNamespace {
    case none, rss10, rss090, userlandRSS2, atom10, atom03, rdf, dc, dcterms, content, media,
        itunes, xml, xhtml, other

    static let table: [(String, XMLFeedNamespace)] = [
        ("http://www.w3.org/2005/Atom", .atom10),
        ("http://purl.org/atom/ns#", .atom03),
        ("http://www.w3.org/1999/02/22-rdf-syntax-ns#", .rdf),
        ("http://purl.org/rss/1.0/", .rss10),
        ("http://my.netscape.com/rdf/simple/0.9/", .rss090),
        ("http://backend.userland.com/rss2", .userlandRSS2),
        // Namespaces RSS 2.0 and pre-1.0 Atom documents were published under (feedparser
        // reads them as the plain format too).
        ("http://backend.userland.com/rss", .userlandRSS2),
        ("http://blogs.law.harvard.edu/tech/rss", .userlandRSS2),
        ("http://purl.org/rss/1.0/modules/rss091#", .userlandRSS2),
        ("http://purl.org/echo/", .atom03),
        ("http://purl.org/pie/", .atom03),
        ("http://example.com/newformat#", .atom03),
        ("http://example.com/necho", .atom03),
        ("uri/of/echo/namespace#", .atom03),
        ("http://purl.org/dc/elements/1.1/", .dc),
        ("http://purl.org/dc/terms/", .dcterms),
        ("http://purl.org/rss/1.0/modules/content/", .content),
        ("http://search.yahoo.com/mrss/", .media),
        ("http://search.yahoo.com/mrss", .media),
        ("http://www.itunes.com/dtds/podcast-1.0.dtd", .itunes),
        ("http://www.w3.org/XML/1998/namespace", .xml),
        ("http://www.w3.org/1999/xhtml", .xhtml),
    ]

    var isRSS: Bool { self == .none || self == .rss10 || self == .rss090 || self == .userlandRSS2 }
    var isAtom: Bool { self == .atom10 || self == .atom03 }
}
