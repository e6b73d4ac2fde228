public import HeraldCore
public import HeraldConfig

/// The reader: a stack of screens over one repository, driven by keys, drawn into a canvas.
///
/// It never touches a terminal: a backend feeds it keys and draws what `render` produces, so
/// tests and `herald snapshot` run exactly the code a user's terminal runs. Every key is
/// looked up in the one `ActionTable`; the action is then carried out for the screen on top.
@MainActor
public final class ReaderApp {
    /// A screen of the reader, with its view model.
    public enum Screen {
        case feeds(FeedListModel)
        /// A feed's articles, or a virtual feed's (All articles, Unread, Starred, a tag).
        case articles(ArticleListModel)
        case article(ArticleViewModel)
        /// Search as you type, over every feed; pushed by `/` from any other screen.
        case search(SearchModel)
        /// Every link of an article (`L`).
        case links(LinksModel)
        /// Every tag (`t`).
        case tags(TagListModel)
        /// Why feeds failed to load (`!`).
        case errors(ReloadErrorsModel)
        /// A page of text: the help, or a whole error message.
        case page(PageModel)
        /// The podcast queue (`d`).
        case downloads(DownloadsModel)
    }

    /// A yes/no question on the status line; `y` runs the action, any other key cancels.
    struct Confirmation {
        var question: String
        var action: @MainActor () -> Void
        /// A question answered by one of these keys (`g`'s sort) in place of y or n; any
        /// other key leaves it unanswered.
        var choices: [Character: @MainActor () -> Void] = [:]
    }

    public let feedList: FeedListModel
    /// The screens, the one on top last; changed only by `push` and `pop`.
    public private(set) var stack: [Screen]
    public internal(set) var isFinished = false
    public let work = PendingWork()
    /// The work the app starts for its lifetime (reloads, indexing, sync, timers); each
    /// screen has its own (`ReaderScreen.ownedEffects`).
    let effects: Effects
    public var theme: Theme
    /// The size of the last frame, so page keys know how many rows a page holds.
    public var size: Size
    /// Paints the whole screen again, whatever the terminal shows now (Ctrl-L); the
    /// terminal sets it, elsewhere there is nothing to repaint.
    public var onRedraw: @MainActor () -> Void = {}
    /// Asks for a frame; the render loop coalesces many calls into one.
    public var onChange: @MainActor () -> Void = {} {
        didSet { work.onFinish = { [weak self] in self?.onChange() } }
    }
    /// A message for the status line until the next key (a failed write, a done bulk action).
    public internal(set) var message: String?
    /// The read and starred flags every screen shows (`ArticleFlags`).
    public let flags = ArticleFlags()
    /// The mode that takes keys before the screen does, if any (`Overlay.swift`).
    var overlay = Overlay.none
    /// Opens links, plays media, copies to the clipboard and runs the notify command; nil
    /// outside a terminal.
    public var programs: (any ProgramRunning)?
    /// The podcast queue and its downloads; nil for feed files read with --feeds.
    public var podcasts: (any PodcastQueue)?
    /// Fetches articles' web pages for their whole text (`x`); nil without a library.
    public var pages: (any PageReading)?
    /// The subscriptions as a urls file to edit (`E`); nil for feed files read with --feeds.
    public var subscriptionEditor: (any SubscriptionEditing)?
    /// Writes of flags, in order, and `u` (`FlagWriter`).
    public private(set) lazy var writes = FlagWriter(app: self)
    /// The commands run this session, oldest first (Up recalls them).
    var commandHistory: [String] = []
    /// Reloads, the indexer after them and the reload timer (`ReloadRunner`).
    public private(set) lazy var reloads = ReloadRunner(app: self)
    /// Syncs the library with the other devices while the reader is open (`SyncRunner`).
    public private(set) lazy var sync = SyncRunner(app: self)

    let repository: any ArticleRepository
    /// The keys in force (the defaults, changed by the config file).
    public var keymap: Keymap = .standard
    /// The config file's settings (`:set` changes them for the session).
    public var settings = Settings()
    /// Hears the settings after `:set` changed them, to apply what lives outside the app
    /// (the mouse, the browser, the reloader); set by the terminal and the composition root.
    public var onSettingsChange: @MainActor (Settings) -> Void = { _ in }
    /// The config's `macro` lines, by key (`,` then the key).
    public var macros: [Key: Macro] = [:]
    /// The config's lines in force (`ReaderConfig.lines`), with this session's `:set` and
    /// `:source` after them: what `:dumpconfig` writes.
    var configLines: [String] = []
    /// The config's `highlight` lines, matched once per title.
    public let highlighter = TitleHighlighter()
    /// The config's `highlight article|all` lines, matched when an article is laid out.
    public let textHighlighter = TextHighlighter()
    /// The theme with the config's colours, before the display settings (`:set` starts
    /// from it again), and whether the terminal has no colours.
    var display: (colours: Theme, terminalMonochrome: Bool)?

    /// Takes the config file's keys and settings; its first mistake shows on the status
    /// line until the next key (the reader starts with the rest of the file).
    public func apply(_ config: ReaderConfig) {
        configLines = config.lines
        keymap = config.keymap
        settings = config.settings
        for (element, style) in config.colors { theme.set(element, style) }
        highlighter.highlights = config.highlights
        textHighlighter.highlights = config.textHighlights
        macros = config.macros
        feedList.queries = config.queries
        display = (theme, display?.terminalMonochrome ?? false)
        applyDisplaySettings()
        if let first = config.diagnostics.first {
            let more = config.diagnostics.count > 1 ? " (and \(config.diagnostics.count - 1) more)" : ""
            message = "config: \(first)\(more) — herald config check"
        }
    }
    /// Shows `text` on the status line until the next key: what the composition root learns
    /// at start (a library that cannot be written).
    public func say(_ text: String) { message = text }

    /// What search debounces wait on (real time in a terminal, immediate or manual elsewhere).
    let clock: any DebounceClock

    public init(
        repository: any ArticleRepository, size: Size, theme: Theme = Theme(),
        clock: any DebounceClock = LiveDebounceClock()
    ) {
        self.repository = repository
        self.size = size
        self.theme = theme
        self.clock = clock
        self.effects = Effects(work: work)
        self.feedList = FeedListModel(repository: repository, work: work)
        self.stack = [.feeds(feedList)]
        feedList.onQueryCounted = { [weak self] counted in self?.queryCounted(counted) }
    }

    /// A query's fresh counts reach its open list (it reads its rows again around the cursor).
    func queryCounted(_ counted: ArticleListSummary) {
        for case .articles(let list) in stack where list.list.source == counted.source {
            list.refresh(total: counted.total, unread: counted.unread, visible: bodyRows)
        }
    }

    public var screen: Screen { stack[stack.count - 1] }

    /// The window title: what is open (the terminal shows it sanitised).
    public var windowTitle: String { screen.model.windowTitle.map { "Herald · " + $0 } ?? "Herald" }

    /// The screen on top, as the action table names it.
    public var screenKind: ScreenKind { screen.model.kind }

    /// Starts loading the first screen.
    public func start() {
        // The first sync waits for the first screen's counts: it may hold the library a while.
        feedList.load { [weak self] in self?.sync.start() }
        if settings.reloadOnStart, reloads.reloader != nil { reloads.start(only: nil) } else { reloads.startIndexing() }
        reloads.startTimer()
        onChange()
    }

    /// Waits until every load started so far (and any it started) has ended, searches
    /// included: with a clock whose sleeps end only when a test advances it, advance first.
    public func settle() async { await work.settle() }

    /// Rows available to a list or the article body.
    var bodyRows: Int { max(size.height - ScreenFrame.chromeRows, 1) }
    /// Rows available to search results (the prompt takes the first body row).
    var searchRows: Int { max(bodyRows - 1, 1) }

    // MARK: Keys

    public func handle(_ key: Key) {
        defer { onChange() }
        if key == .resize {
            // A resize is not an answer: a question on the status line stays asked.
            resized()
            return
        }
        // Like a resize, a redraw is no answer and no text: the question, the prompt and the
        // message stay as they are.
        if keymap.action(for: key, on: screenKind) == .redraw {
            onRedraw()
            return
        }
        message = nil
        if case .mouse(let event) = key {
            mouse(event)
            return
        }
        switch overlay {
        case .confirmation(let confirmation):
            overlay = .none
            if !confirmation.choices.isEmpty {
                if case .character(let answer) = key, let chosen = confirmation.choices[answer] {
                    chosen()
                } else {
                    message = "Left as it was."
                }
            } else if key == .character("y") || key == .character("Y") {
                confirmation.action()
            }
            return
        case .commandLine:
            commandLineKey(key)
            return
        case .macro:
            overlay = .none
            runMacro(key)
            return
        case .none, .typing: break
        }
        // The search prompt takes text before any action (j, q and digits are letters there).
        if case .search(let model) = screen, model.focus == .query {
            switch model.edit(with: key) {
            case .notAnEdit: break
            case .full:
                message = QueryEditing.fullMessage
                return
            case .changed, .unchanged: return
            }
        }
        let kind = screenKind
        if !pendingKeys.isEmpty || keymap.startsSequence(key, on: kind) {
            continueSequence(key, on: kind)
            return
        }
        guard let action = keymap.action(for: key, on: kind) else {
            if case .character(let c) = key, let digit = c.wholeNumberValue, c.isASCII, kind != .search {
                typedDigit(digit, on: kind)
                return
            }
            let help = keymap.key(for: .help, on: kind).map { " — \($0.label) for help" } ?? ""
            // newsboat's meaning first: it is what the user's fingers meant (D on the podcast
            // queue is not what they reached for on an article list).
            if let newsboat = ActionTable.newsboatAbsent[key] {
                message = "\(key.label) (newsboat's \(newsboat))\(help)"
            } else if let places = keymap.elsewhere(key, from: kind) {
                message = "\(key.label) works in: \(places)\(help)"
            } else {
                message = "unknown key \(key.label)\(help)"
            }
            return
        }
        perform(action, count: nil)
    }

    /// A digit no binding took, as newsboat's: in an article it opens that link of the text
    /// (0: link 10); on a list it begins the command line (`:7` Enter goes to row 7).
    private func typedDigit(_ digit: Int, on kind: ScreenKind) {
        if kind == .article {
            withCurrentArticle { article, body in
                self.performOnLinks(of: article, body: body, .openInBrowser, count: digit == 0 ? 10 : digit)
            }
        } else if kind != .page {
            openCommandLine(with: String(digit))
        } else {
            message = "\(digit) does nothing on a page of text — q closes it"
        }
    }

    /// Carries out an action on the screen on top.
    func perform(_ action: Action, count: Int?) {
        switch action {
        case .quitNow:
            isFinished = true
            return
        case .help:
            showHelp()
            return
        case .undo:
            writes.undo()
            return
        case .commandLine:
            openCommandLine()
            return
        case .redraw:
            onRedraw()
            return
        case .macroPrefix:
            openMacroPrefix()
            return
        case .randomUnread:
            openRandomUnread()
            return
        case .showDownloads:
            showDownloads()
            return
        case .editURLs:
            editURLs()
            return
        case .sort, .reverseSort:
            sort(reversed: action == .reverseSort)
            return
        case .fullArticle:
            fullArticle()
            return
        case .save, .pipeTo, .gotoURL, .openInBrowserAndMarkRead, .bookmark, .enqueue:
            performOnArticle(action)
            return
        case .search where screenKind != .results:
            push(.search(SearchModel(repository: repository, clock: clock, work: work, flags: flags)))
            return
        default: break
        }
        screen.model.perform(action, count: count, in: self)
    }

    private func resized() {
        for screen in stack { screen.model.resized(in: self) }
    }

    /// Opens a screen on top; the one it covers drops what would act on the stack.
    func push(_ screen: Screen) {
        self.screen.model.ownedEffects?.covered()
        stack.append(screen)
    }

    /// Closes the screen on top (never the feed list): what it started stops.
    func pop() {
        guard stack.count > 1 else { return }
        let closed = stack.removeLast().model
        closed.ownedEffects?.close()
        closed.leave()
    }

    /// Leaves the screen on top (a key).
    func back() {
        pop()
        if case .feeds = screen { feedList.countQueriesIfStale() }
    }

    // MARK: Drawing

    /// Draws the current screen into a canvas of the app's size.
    public func render() -> Canvas {
        var canvas = Canvas(size: size)
        screen.model.draw(into: &canvas, in: self)
        // Drawing the titles is what finds a highlight too slow: say so in this frame.
        if let pattern = (highlighter.takeSlowHighlights() + textHighlighter.takeSlowHighlights()).first {
            message = "highlight: \(SlowRegexError(pattern: pattern)); it is off for this session"
        }
        if let progress = reloads.run?.progress {
            ReloadIndicator.draw(progress, into: &canvas, theme: theme)
        } else if let indexing = reloads.indexing {
            IndexingIndicator.draw(waiting: indexing.waiting, into: &canvas, theme: theme)
        }
        if let prompt = commandPrompt {
            prompt.draw(into: &canvas, theme: theme)
        } else if let question = confirmation?.question {
            StatusOverlay.draw(question, style: theme.marker, into: &canvas, theme: theme)
        } else if let message {
            StatusOverlay.draw(message, style: theme.status, into: &canvas, theme: theme)
        }
        return canvas
    }
}

/// A message that replaces the status line for one frame (questions, results of actions).
enum StatusOverlay {
    static func draw(_ text: String, style: Style, into canvas: inout Canvas, theme: Theme) {
        let row = canvas.size.height - 2
        guard row >= 1 else { return }
        canvas.fill(row: row, style: theme.status)
        canvas.write(
            " " + TextLayout.truncate(TextSanitizer.singleLine(text), toWidth: canvas.size.width - 1), x: 0,
            y: row, style: style)
    }
}
