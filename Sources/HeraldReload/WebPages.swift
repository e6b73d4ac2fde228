import Foundation
public import HeraldCore
public import HeraldFetch
public import HeraldStore

/// Fetches articles' web pages and reads their article (`ArticleExtractor`), for the reader's
/// key, for `herald extract`, and after a reload for the feeds set to `full-article yes` or
/// `auto`.
///
/// A page is hostile input as a feed is, and is held to the same limits (`FetchLimits`: size
/// counted as bytes arrive, decompressed too; time; redirects only to http and https), with
/// at most two pages of a host at once. A server that answers 429 or 503 is left alone for
/// the rest of the run (for as long as its Retry-After asks, at least a minute).
public actor WebPages: PageReading {
    let store: LibraryStore?
    private let fetcher: FeedFetcher
    /// Hosts that asked to be left alone, until when.
    private var restingUntil: [String: Date] = [:]
    /// Pages being read per host, and the reads waiting for one of them to end: a read
    /// looks whether its host rests only once its turn comes, so the pages queued behind
    /// a 429 are not asked for (the fetcher's own queue would send them all the same).
    private var reading: [String: Int] = [:]
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    public static let pagesPerHost = 2

    public init(store: LibraryStore?, limits: FetchLimits = FetchLimits()) {
        self.store = store
        var limits = limits
        limits.perHost = Self.pagesPerHost
        limits.concurrent = 16
        fetcher = FeedFetcher(limits: limits)
    }

    /// Why a page gave no article, in one line.
    public enum PageError: Error, Sendable, CustomStringConvertible {
        case notWeb(String)
        case fetch(FetchError)
        case resting(host: String)
        case noArticle

        public var description: String {
            switch self {
            case .notWeb(let link): "not a web address: \(TextSanitizer.singleLine(link))"
            case .fetch(let error): "the page could not be fetched: \(error)"
            case .resting(let host): "\(host) asked to be left alone for a while; try again later"
            case .noArticle: "the page holds no article (it may need JavaScript, or show a consent or login wall)"
            }
        }

        /// The host asked to be left alone (429 or 503), now or earlier in this run: nothing
        /// is wrong with the article's page.
        var hostAskedToWait: Bool {
            switch self {
            case .resting, .fetch(.serverAskedToWait): true
            case .fetch(.httpStatus(let status)): status == 429 || status == 503
            default: false
            }
        }
    }

    /// The article of the page at `link` (http or https only), and where it was found.
    public func read(_ link: String) async -> Result<(ExtractedArticle, page: String), PageError> {
        let trimmed = link.trimmingCharacters(in: .whitespaces)
        let scheme = trimmed.prefix(8).lowercased()
        guard scheme.hasPrefix("http://") || scheme.hasPrefix("https://"), let url = URL(string: trimmed),
            let host = url.host
        else { return .failure(.notWeb(link)) }
        await enter(host)
        defer { leave(host) }
        if let until = restingUntil[host], until > Date() { return .failure(.resting(host: host)) }
        let document: FetchedDocument
        do {
            guard case .fetched(let fetched) = try await fetcher.fetch(FetchRequest(url: url)) else {
                return .failure(.fetch(.other("the server answered 304 Not Modified to a request without validators")))
            }
            document = fetched
        } catch {
            if case .httpStatus(let status) = error, status == 429 || status == 503 {
                restingUntil[host] = Date().addingTimeInterval(60)
            } else if let seconds = error.retryAfterSeconds {
                restingUntil[host] = Date().addingTimeInterval(TimeInterval(max(seconds, 60)))
            }
            return .failure(.fetch(error))
        }
        defer { fetcher.release(document) }
        let page = document.finalURL.absoluteString
        let bytes = PageBytes.utf8([UInt8](document.data), charset: document.charset)
        guard let article = ArticleExtractor.extract(html: bytes, url: page), article.wordCount > 0 else {
            return .failure(.noArticle)
        }
        return .success((article, page))
    }

    /// Waits for one of the host's `pagesPerHost` turns.
    private func enter(_ host: String) async {
        if reading[host, default: 0] < Self.pagesPerHost {
            reading[host, default: 0] += 1
            return
        }
        await withCheckedContinuation { waiting[host, default: []].append($0) }
    }

    /// Hands the turn to the next read of the host, if one waits.
    private func leave(_ host: String) {
        if var queue = waiting[host], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[host] = queue.isEmpty ? nil : queue
            next.resume()
        } else {
            reading[host, default: 1] -= 1
            if reading[host] == 0 { reading[host] = nil }
        }
    }

    /// What an article's page gives, as stored: the whole article when it says more than the
    /// feed's text, else why not.
    static func outcome(
        _ result: Result<(ExtractedArticle, page: String), PageError>, request: LibraryStore.PageRequest, now: Date
    ) -> FullArticle {
        switch result {
        case .failure(let error):
            return FullArticle(state: .failed, page: request.link, fetched: now, note: error.description)
        case .success(let (article, page)):
            let feedWords = request.feedText.split(whereSeparator: { $0 == " " || $0 == "\n" }).count
            guard article.wordCount > feedWords else {
                return FullArticle(
                    state: .failed, page: page, fetched: now,
                    note: "the page's article (\(article.wordCount) words) says no more than the feed "
                        + "(\(feedWords)): a paywall, a consent wall or a page that needs JavaScript?")
            }
            return FullArticle(state: .whole, page: page, fetched: now, html: article.html, text: article.text)
        }
    }

    // MARK: PageReading

    public func fetchFullArticle(articleID: String) async throws -> FullArticle? {
        guard let store, let request = try await store.pageRequest(articleID: articleID) else { return nil }
        let full = Self.outcome(await read(request.link), request: request, now: Date())
        try await store.saveFullArticle(articleID: articleID, full)
        return try await store.fullArticle(articleID: articleID)
    }

    public func setFullArticleShown(_ shown: Bool, articleID: String) async throws {
        try await store?.setFullArticleShown(shown, articleID: articleID)
    }

    public func fetchNewPages(since: Int64, fallback: FullArticleMode) async throws -> (whole: Int, failed: Int) {
        try await fetchWanted(since: since, fallback: fallback)
    }

    /// Fetches the pages of the articles a reload brought (first seen at or after `since`)
    /// in feeds set to `full-article yes` or `auto` (`fallback`: the config's mode), several
    /// hosts at once; `stored` hears each article as its page is stored. Returns how many
    /// gave a whole article and how many did not. A host that answers 429 or 503 is left
    /// alone: its articles are not marked, so the article's key can fetch them later.
    @discardableResult
    public func fetchWanted(
        since: Int64, fallback: FullArticleMode, stored: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> (whole: Int, failed: Int) {
        guard let store, !store.access.isReadOnly else { return (0, 0) }
        var waiting = try await store.pagesWanted(since: since, fallback: fallback)
        var whole = 0
        var failed = 0
        await withTaskGroup(of: (host: String, full: FullArticle?).self) { group in
            // Sixteen at once at most, two of a host: a host's next page is asked for only
            // once one of its pages came back, so a 429 is heard before more go (the fetcher
            // would queue them past the check for a resting host).
            var running: [String: Int] = [:]
            var inFlight = 0
            func startWhatFits() {
                var index = 0
                while index < waiting.count, inFlight < 16 {
                    let request = waiting[index]
                    let host = Self.host(of: request.link)
                    guard running[host, default: 0] < Self.pagesPerHost else {
                        index += 1
                        continue
                    }
                    waiting.remove(at: index)
                    running[host, default: 0] += 1
                    inFlight += 1
                    group.addTask {
                        let result = await self.read(request.link)
                        if case .failure(let error) = result, error.hostAskedToWait { return (host, nil) }
                        let full = Self.outcome(result, request: request, now: Date())
                        do {
                            try await store.saveFullArticle(articleID: request.articleID, full)
                        } catch {
                            return (host, nil)
                        }
                        stored(request.articleID)
                        return (host, full)
                    }
                }
            }
            startWhatFits()
            while let (host, full) = await group.next() {
                if let full { if full.state == .whole { whole += 1 } else { failed += 1 } }
                running[host, default: 1] -= 1
                inFlight -= 1
                startWhatFits()
            }
        }
        return (whole, failed)
    }

    /// The host a link's page is fetched from, as the fetcher counts hosts.
    static func host(of link: String) -> String {
        URL(string: link.trimmingCharacters(in: .whitespaces))?.host ?? ""
    }
}
