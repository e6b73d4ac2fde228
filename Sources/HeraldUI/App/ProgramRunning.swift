/// What the reader hands to programs outside it: links to the browser, media to the player,
/// text to the clipboard, a reload's counts to `notify-command`. Each returns what went
/// wrong, or nil. The UI never starts a process itself: this is implemented where processes
/// are spawned (`TerminalPrograms` in HeraldTerminal); without it (a headless session) links
/// say they need a terminal and no notify command runs.
@MainActor
public protocol ProgramRunning: AnyObject {
    /// Opens a web link with `$BROWSER`.
    func open(_ url: String) -> String?
    /// Plays a media file (a podcast episode) with the player command.
    func play(_ url: String) -> String?
    /// Puts text on the clipboard.
    func copy(_ text: String) -> String?
    /// Runs `notify-command` after a reload that brought new articles, and waits for it
    /// without holding the main actor.
    func notify(_ command: String, newArticles: Int, feeds: Int) async -> String?
}

extension ArticleViewModel {
    /// The article's numbered links: `[1]` is the first.
    public var links: [String] { body.links }
}
