public import HeraldCore

/// The articles of one list (a feed, or a virtual feed), newest first, read from the
/// repository in windows.
///
/// Only a window of rows around what is visible is held (at most `maxWindow`); moving past
/// it reads the next keyset page, `G` reads the last page, so a feed of a million articles
/// costs what a feed of a hundred does. Keys never wait: rows not loaded yet show `…` until
/// their window arrives.
@MainActor
public final class ArticleListModel {
    public let list: ArticleListSummary
    /// What the rows are read from: the list, or its unread articles only (`set
    /// show-read-articles no`; a row read while shown stays until the list is read again).
    public let readSource: ArticleSource
    /// How many articles the list has (from its summary, corrected when a window ends early).
    public private(set) var count: Int
    public private(set) var unread: Int
    public var cursor = ListCursor()
    /// Why the last read failed, if it did.
    public private(set) var failure: String?
    public private(set) var isLoading = false

    private let repository: any ArticleRepository
    private(set) var window: [ArticleSummary] = []
    private(set) var windowStart = 0
    /// The rows the view needs, remembered while a read is under way.
    private var wanted = 0..<0
    /// Rows on screen at the last request.
    private var visible = 1
    private var loadedOnce = false
    /// The reads of rows under way (`.page`, `.refresh`): replacing the window (a jump, a
    /// refresh) cancels them, so a read for a window gone is never applied.
    let effects: Effects
    /// The flags the rows show: the rows' own are learned there as they arrive.
    private let flags: ArticleFlags
    /// The last page read that came back empty: not asked for again until something moves.
    private var stalled: ArticlePage?

    let pageSize: Int
    let maxWindow: Int

    public init(
        list: ArticleListSummary, repository: any ArticleRepository, work: PendingWork, flags: ArticleFlags,
        pageSize: Int = 200, unreadOnly: Bool = false, oldestFirst: Bool = false
    ) {
        self.effects = Effects(work: work)
        self.flags = flags
        self.list = list
        self.readSource = (unreadOnly ? list.source.unreadOnly : list.source).ordered(
            oldestFirst: oldestFirst)
        self.count = unreadOnly ? list.unread : list.total
        self.unread = list.unread
        self.repository = repository
        self.pageSize = pageSize
        self.maxWindow = pageSize * 3
    }

    /// The article at a list position, if its window is loaded, with the flags the reader
    /// knows for it (`ArticleFlags`).
    public func article(at index: Int) -> ArticleSummary? {
        let offset = index - windowStart
        return window.indices.contains(offset) ? flags.shown(window[offset]) : nil
    }

    public var selected: ArticleSummary? { article(at: cursor.selected) }

    /// The row of the article with this key, if its window is loaded.
    public func row(of key: ArticleSortKey) -> Int? {
        window.firstIndex { $0.sortKey == key }.map { windowStart + $0 }
    }
    /// True once the first window has arrived.
    public var isLoaded: Bool { loadedOnce }

    /// Reads the first window.
    public func load(visible: Int) {
        ensureLoaded(visible: visible)
    }

    /// Reads whatever part of the visible rows (plus a margin) is not loaded yet.
    public func ensureLoaded(visible: Int) {
        self.visible = visible
        wanted = max(cursor.top - visible, 0)..<(cursor.top + 2 * visible)
        guard !isLoading, let page = nextPage(), page != stalled else { return }
        isLoading = true
        let (source, flags) = (readSource, flags)
        let stamp = flags.now
        effects.run(.page) { [repository] in
            await Result { try await repository.articles(in: source, page: page) }
        } then: { read in
            self.isLoading = false
            switch read {
            case .success(let rows):
                flags.learn(rows, readAt: stamp)
                self.failure = nil
                self.apply(rows, for: page)
                // A page that brought nothing is not asked for again until something moves.
                self.stalled = rows.isEmpty ? page : nil
                self.ensureLoaded(visible: self.visible)
            case .failure(let error):
                self.failure = "\(error)"
            }
        }
    }

    /// The window is replaced (a jump, a refresh): reads for the old one are dropped.
    private func replaceWindow() {
        effects.cancel(.page)
        effects.cancel(.refresh)
        isLoading = false
        stalled = nil
    }

    /// The page that brings the wanted rows in, or nil when they are all loaded.
    private func nextPage() -> ArticlePage? {
        let a = wanted.lowerBound
        let b = min(wanted.upperBound, count)
        if !loadedOnce { return .first(limit: max(b, pageSize)) }
        if count == 0 { return nil }
        if !window.isEmpty {
            let end = windowStart + window.count
            if a >= windowStart && b <= end { return nil }
            // Wanted rows next to the window are read by key, below first, then above.
            if a <= end && b >= windowStart {
                if b > end, let last = window.last {
                    return .after(last.sortKey, limit: max(b - end, pageSize))
                }
                if a < windowStart, let first = window.first {
                    return .before(first.sortKey, limit: max(windowStart - a, pageSize))
                }
            }
        }
        // A jump: to the end (G), the start (g), or far away (rare: costs O(offset)).
        if b >= count - pageSize { return .last(limit: max(count - a, pageSize)) }
        if a < pageSize { return .first(limit: max(b, pageSize)) }
        return .offset(a, limit: max(b - a, pageSize))
    }

    private func apply(_ rows: [ArticleSummary], for page: ArticlePage) {
        switch page {
        case .first(let limit):
            window = rows
            windowStart = 0
            // A short page ends the list; a full one holds at least its rows (a query's list
            // may open before its count arrives).
            count = rows.count < limit ? rows.count : max(count, rows.count)
            loadedOnce = true
        case .after(_, let limit):
            window += rows
            if rows.count < limit { count = windowStart + window.count }
            if window.count > maxWindow {
                let drop = window.count - maxWindow
                window.removeFirst(drop)
                windowStart += drop
            }
        case .before(_, let limit):
            var start = windowStart - rows.count
            // Fewer rows than asked for: they begin the list. If the rows were numbered
            // from further down (articles left an Unread or Starred list since it was
            // counted), every row number moves up by as many.
            if (rows.count < limit && start != 0) || start < 0 {
                renumber(by: -start)
                start = 0
            }
            window = rows + window
            windowStart = start
            if window.count > maxWindow { window.removeLast(window.count - maxWindow) }
        case .last:
            window = rows
            windowStart = max(count - rows.count, 0)
        case .offset(let offset, _):
            window = rows
            windowStart = offset
        }
        cursor.clamp(count: count, visible: visible)
    }

    /// Moves every row number by `delta` (the window, the cursor, the count).
    private func renumber(by delta: Int) {
        guard delta != 0 else { return }
        windowStart += delta
        count = max(count + delta, windowStart + window.count)
        cursor = ListCursor(selected: max(cursor.selected + delta, 0), top: max(cursor.top + delta, 0))
    }

    /// New counts after a reload: the rows are read again around the article the cursor
    /// was on, which keeps its row on screen (new articles above it push the rows above it
    /// off the top). Its new row number is counted by the repository, so a far position
    /// costs what `position` does, not an offset read.
    public func refresh(total: Int, unread: Int, visible: Int) {
        count = readSource.unordered == list.source ? total : unread
        self.unread = unread
        replaceWindow()
        guard let kept = selected else {
            window = []
            windowStart = 0
            loadedOnce = false
            cursor.clamp(count: count, visible: visible)
            ensureLoaded(visible: visible)
            return
        }
        let row = cursor.selected - cursor.top
        let (source, pageSize, flags) = (readSource, self.pageSize, flags)
        let stamp = flags.now
        effects.run(.refresh) { [repository] () -> (position: Int, start: Int, rows: [ArticleSummary], reach: Int)? in
            guard let position = try? await repository.position(of: kept.sortKey, in: source) else { return nil }
            // The kept row as the library has it now (its flags may have changed there), and
            // the rows on screen around it: the old rows stay drawn until these replace them
            // at once (no rows of `…` in between). Pages as `ensureLoaded` reads them (at
            // least `pageSize`).
            let fresh = (try? await repository.article(id: kept.id))?.summary ?? kept
            let above =
                (try? await repository.articles(
                    in: source, page: .before(kept.sortKey, limit: max(row + visible, pageSize)))) ?? []
            let below =
                (try? await repository.articles(
                    in: source, page: .after(kept.sortKey, limit: max(2 * visible, pageSize)))) ?? []
            let start = max(position - above.count, 0)
            return (
                position, start, Array(above.suffix(position - start)) + [fresh] + below,
                start + above.count + 1 + below.count
            )
        } then: { read in
            guard let read else { return }
            flags.learn(read.rows, readAt: stamp)
            // A page read for the old window since (a key moved the cursor) is dropped too.
            self.effects.cancel(.page)
            self.isLoading = false
            self.count = max(self.count, read.reach)
            self.window = read.rows
            self.windowStart = read.start
            self.cursor = ListCursor(selected: read.position, top: max(read.position - row, 0))
            self.ensureLoaded(visible: visible)
        }
    }

    /// Puts the cursor on `article`, which sits at `position` in the list, reading the rows
    /// around it (the list may be far from there).
    public func jump(to article: ArticleSummary, at position: Int, visible: Int) {
        // An article already on hand keeps the row it has here (the repository may number
        // it differently once read articles have left an Unread list).
        if let index = window.firstIndex(where: { $0.id == article.id }) {
            cursor.select(windowStart + index, count: count, visible: visible)
            return
        }
        count = max(count, position + 1)
        cursor.select(position, count: count, visible: visible)
        replaceWindow()
        window = [article]
        windowStart = position
        loadedOnce = true
        ensureLoaded(visible: visible)
    }

    /// The list's unread count follows a read flag about to change, when the article is
    /// one of its rows and shows the other way now.
    func countRead(_ isRead: Bool, articleID: String) {
        guard let row = window.first(where: { $0.id == articleID }), flags.shown(row).isRead != isRead else {
            return
        }
        unread = max(0, unread + (isRead ? -1 : 1))
    }

    /// Every article read (`A`): the count drops to none; returns the rows on hand with the
    /// read flag each shows now, to show read (and to put back if the write fails).
    func markAllRead() -> [String: Bool] {
        unread = 0
        return Dictionary(window.map { ($0.id, flags.shown($0).isRead) }, uniquingKeysWith: { first, _ in first })
    }
}
