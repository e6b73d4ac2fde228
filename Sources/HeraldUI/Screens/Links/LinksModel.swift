public import HeraldCore

/// One link of an article: where it points and what it is.
public struct ArticleLink: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// The article's own page.
        case article
        /// Link `[n]` of the text.
        case text(Int)
        /// The article's picture, or an image of the text.
        case image
        /// A media file (a podcast episode, a video).
        case media(Enclosure)
    }

    public var kind: Kind
    public var url: String

    /// `article`, `[3]`, `image`, `podcast`.
    public var label: String {
        switch kind {
        case .article: "article"
        case .text(let n): "[\(n)]"
        case .image: "image"
        case .media(let enclosure): enclosure.kindLabel.lowercased()
        }
    }

    /// What is known of a media file: `(audio/mpeg, 48 MB, 1:02:13)`; "" for other links.
    public var details: String {
        guard case .media(let enclosure) = kind, !enclosure.details.isEmpty else { return "" }
        return "(\(enclosure.details))"
    }

    public var isMedia: Bool {
        if case .media = kind { true } else { false }
    }

    /// Every link of an article, in the order a reader meets them: the article's own page,
    /// its media, the links of the text, then images.
    public static func all(of article: Article, body: RichText) -> [ArticleLink] {
        var links: [ArticleLink] = []
        if let link = article.link, !link.isEmpty { links.append(ArticleLink(kind: .article, url: link)) }
        links += article.enclosures.map { ArticleLink(kind: .media($0), url: $0.url) }
        links += body.links.enumerated().map { ArticleLink(kind: .text($0.offset + 1), url: $0.element) }
        if let image = article.image, !image.isEmpty { links.append(ArticleLink(kind: .image, url: image)) }
        return links
    }
}

/// The links view (`L`): every link of one article, to open (Enter, `o`) or copy (`y`).
@MainActor
public final class LinksModel {
    public let title: String
    public let links: [ArticleLink]
    public var cursor = ListCursor()

    public init(title: String, links: [ArticleLink]) {
        self.title = title
        self.links = links
    }

    public var selected: ArticleLink? {
        links.indices.contains(cursor.selected) ? links[cursor.selected] : nil
    }
}
