public import Foundation

/// When a reload fetches the web pages of a feed's new articles (`full-article`).
public enum FullArticleMode: String, Sendable, Hashable, CaseIterable {
    /// Every new article's page.
    case yes
    /// The pages of new articles whose text is short or ends in a read-more link.
    case auto
    case no

    public init?(setting: String) {
        switch setting.trimmingCharacters(in: .whitespaces).lowercased() {
        case "yes", "true", "on", "1": self = .yes
        case "auto": self = .auto
        case "no", "false", "off", "0": self = .no
        default: return nil
        }
    }
}

/// An article's whole text, read from its web page (`ArticleExtractor`), or why it could not
/// be: kept beside the feed's text, which it never replaces.
public struct FullArticle: Sendable, Hashable {
    public enum State: String, Sendable, Hashable {
        /// The page's article was read, and says more than the feed.
        case whole
        /// The page could not be fetched, held no article, or less than the feed (a paywall,
        /// a consent wall, a page that needs JavaScript): `note` says which.
        case failed
    }

    public var state: State
    /// The page it was read from (after redirects).
    public var page: String
    public var fetched: Date
    /// Why there is no whole article, in one line.
    public var note: String?
    /// The body as HTML (with its base), and as text; empty when it failed.
    public var html: String?
    public var text: String
    /// The reader shows it in place of the feed's text (the article's key switches back).
    public var shown: Bool

    public init(
        state: State, page: String, fetched: Date, note: String? = nil, html: String? = nil, text: String = "",
        shown: Bool = true
    ) {
        (self.state, self.page, self.fetched, self.note) = (state, page, fetched, note)
        (self.html, self.text, self.shown) = (html, text, shown)
    }

    /// Whether a feed's text calls for the page (`full-article auto`): under 500 characters
    /// of text, or ending in a link that reads as "read more" / "continue reading" / "…".
    public static func feedTextIsShort(text: String, html: String?) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.count < 500 { return true }
        let tail = trimmed.suffix(200).lowercased()
        let endings = ["read more", "continue reading", "read the full", "full story", "[…]", "[...]", "…", "more »"]
        if endings.contains(where: { tail.hasSuffix($0) }) { return true }
        if let html {
            let htmlTail = html.suffix(400).lowercased()
            return ["read more", "continue reading", "read the rest", "full article"].contains { htmlTail.contains($0) }
        }
        return false
    }
}

/// Reads articles' web pages for the reader (HeraldReload's `WebPages`): the article's key
/// fetches its page now, or switches between the page's text and the feed's.
public protocol PageReading: Sendable {
    /// Fetches the article's page, extracts its article and stores what it found (or why
    /// there is none); nil when the article has no web address.
    func fetchFullArticle(articleID: String) async throws -> FullArticle?
    /// Shows the page's article (true) or the feed's text for this article from now on.
    func setFullArticleShown(_ shown: Bool, articleID: String) async throws
    /// Fetches the pages of the articles first seen at or after `since` (seconds) in feeds
    /// set to `full-article yes` or `auto` (`fallback`: the mode of feeds without their own):
    /// how many gave a whole article, and how many did not.
    func fetchNewPages(since: Int64, fallback: FullArticleMode) async throws -> (whole: Int, failed: Int)
}
