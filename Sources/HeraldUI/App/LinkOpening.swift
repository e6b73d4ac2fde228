/// Opens a link outside the reader (the terminal runs `$BROWSER`); returns what went wrong,
/// or nil.
@MainActor
public protocol LinkOpening: AnyObject {
    func open(_ url: String) -> String?
}

extension ArticleViewModel {
    /// The article's numbered links: `[1]` is the first.
    public var links: [String] { body.links }
}
