public import HeraldCore

/// Which articles `LibraryStore.forEachArticle` walks: every condition given must hold.
public struct ArticleFilter: Sendable, Hashable {
    /// Only this feed's articles (by URL).
    public var feed: String?
    /// Only the articles of feeds with this tag.
    public var tag: String?
    public var starredOnly: Bool
    public var unreadOnly: Bool

    public init(feed: String? = nil, tag: String? = nil, starredOnly: Bool = false, unreadOnly: Bool = false)
    {
        self.feed = feed
        self.tag = tag
        self.starredOnly = starredOnly
        self.unreadOnly = unreadOnly
    }
}

/// An article's row with what a script wants beside it: its link and media files (but not
/// its body, so a page of them stays small).
public struct ArticleListing: Sendable, Hashable {
    public var summary: ArticleSummary
    public var link: String?
    public var enclosures: [Enclosure]

    public init(summary: ArticleSummary, link: String?, enclosures: [Enclosure]) {
        self.summary = summary
        self.link = link
        self.enclosures = enclosures
    }
}
