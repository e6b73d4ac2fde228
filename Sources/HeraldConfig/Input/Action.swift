/// Everything a key can ask the reader to do. Keys are bound to actions in one table
/// (`ActionTable`), which key handling, the hint line, the `?` help, `herald --help` and the
/// README's key table all read.
public enum Action: String, Sendable, Hashable, CaseIterable {
    case down, up
    case pageDown = "page-down"
    case pageUp = "page-up"
    case top, bottom
    /// Space in the article view: a page down, and at the end the next unread article.
    case readOn = "read-on"
    case open, back, quit
    case nextUnread = "next-unread"
    case previousUnread = "prev-unread"
    case nextArticle = "next-article"
    case previousArticle = "prev-article"
    case nextFeed = "next-feed"
    case previousFeed = "prev-feed"
    case toggleRead = "toggle-read"
    case toggleStar = "toggle-star"
    case markListRead = "mark-feed-read"
    case markAllRead = "mark-all-read"
    case search
    case focusResults = "toggle-search-focus"
    case reload
    case reloadAll = "reload-all"
    case showErrors = "show-errors"
    case openInBrowser = "open-in-browser"
    case showLinks = "show-links"
    case copyURL = "copy-url"
    case play
    case showTags = "show-tags"
    case help
    case quitNow = "hard-quit"
    /// Takes back the last change of read or starred flags (`N`, `s`, `A`, `C`, `:` commands).
    case undo
    /// Paints the whole screen again (newsboat's Ctrl-L): after text was written to the
    /// terminal behind the reader's back (a `wall`, a background job).
    case redraw
    /// The `:` command line on the status line.
    case commandLine = "command-line"
    /// Shows or hides the feeds (on the feed list) or articles (on an article list) that have
    /// nothing unread (newsboat's `l`).
    case toggleShowRead = "toggle-show-read"
    /// Opens the article's link and marks it read (newsboat's `O`).
    case openInBrowserAndMarkRead = "open-in-browser-and-mark-read"
    /// Saves the article as text to a file, asking for the name (newsboat's `s`).
    case save
    /// Pipes the article as text to a command, asking for it (newsboat's `|`).
    case pipeTo = "pipe-to"
    /// Asks for a link's number and opens it (newsboat's `#`).
    case gotoURL = "goto-url"
    /// Runs `bookmark-cmd` with the article's link and title (newsboat's Ctrl-B).
    case bookmark
    /// Shows the article's HTML as it was fetched, or its text again (newsboat's Ctrl-U).
    case toggleSource = "toggle-source-view"
    /// Opens a random unread article (newsboat's Ctrl-K).
    case randomUnread = "random-unread"
    /// The next key names a macro of the config to run (newsboat's `,`).
    case macroPrefix = "macro-prefix"
    /// Adds the article's podcast to the download queue (newsboat's `e`).
    case enqueue
    /// Fetches the article's web page and shows its whole article in place of the feed's
    /// text; again: the feed's text.
    case fullArticle = "full-article"
    /// The subscriptions as a urls file in the user's editor; what changed there is applied
    /// (newsboat's `E`).
    case editURLs = "edit-urls"
    /// Asks how to sort the list (feeds: by order added, title, unread; articles: newest or
    /// oldest first), newsboat's `g`.
    case sort
    /// The list in the other order (newsboat's `G`).
    case reverseSort = "rev-sort"
    /// Opens the podcast queue (podboat's screen, inside the reader).
    case showDownloads = "show-downloads"
    // The queue's own, under podboat's names.
    /// Downloads the selected episode now (or again, from where it stopped).
    case downloadNow = "pb-download"
    case cancelDownload = "pb-cancel"
    /// Removes the selected episode from the queue.
    case deleteDownload = "pb-delete"
    /// Removes the finished and played episodes from the queue.
    case purgeDownloads = "pb-purge"
    /// Marks the selected episode played, or not played.
    case markPlayed = "pb-mark-as-finished"
    case moreDownloads = "pb-increase-max-dls"
    case fewerDownloads = "pb-decrease-max-dls"
}

/// A screen of the reader, as the action table names it.
public enum ScreenKind: String, Sendable, Hashable, CaseIterable {
    case feeds, articles, article, search, results, links, tags, errors, page, downloads

    /// The screen's name in the help and the README.
    public var title: String {
        switch self {
        case .feeds: "feed list"
        case .articles: "article list"
        case .article: "article"
        case .search: "search prompt"
        case .results: "search results (Tab)"
        case .links: "links"
        case .tags: "tags"
        case .errors: "reload errors"
        case .page: "help and error pages"
        case .downloads: "podcast queue"
        }
    }

    /// Screens that are lists of rows (moving keys select a row).
    static let lists: [ScreenKind] = [.feeds, .articles, .links, .tags, .errors, .downloads]
}

/// One row of the action table: these keys do this action on these screens.
public struct ActionBinding: Sendable {
    public var action: Action
    public var keys: [Key]
    /// Sequences of keys that do the action (`g g`), set by the config file.
    public var sequences: [[Key]] = []
    /// Where the keys do it; empty means on every screen (search's prompt takes letters
    /// first: there only non-letter keys reach the table).
    public var screens: [ScreenKind]
    /// One line for the help, `--help` and the README.
    public var summary: String
    /// A short label for the hint line, when the action belongs there.
    public var hint: String?
    /// The screens whose hint line shows `hint` (nil: all of `screens`).
    public var hintScreens: [ScreenKind]?
    /// The keys the table gave it: while they are unchanged the hint is shown as written.
    let defaultKeys: [Key]

    public init(
        _ action: Action, _ keys: [Key], on screens: [ScreenKind], _ summary: String, hint: String? = nil,
        hintOn hintScreens: [ScreenKind]? = nil
    ) {
        self.action = action
        self.keys = keys
        self.screens = screens
        self.summary = summary
        self.hint = hint
        self.hintScreens = hintScreens
        self.defaultKeys = keys
    }

    /// The hint label on `screen`'s hint line, if it has one there: as written while the
    /// keys are the table's, else the first key with the hint's words (`x:next unread`).
    public func hint(on screen: ScreenKind) -> String? {
        guard let hint, hintScreens?.contains(screen) ?? true else { return nil }
        if keys == defaultKeys, sequences.isEmpty { return hint }
        guard let first = labels.first, let colon = hint.firstIndex(of: ":") else { return nil }
        return first + hint[colon...]
    }

    public var isGlobal: Bool { screens.isEmpty }
}
