public import HeraldCore

/// The reader: a stack of screens over one repository, driven by keys, drawn into a canvas.
///
/// It never touches a terminal: a backend feeds it keys and draws what `render` produces, so
/// tests and `herald snapshot` run exactly the code a user's terminal runs.
@MainActor
public final class ReaderApp {
    /// A screen of the reader, with its view model.
    public enum Screen {
        case feeds
        case articles(ArticleListModel)
        case article(ArticleViewModel)
        /// Search as you type, over every feed; pushed by `/` from any other screen.
        case search(SearchModel)
        /// Why feeds failed in the last reload (`E`).
        case errors(ReloadErrorsModel)
    }

    /// A yes/no question on the status line; `y` runs the action, any other key cancels.
    struct Confirmation {
        var question: String
        var action: @MainActor () -> Void
    }

    public let feedList: FeedListModel
    public internal(set) var stack: [Screen] = [.feeds]
    public private(set) var isFinished = false
    public let work = PendingWork()
    public var theme: Theme
    /// The size of the last frame, so page keys know how many rows a page holds.
    public var size: Size
    /// Asks for a frame; the render loop coalesces many calls into one.
    public var onChange: @MainActor () -> Void = {} {
        didSet { work.onFinish = { [weak self] in self?.onChange() } }
    }
    /// A message for the status line until the next key (a failed write, a done bulk action).
    public internal(set) var message: String?
    var confirmation: Confirmation?
    /// Opens links (`o`, or a number then `o`) from the article view.
    public var linkOpener: (any LinkOpening)?
    /// Digits typed in the article view before `o`: which link to open.
    var linkNumber = 0
    /// Reloads feeds for `r` and `R`; nil when the reader has no library (`--feeds DIR`).
    public var reloader: (any FeedReloading)?
    /// The reload under way, if any, and how far it has got.
    var reload: ReloadRun?
    /// The feeds that failed in the last reload.
    public internal(set) var reloadFailures: [ReloadFailure] = []

    let repository: any ArticleRepository
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
        self.feedList = FeedListModel(repository: repository)
    }

    public var screen: Screen { stack[stack.count - 1] }

    /// Starts loading the first screen.
    public func start() {
        feedList.load(in: work)
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
        message = nil
        if let confirmation {
            self.confirmation = nil
            if key == .character("y") || key == .character("Y") { confirmation.action() }
            return
        }
        if key == .resize {
            if case .articles(let model) = screen { model.ensureLoaded(visible: bodyRows, in: work) }
            if case .search(let model) = screen { model.clamp(visible: searchRows) }
            return
        }
        if key == .control("c") {
            isFinished = true
            return
        }
        if case .search(let model) = screen {
            handleSearch(key, model)
            return
        }
        if key == .character("/") {
            stack.append(.search(SearchModel(repository: repository, clock: clock, work: work)))
            return
        }
        switch screen {
        case .feeds: handleFeeds(key)
        case .articles(let model): handleArticles(key, model)
        case .article(let model): handleArticle(key, model)
        case .errors(let model): handleErrors(key, model)
        case .search: break
        }
    }

    /// Every key of the search screen edits the query or moves the selection, but Enter
    /// (open the selected result, marked read) and Esc (back to where `/` was pressed).
    private func handleSearch(_ key: Key, _ model: SearchModel) {
        switch model.handle(key, visible: searchRows) {
        case .none:
            break
        case .open(let hit):
            var summary = hit.article
            summary.isRead = true
            let viewer = ArticleViewModel(summary: summary, repository: repository)
            stack.append(.article(viewer))
            viewer.load(in: work)
            if !hit.article.isRead { store(true, read: hit.article) }
        case .close:
            model.cancel()
            stack.removeLast()
        }
    }

    private func handleFeeds(_ key: Key) {
        let count = feedList.feeds.count
        if moveCursor(&feedList.cursor, key, count: count) { return }
        if handleReloadKeys(key, feed: feedList.selected?.id) { return }
        switch key {
        case .enter, .right, .character("l"):
            guard let feed = feedList.selected else { return }
            let model = ArticleListModel(feed: feed, repository: repository)
            stack.append(.articles(model))
            model.load(visible: bodyRows, in: work)
        case .character("A"):
            guard let feed = feedList.selected else { return }
            markFeedRead(feed.id, list: nil)
        case .character("C"):
            askToMarkAllRead()
        case .character("q"):
            isFinished = true
        default:
            break
        }
    }

    private func handleArticles(_ key: Key, _ model: ArticleListModel) {
        if moveCursor(&model.cursor, key, count: model.count) {
            model.ensureLoaded(visible: bodyRows, in: work)
            return
        }
        if handleReloadKeys(key, feed: model.feed.id) { return }
        switch key {
        case .enter, .right, .character("l"):
            guard let summary = model.selected else { return }
            var opened = summary
            opened.isRead = true
            let viewer = ArticleViewModel(summary: opened, repository: repository)
            stack.append(.article(viewer))
            viewer.load(in: work)
            if !summary.isRead { setRead(true, summary, in: model) }
        case .character("N"):
            guard let summary = model.selected else { return }
            setRead(!summary.isRead, summary, in: model)
        case .character("s"):
            guard let summary = model.selected else { return }
            setStarred(!summary.isStarred, summary, in: model)
        case .character("A"):
            markFeedRead(model.feed.id, list: model)
        case .character("C"):
            askToMarkAllRead()
        case .character("q"), .character("h"), .left, .escape:
            stack.removeLast()
        default:
            break
        }
    }

    private func handleArticle(_ key: Key, _ model: ArticleViewModel) {
        let count = model.lines(width: size.width, theme: theme).count
        let visible = bodyRows
        switch key {
        case .character("j"), .down: model.scroll(by: 1, lineCount: count, visible: visible)
        case .character("k"), .up: model.scroll(by: -1, lineCount: count, visible: visible)
        case .pageDown, .character(" "): model.scroll(by: visible, lineCount: count, visible: visible)
        case .pageUp: model.scroll(by: -visible, lineCount: count, visible: visible)
        case .character("g"), .home: model.top = 0
        case .character("G"), .end: model.scroll(by: count, lineCount: count, visible: visible)
        case .character("N"):
            let summary = model.summary
            model.summary.isRead.toggle()
            store(model.summary.isRead, read: summary)
        case .character("s"):
            model.summary.isStarred.toggle()
            let (isStarred, id) = (model.summary.isStarred, model.summary.id)
            listUnder()?.setStarred(isStarred, articleID: id)
            for search in searches { search.setStarred(isStarred, articleID: id) }
            write("star") { try await $0.setStarred(isStarred, articleID: id) }
        case .character(let digit) where digit.isASCII && digit.isNumber:
            linkNumber = min(linkNumber * 10 + Int(String(digit))!, 9999)
            message = "open link \(linkNumber) with o"
        case .character("o"):
            openLink(linkNumber == 0 ? 1 : linkNumber, of: model)
        case .character("q"), .character("h"), .left, .escape: stack.removeLast()
        default: break
        }
        if key != .character("o"), case .character(let c) = key, c.isNumber { return }
        linkNumber = 0
    }

    private func openLink(_ number: Int, of model: ArticleViewModel) {
        let links = model.links
        guard links.indices.contains(number - 1) else {
            message = links.isEmpty ? "This article has no links." : "No link \(number): it has \(links.count)."
            return
        }
        guard let linkOpener else {
            message = "Links open in a terminal session: \(links[number - 1])"
            return
        }
        message = linkOpener.open(links[number - 1]).map { "Could not open link \(number): \($0)" }
    }

    /// The list keys shared by every list; true when the key was one of them.
    func moveCursor(_ cursor: inout ListCursor, _ key: Key, count: Int) -> Bool {
        let visible = bodyRows
        switch key {
        case .character("j"), .down: cursor.move(by: 1, count: count, visible: visible)
        case .character("k"), .up: cursor.move(by: -1, count: count, visible: visible)
        case .pageDown, .character(" "): cursor.page(by: 1, count: count, visible: visible)
        case .pageUp: cursor.page(by: -1, count: count, visible: visible)
        case .character("g"), .home: cursor.select(0, count: count, visible: visible)
        case .character("G"), .end: cursor.select(count - 1, count: count, visible: visible)
        default: return false
        }
        return true
    }

    // MARK: Flags

    private func setRead(_ isRead: Bool, _ summary: ArticleSummary, in model: ArticleListModel) {
        if model.setRead(isRead, articleID: summary.id) {
            feedList.articleRead(isRead, inFeed: summary.feedID)
        }
        let id = summary.id
        write("read flag") { try await $0.setRead(isRead, articleID: id) }
    }

    /// A read flag changed from the article view (or a search result opened): the lists and
    /// searches under it, the counts and the repository follow. The article may belong to
    /// another feed than the list under a search, so the counts follow the flag, not a list.
    private func store(_ isRead: Bool, read summary: ArticleSummary) {
        for screen in stack {
            switch screen {
            case .articles(let list): list.setRead(isRead, articleID: summary.id)
            case .search(let search): search.setRead(isRead, articleID: summary.id)
            case .feeds, .article, .errors: break
            }
        }
        feedList.articleRead(isRead, inFeed: summary.feedID)
        let id = summary.id
        write("read flag") { try await $0.setRead(isRead, articleID: id) }
    }

    private func setStarred(_ isStarred: Bool, _ summary: ArticleSummary, in model: ArticleListModel) {
        model.setStarred(isStarred, articleID: summary.id)
        let id = summary.id
        write("star") { try await $0.setStarred(isStarred, articleID: id) }
    }

    private func markFeedRead(_ feedID: String, list: ArticleListModel?) {
        list?.markAllRead()
        feedList.feedRead(feedID)
        write("mark feed read") { try await $0.markFeedRead(feedID) }
    }

    private func askToMarkAllRead() {
        confirmation = Confirmation(question: "Mark every article of every feed read? (y/n)") {
            [weak self] in
            guard let self else { return }
            for screen in self.stack { if case .articles(let list) = screen { list.markAllRead() } }
            for feed in self.feedList.feeds { self.feedList.feedRead(feed.id) }
            self.write("mark all read") { try await $0.markAllRead() }
            self.message = "All articles marked read."
        }
    }

    /// Every search screen on the stack (results opened from them change flags).
    private var searches: [SearchModel] {
        stack.compactMap { if case .search(let model) = $0 { model } else { nil } }
    }

    /// The article list below the current screen, if there is one.
    private func listUnder() -> ArticleListModel? {
        for screen in stack.reversed() { if case .articles(let list) = screen { return list } }
        return nil
    }

    /// Writes through the repository in the background; the screen already shows the change,
    /// and a failure is reported on the status line.
    private func write(_ what: String, _ operation: @escaping @Sendable (any ArticleRepository) async throws -> Void) {
        work.start { [repository] in
            do {
                try await operation(repository)
            } catch {
                self.message = "Could not save the \(what): \(error)"
            }
        }
    }

    // MARK: Drawing

    /// Draws the current screen into a canvas of the app's size.
    public func render() -> Canvas {
        var canvas = Canvas(size: size)
        switch screen {
        case .feeds: FeedListView(model: feedList, theme: theme).draw(into: &canvas)
        case .articles(let model): ArticleListView(model: model, theme: theme).draw(into: &canvas)
        case .article(let model): ArticleView(model: model, theme: theme).draw(into: &canvas)
        case .search(let model): SearchView(model: model, theme: theme).draw(into: &canvas)
        case .errors(let model): ReloadErrorsView(model: model, theme: theme).draw(into: &canvas)
        }
        if let progress = reload?.progress { ReloadIndicator.draw(progress, into: &canvas, theme: theme) }
        if let question = confirmation?.question {
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
        canvas.write(" " + text, x: 0, y: row, style: style)
    }
}
