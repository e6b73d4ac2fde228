import Foundation

/// What a page says about its article: title, author and date, from its `<meta>` tags
/// (Open Graph, `article:published_time`, `author`), its schema.org data (JSON-LD and
/// microdata) and its `<title>`, `<time>` and `<base>`.
struct PageMetadata {
    var title: String?
    var byline: String?
    var date: Date?
    var base: String?

    init(tree: PageTree) {
        var ogTitle: String?
        var documentTitle: String?
        var metaAuthor: String?
        var dateText: String?
        var timeText: String?
        var linkedData: [String: Any] = [:]
        var microdataAuthor: String?
        for i in 0..<tree.nodes.count {
            switch tree.nodes[i].tag {
            case .meta:
                guard let content = tree.attributeString(.content, of: i).map(HTMLWriter.trimmed), !content.isEmpty
                else { continue }
                let key = (tree.attributeString(.property, of: i) ?? tree.attributeString(.name, of: i)
                    ?? tree.attributeString(.itemprop, of: i) ?? "").lowercased()
                switch key {
                case "og:title", "twitter:title": if ogTitle == nil { ogTitle = content }
                case "author", "article:author", "byl", "sailthru.author", "parsely-author", "dc.creator":
                    if metaAuthor == nil, !content.hasPrefix("http") { metaAuthor = content }
                case "article:published_time", "datepublished", "date", "dc.date", "pubdate", "publishdate",
                    "sailthru.date", "parsely-pub-date":
                    if dateText == nil { dateText = content }
                default: break
                }
            case .title:
                if documentTitle == nil { documentTitle = tree.textContent(of: i) }
            case .base:
                if base == nil { base = tree.attributeString(.href, of: i) }
            case .time:
                if timeText == nil { timeText = tree.attributeString(.datetime, of: i) }
            case .script:
                guard let type = tree.attributeString(.type, of: i), type.lowercased().contains("ld+json") else {
                    continue
                }
                Self.readLinkedData(tree.textContent(of: i), into: &linkedData)
            default:
                if microdataAuthor == nil, let property = tree.attribute(.itemprop, of: i),
                    property.elementsEqual("author".utf8)
                {
                    microdataAuthor = tree.textContent(of: i)
                }
            }
        }
        title = [ogTitle, linkedData["headline"] as? String, documentTitle].lazy
            .compactMap { $0.map { TextSanitizer.singleLine(HTMLWriter.trimmed($0)) } }.first { !$0.isEmpty }
        byline = [metaAuthor, Self.name(linkedData["author"]), microdataAuthor].lazy
            .compactMap { $0.map { TextSanitizer.singleLine(HTMLWriter.trimmed($0)) } }.first { !$0.isEmpty && $0.count < 200 }
        date = [dateText, linkedData["datePublished"] as? String, timeText].lazy
            .compactMap { $0.flatMap(Self.date) }.first
    }

    /// A date as pages write it: RFC 3339, or a day alone (`2022-07-21`, as WordPress themes
    /// and `<time datetime>` often give it), taken as midnight UTC.
    static func date(_ text: String) -> Date? {
        let text = HTMLWriter.trimmed(text)
        if text.utf8.count == 10 { return FeedDate.parseRFC3339(text + "T00:00:00Z") }
        return FeedDate.parseRFC3339(text) ?? FeedDate.parseISO8601(text)
    }

    private static let articleTypes: Set<String> = [
        "Article", "NewsArticle", "BlogPosting", "ReportageNewsArticle", "AnalysisNewsArticle", "OpinionNewsArticle",
        "TechArticle", "ScholarlyArticle", "Report", "LiveBlogPosting", "WebPage", "SocialMediaPosting",
    ]

    /// The fields of the page's article object in JSON-LD (its `@graph` searched too); the
    /// first one found wins, a `WebPage` only when nothing better is there.
    static func readLinkedData(_ json: String, into fields: inout [String: Any]) {
        guard json.utf8.count < 4_000_000, let data = json.data(using: .utf8),
            let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        else { return }
        var queue: [Any] = [value]
        var visited = 0
        while let next = queue.popLast(), visited < 200 {
            visited += 1
            if let list = next as? [Any] {
                queue += list.reversed()
                continue
            }
            guard let object = next as? [String: Any] else { continue }
            if let graph = object["@graph"] { queue.append(graph) }
            let types = (object["@type"] as? String).map { [$0] } ?? (object["@type"] as? [String]) ?? []
            guard types.contains(where: articleTypes.contains) else { continue }
            if fields.isEmpty || (fields["@type"] as? String) == "WebPage" {
                fields = object
                fields["@type"] = types.first
            }
        }
    }

    /// A JSON-LD person or list of persons as names.
    static func name(_ value: Any?) -> String? {
        if let text = value as? String { return text.hasPrefix("http") ? nil : text }
        if let object = value as? [String: Any] { return name(object["name"]) }
        if let list = value as? [Any] {
            let names = list.compactMap(name)
            return names.isEmpty ? nil : names.joined(separator: ", ")
        }
        return nil
    }
}
