public import HeraldCore

/// The settings of the config file (`set NAME VALUE`), each with its default and what it
/// does; `herald config default`, `:set` and the man page are printed from `specs`.
public struct Settings: Sendable, Equatable {
    /// The program that opens links (`w3m`, `firefox --new-tab`, with `%s` for the URL);
    /// nil: `$BROWSER`.
    public var browser: String?
    /// The program that plays podcasts and videos; nil: `$HERALD_PLAYER`, else the browser.
    public var player: String?
    /// `C` (mark every article read) asks first.
    public var confirmMarkAll = true
    /// Feeds fetched at once by a reload.
    public var reloadJobs = 200
    /// The reader reloads every feed when it opens.
    public var reloadOnStart = false
    /// The mouse: the wheel scrolls, a click selects, a double click opens.
    public var mouse = true
    /// Articles older than this many days are removed after a reload (0: kept forever).
    public var keepDays = 0
    /// A feed keeps at most this many articles, the newest (0: all).
    public var keepArticles = 0
    /// The sync folder `herald sync` uses without `--dir` (a `~/` start is the home).
    public var syncDirectory: String?
    /// The folder `s` offers to save articles in (a `~/` start is the home); nil: the home.
    public var savePath: String?
    /// Run by `/bin/sh` for Ctrl-B, followed by the article's link, title, text and feed
    /// title as its arguments (newsboat's `bookmark-cmd`); nil: none.
    public var bookmarkCommand: String?

    // The podcast queue (podboat's settings).
    /// The folder episodes go to, with `%`-fields (`%n` the feed's title …).
    public var downloadPath = Settings.defaultDownloadPath
    /// An episode's file name, with `%`-fields.
    public var downloadFileName = Settings.defaultDownloadFileName
    /// Episodes downloaded at once.
    public var maxDownloads = 1
    /// Removing an entry from the queue removes its finished file too.
    public var deletePlayedFiles = false
    /// Whether reloads fetch the web pages of new articles, for feeds without their own
    /// `full-article` setting.
    public var fullArticle = FullArticleMode.no
    /// The server account the library reads through (`urls-source` and its settings).
    public var account = AccountSettings()

    // `try!`: constant formats that parse (EpisodePathTests.defaults builds `Settings()` with both).
    public static let defaultDownloadPath = try! ListFormat.parse("~/", for: .download).get()
    public static let defaultDownloadFileName = try! ListFormat.parse(
        "%?u?%u&%Y-%b-%d-%H%M%S.unknown?", for: .download
    ).get()

    // Reloading on a timer and telling about new articles (per-feed settings: `feed` lines).
    /// Minutes between reloads while the reader is open (0: none); also what `herald
    /// reload --due` waits for feeds without a `reload-interval` of their own.
    public var reloadInterval = 0
    /// Run after a reload that brought new articles (`%n` articles, `%f` feeds); nil: none.
    public var notifyCommand: String?

    // Display settings (Settings+Display.swift reads them).
    /// Colours; no: attributes only, as on a terminal without colours.
    public var colors = true
    /// The article body's widest column (0: the window's width).
    public var textWidth = 0
    /// The article's column in the middle of a wider window.
    public var centreText = false
    public var dateFormat = DateFormat.iso
    /// Dates in the article lists (`set datetime-format`, newsboat's); nil: `dateFormat`.
    public var listDateFormat: DateFormat?
    /// The article list's rows (`set articlelist-format`); nil: Herald's own row.
    public var articleListFormat: ListFormat?
    /// The feed list's rows (`set feedlist-format`); nil: Herald's own row.
    public var feedListFormat: ListFormat?
    /// The feed list shows feeds without unread articles.
    public var showReadFeeds = true
    /// Article lists show read articles.
    public var showReadArticles = true
    public var feedSort = FeedSort.config
    /// Article lists read oldest first (`set article-sort oldest`).
    public var oldestFirst = false
    /// The selected row marked by `>` alone, without the bar.
    public var arrowCursor = false

    public init() {}

    public enum Kind: Sendable {
        case command, bool, integer(ClosedRange<Int>)
        /// Minutes, bare or with a unit (`MinutesText`).
        case minutes(ClosedRange<Int>)
        /// A folder (`~/` is the home).
        case folder
        /// One of a few words (the first is how `config default` writes it).
        case choice([String])
        /// A date format: a name or a %-pattern (`DateFormat`).
        case dateFormat
        /// A row format of a list (`ListFormat`); empty: the list's own row.
        case listFormat(ListFormat.Target)
        /// A line of text (an address, a user name).
        case text
        /// A password: never printed back.
        case secret

        public var expected: String {
            switch self {
            case .command: "a command"
            case .folder: "a folder"
            case .bool: "yes or no"
            case .integer(let range): "a number from \(range.lowerBound) to \(range.upperBound)"
            case .minutes(let range):
                "\(MinutesText.forms), from \(range.lowerBound) to \(range.upperBound) minutes"
            case .choice(let words): words.joined(separator: " or ")
            case .text: "a line of text"
            case .secret: "a password"
            case .dateFormat:
                DateFormat.names.map(\.name).joined(separator: ", ") + " or a pattern such as %d %b %Y"
            case .listFormat(.download):
                "a path with " + ListFormat.Target.download.fields.map { "%\($0.letter)" }.joined(separator: " ")
            case .listFormat(let target):
                "a format of " + target.fields.map { "%\($0.letter)" }.joined(separator: " ")
                    + ", or \"\" for Herald's own row"
            }
        }
    }

    public struct Spec: Sendable {
        public var name: String
        public var kind: Kind
        /// The default, as the config file would write it (empty: none).
        public var defaultValue: String
        public var summary: String
    }

    /// Every setting: these, then the display settings (`displaySpecs`).
    public static let specs = coreSpecs + displaySpecs + accountSpecs

    static let coreSpecs: [Spec] = [
        Spec(
            name: "browser", kind: .command, defaultValue: "",
            summary:
                "the program that opens links (w3m, lynx, firefox --new-tab; %s stands for the URL); unset: $BROWSER"
        ),
        Spec(
            name: "player", kind: .command, defaultValue: "",
            summary:
                "the program that plays podcasts and videos (mpv, vlc); unset: $HERALD_PLAYER, else the browser"
        ),
        Spec(
            name: "confirm-mark-all", kind: .bool, defaultValue: "yes",
            summary: "C (mark every article of every feed read) asks first"),
        Spec(
            name: "reload-jobs", kind: .integer(1...1000), defaultValue: "200",
            summary: "feeds fetched at once by a reload (at most 6 per host, whatever this says)"),
        Spec(
            name: "reload-on-start", kind: .bool, defaultValue: "no",
            summary: "the reader reloads every feed when it opens"),
        Spec(
            name: "keep-days", kind: .integer(0...36_500), defaultValue: "0",
            summary:
                "after a reload, articles older than this many days are removed, starred ones never (0: kept forever)"
        ),
        Spec(
            name: "keep-articles", kind: .integer(0...1_000_000), defaultValue: "0",
            summary: "after a reload, a feed keeps its newest this many articles, and starred ones (0: all)"),
        Spec(
            name: "mouse", kind: .bool, defaultValue: "yes",
            summary:
                "the mouse wheel scrolls, a click selects a row, a double click opens it (no: the terminal keeps the mouse, to select text)"
        ),
        // Reload timer and notification.
        Spec(
            name: "reload-interval", kind: .minutes(0...525_600), defaultValue: "0",
            summary:
                "minutes between reloads while the reader is open, and for `herald reload --due` (0: no timer)"
        ),
        Spec(
            name: "notify-command", kind: .command, defaultValue: "",
            summary:
                "run (by /bin/sh) after a reload that brought new articles; %n: how many, %f: from how many feeds"
        ),
        Spec(
            name: "save-path", kind: .folder, defaultValue: "",
            summary: "the folder s offers to save articles in (unset: your home)"),
        Spec(
            name: "bookmark-cmd", kind: .command, defaultValue: "",
            summary:
                "run by /bin/sh for Ctrl-B, followed by the article's link, title, text and feed title as its arguments, as newsboat passes them (never spliced into the command line)"
        ),
        // The podcast queue (podboat's).
        Spec(
            name: "download-path", kind: .listFormat(.download), defaultValue: "~/",
            summary:
                "the folder e downloads episodes to, with newsboat's %-fields (~/Podcasts/%n: a folder per feed)"),
        Spec(
            name: "download-filename-format", kind: .listFormat(.download),
            defaultValue: "%?u?%u&%Y-%b-%d-%H%M%S.unknown?",
            summary: "an episode's file name, with newsboat's %-fields (%F-%t.%e); a field never makes a folder"),
        Spec(
            name: "max-downloads", kind: .integer(1...20), defaultValue: "1",
            summary: "episodes downloaded at once (+ and - on the queue screen change it)"),
        Spec(
            name: "delete-played-files", kind: .bool, defaultValue: "no",
            summary: "removing a played episode from the queue (D, P) deletes its file too (a downloaded one never played stays)"),
        Spec(
            name: "full-article", kind: .choice(["yes", "auto", "no"]), defaultValue: "no",
            summary:
                "after a reload, fetch the web pages of new articles for their whole text (auto: when the feed's text is short or ends in a read-more link); a feed's own full-article setting wins"
        ),
        // Sync (issue 12).
        Spec(
            name: "sync-dir", kind: .folder, defaultValue: "",
            summary:
                "the folder herald sync shares with your other machines (~/Sync/herald, carried by Syncthing, Dropbox, git); the open reader syncs with it too; unset: herald sync needs --dir"
        ),
    ]

    /// The setting named `name`, or what the reader says of a name it does not know.
    package static func spec(named name: String) -> Result<Spec, ConfigWordError> {
        guard let spec = specs.first(where: { $0.name == name }) else {
            return .failure(
                ConfigWordError(
                    message: "unknown setting `\(name)`"
                        + ConfigFile.suggestion(for: name, among: specs.map(\.name))))
        }
        return .success(spec)
    }

    /// Sets a setting from its config text; the problem in words when the text does not fit.
    package mutating func set(_ spec: Spec, _ text: String) -> String? {
        if Self.displaySpecs.contains(where: { $0.name == spec.name }) { return setDisplay(spec, text) }
        if Self.accountSpecs.contains(where: { $0.name == spec.name }) { return setAccount(spec, text) }
        switch spec.kind {
        case .command, .folder:
            let value = text.trimmingCharacters(in: .whitespaces)
            if value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                return "\(spec.kind.expected) cannot hold control characters"
            }
            if spec.name == "browser" { browser = value.isEmpty ? nil : value }
            if spec.name == "player" { player = value.isEmpty ? nil : value }
            if spec.name == "sync-dir" { syncDirectory = value.isEmpty ? nil : value }
            if spec.name == "notify-command" { notifyCommand = value.isEmpty ? nil : value }
            if spec.name == "save-path" { savePath = value.isEmpty ? nil : value }
            if spec.name == "bookmark-cmd" { bookmarkCommand = value.isEmpty ? nil : value }
        case .bool:
            let value: Bool
            switch text.lowercased() {
            case "yes", "true", "on", "1": value = true
            case "no", "false", "off", "0": value = false
            default: return "\(spec.name) is \(spec.kind.expected)"
            }
            if spec.name == "confirm-mark-all" { confirmMarkAll = value }
            if spec.name == "reload-on-start" { reloadOnStart = value }
            if spec.name == "mouse" { mouse = value }
            if spec.name == "delete-played-files" { deletePlayedFiles = value }
        case .integer(let range):
            guard let value = Int(text), range.contains(value) else {
                return "\(spec.name) is \(spec.kind.expected)"
            }
            if spec.name == "reload-jobs" { reloadJobs = value }
            if spec.name == "keep-days" { keepDays = value }
            if spec.name == "keep-articles" { keepArticles = value }
            if spec.name == "max-downloads" { maxDownloads = value }
        case .minutes(let range):
            guard let value = MinutesText.parse(text, in: range) else {
                return "\(spec.name) \(MinutesText.problem(text, in: range))"
            }
            if spec.name == "reload-interval" { reloadInterval = value }
        case .listFormat(.download):
            let format = text.isEmpty ? spec.defaultValue : text
            switch ListFormat.parse(format, for: .download) {
            case .success(let format):
                if spec.name == "download-path" { downloadPath = format } else { downloadFileName = format }
            case .failure(let error): return "at column \(error.column) of the format: \(error.message)"
            }
        case .choice where spec.name == "full-article":
            guard let mode = FullArticleMode(setting: text) else { return "\(spec.name) is \(spec.kind.expected)" }
            fullArticle = mode
        case .choice, .dateFormat, .listFormat: return setDisplay(spec, text)
        case .text, .secret: return setAccount(spec, text)
        }
        return nil
    }
}
