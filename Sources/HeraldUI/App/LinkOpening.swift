/// What the reader hands to the world outside the terminal: links to the browser, media to
/// the player, text to the clipboard. Each returns what went wrong, or nil.
@MainActor
public protocol LinkOpening: AnyObject {
    /// Opens a web link with `$BROWSER`.
    func open(_ url: String) -> String?
    /// Plays a media file (a podcast episode) with the player command.
    func play(_ url: String) -> String?
    /// Puts text on the clipboard.
    func copy(_ text: String) -> String?
}

extension ArticleViewModel {
    /// The article's numbered links: `[1]` is the first.
    public var links: [String] { body.links }
}
