public import HeraldCore
import HeraldConfig

/// Search as you type: the query, its results, and the one debounced search behind them.
///
/// Each keystroke that changes the query starts the screen's `.search` effect again, which
/// cancels the pending one: it sleeps `debounce` on the injected clock, checks cancellation,
/// then awaits the repository (a background actor: the main actor never waits for it).
/// Cancelling the effect cancels the repository call too, and its result is never applied
/// (`Effects`), so a slow older search can never replace a newer one, even one that ignores
/// cancellation.
///
/// Each search is awaited in `PendingWork`, so a frame is asked for when it ends and
/// `ReaderApp.settle()` waits for it; with a clock whose sleeps only end when a test
/// advances time, a test advances the clock before it settles.
@MainActor
public final class SearchModel {
    /// How long typing must pause before a search runs.
    public static let debounce = Duration.milliseconds(300)
    /// The most results a search asks for.
    public static let limit = 200

    /// What the status line says about the results.
    public enum Status: Sendable, Equatable {
        /// The query is empty: no results, no search.
        case idle
        /// A search is waiting for its debounce or running.
        case searching
        /// `hits` are the results of the current query.
        case done
        /// The last search failed; why, in words.
        case failed(String)
    }

    /// Where keys go: the query (letters are text), or the results (letters are the list's
    /// keys: `N`, `s`, `o` …). Tab moves between them.
    public enum Focus: Sendable, Equatable { case query, results }

    public private(set) var query = ""
    /// The results on screen: the current query's once `status` is `.done`; while a newer
    /// query is being searched, the previous query's, so the list does not flicker.
    private var results: [SearchHit] = []
    /// The results with the flags the reader knows for their articles (`ArticleFlags`).
    public var hits: [SearchHit] { results.indices.map(hit(at:)) }
    /// How many results there are (without making them).
    public var resultCount: Int { results.count }
    public private(set) var status = Status.idle
    public var cursor = ListCursor()
    public var focus = Focus.query
    private let repository: any ArticleRepository
    private let clock: any DebounceClock
    /// The search under way (`.search`), and the steps to an article (`.step`, on top).
    let effects: Effects
    /// The flags the results show (their rows' own are learned, not shown).
    private let flags: ArticleFlags

    public init(
        repository: any ArticleRepository, clock: any DebounceClock, work: PendingWork, flags: ArticleFlags
    ) {
        self.repository = repository
        self.clock = clock
        self.effects = Effects(work: work)
        self.flags = flags
    }

    public var selected: SearchHit? {
        results.indices.contains(cursor.selected) ? hit(at: cursor.selected) : nil
    }

    /// Edits the query with `key` in place (see `QueryEditing.apply`) and, when it changed,
    /// searches for it after the debounce.
    func edit(with key: Key) -> QueryEditing.Outcome {
        let outcome = QueryEditing.apply(key, to: &query)
        if outcome == .changed { queryChanged() }
        return outcome
    }

    /// Replaces the query and searches for it after the debounce (an empty query clears the
    /// results at once and searches nothing).
    public func setQuery(_ text: String) {
        query = text
        queryChanged()
    }

    private func queryChanged() {
        let text = query
        cancel()
        if text.allSatisfy(\.isWhitespace) {
            results = []
            cursor = ListCursor()
            status = .idle
            return
        }
        status = .searching
        let (clock, repository, flags) = (self.clock, self.repository, self.flags)
        // A newer keystroke (or Esc) wins, whatever the repository does with cancellation.
        effects.run(.search) {
            await Result {
                try await clock.sleep(for: Self.debounce)
                try Task.checkCancellation()
                let stamp = flags.now
                return (stamp, try await repository.search(text, limit: Self.limit))
            }
        } then: { result in
            if case .success(let (stamp, found)) = result { flags.learn(found.map(\.article), readAt: stamp) }
            self.apply(result.map(\.1))
        }
    }

    /// Cancels the pending or running search; its result, if it still comes, is dropped.
    public func cancel() {
        effects.cancel(.search)
    }

    private func apply(_ result: Result<[SearchHit], any Error>) {
        switch result {
        case .success(let found):
            results = found
            cursor = ListCursor()
            status = .done
        case .failure(let error):
            results = []
            cursor = ListCursor()
            status = .failed("\(error)")
        }
    }

    /// Keeps the selection visible after a resize.
    public func clamp(visible: Int) {
        cursor.clamp(count: results.count, visible: visible)
    }

    /// A result with the flags the reader knows for its article (`ArticleFlags`).
    public func hit(at index: Int) -> SearchHit {
        var hit = results[index]
        hit.article = flags.shown(hit.article)
        return hit
    }

    /// True when the current query's search ended with as many hits as it asked for.
    public var isCapped: Bool { status == .done && results.count >= Self.limit }
}
