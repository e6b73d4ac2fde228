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
    }

    public let feedList: FeedListModel
    public private(set) var stack: [Screen] = [.feeds]
    public private(set) var isFinished = false
    public let work = PendingWork()
    public var theme: Theme
    /// The size of the last frame, so page keys know how many rows a page holds.
    public var size: Size
    /// Asks for a frame; the render loop coalesces many calls into one.
    public var onChange: @MainActor () -> Void = {} {
        didSet { work.onFinish = { [weak self] in self?.onChange() } }
    }

    private let repository: any ArticleRepository

    public init(repository: any ArticleRepository, size: Size, theme: Theme = Theme()) {
        self.repository = repository
        self.size = size
        self.theme = theme
        self.feedList = FeedListModel(repository: repository)
    }

    public var screen: Screen { stack[stack.count - 1] }

    /// Starts loading the first screen.
    public func start() {
        feedList.load(in: work)
        onChange()
    }

    /// Waits until every load started so far (and any it started) has ended.
    public func settle() async { await work.settle() }

    /// Rows available to a list or the article body.
    var bodyRows: Int { max(size.height - ScreenFrame.chromeRows, 1) }

    // MARK: Keys

    public func handle(_ key: Key) {
        defer { onChange() }
        if key == .resize { return }
        if key == .control("c") {
            isFinished = true
            return
        }
        switch screen {
        case .feeds: handleFeeds(key)
        case .articles(let model): handleArticles(key, model)
        case .article(let model): handleArticle(key, model)
        }
    }

    private func handleFeeds(_ key: Key) {
        let count = feedList.feeds.count
        if moveCursor(&feedList.cursor, key, count: count) { return }
        switch key {
        case .enter, .right, .character("l"):
            guard let feed = feedList.selected else { return }
            let model = ArticleListModel(feed: feed, repository: repository)
            stack.append(.articles(model))
            model.load(in: work)
        case .character("q"):
            isFinished = true
        default:
            break
        }
    }

    private func handleArticles(_ key: Key, _ model: ArticleListModel) {
        if moveCursor(&model.cursor, key, count: model.articles.count) { return }
        switch key {
        case .enter, .right, .character("l"):
            guard let summary = model.selected else { return }
            let viewer = ArticleViewModel(summary: summary, repository: repository)
            stack.append(.article(viewer))
            viewer.load(in: work)
            if !summary.isRead { setRead(true, summary, in: model) }
        case .character("N"):
            guard let summary = model.selected else { return }
            setRead(!summary.isRead, summary, in: model)
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
        case .character("q"), .character("h"), .left, .escape: stack.removeLast()
        default: break
        }
    }

    /// The list keys shared by every list; true when the key was one of them.
    private func moveCursor(_ cursor: inout ListCursor, _ key: Key, count: Int) -> Bool {
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

    private func setRead(_ isRead: Bool, _ summary: ArticleSummary, in model: ArticleListModel) {
        model.setRead(isRead, articleID: summary.id)
        feedList.articleRead(isRead, inFeed: summary.feedID)
        work.start { [repository] in
            // The list already shows the new flag; a failure to store it is shown on reload.
            try? await repository.setRead(isRead, articleID: summary.id)
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
        }
        return canvas
    }
}
