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
    /// Plays a downloaded episode (an absolute path) with the player command.
    func play(file: String) -> String?
    /// Opens a file in the user's editor (`$VISUAL`, else `$EDITOR`, else `vi`), the terminal
    /// its own until the editor exits.
    func edit(file: String) -> String?
    /// Puts text on the clipboard.
    func copy(_ text: String) -> String?
    /// Runs `notify-command` after a reload that brought new articles, and waits for it
    /// without holding the main actor.
    func notify(_ command: String, newArticles: Int, feeds: Int) async -> String?
    /// Runs a command of the config (`pipe-to`) by `/bin/sh` with `text` on its standard
    /// input and the terminal its own until it exits.
    func pipe(_ text: String, to command: String) -> String?
    /// Runs `bookmark-cmd` by `/bin/sh` with `arguments` after it (never in its line), its
    /// input and output `/dev/null`, and waits for it without holding the main actor.
    func bookmark(_ command: String, arguments: [String]) async -> String?
}

extension ArticleViewModel {
    /// The article's numbered links: `[1]` is the first.
    public var links: [String] { body.links }
}
