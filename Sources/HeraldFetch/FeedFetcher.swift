public import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Limits every fetch obeys.
public struct FetchLimits: Sendable {
    /// Fetches running at once, in all.
    public var concurrent = 16
    /// Fetches running at once against one host (≤ 6: see LINUX-SWIFT-NOTES.md).
    public var perHost = 6
    /// Seconds without data before a request fails (connect included).
    public var idleTimeout: TimeInterval = 15
    /// Seconds a whole fetch may take.
    public var totalTimeout: TimeInterval = 60
    /// The largest body accepted.
    public var maxBytes = 16 * 1_048_576
    public var maxRedirects = 5
    public var userAgent = "Herald/0.2 (terminal feed reader; +https://example.org/herald)"

    public init() {}
}

/// Fetches feeds over HTTP(S) and from files, with a global and a per-host limit,
/// conditional GET, timeouts, a size cap and a redirect limit. Every failure is a
/// `FetchError` that names the cause.
public actor FeedFetcher {
    private let limits: FetchLimits
    private let session: URLSession
    private let delegate: FetchSessionDelegate
    private var running = 0
    private var runningPerHost: [String: Int] = [:]
    private var waiting: [(host: String, continuation: CheckedContinuation<Void, Never>)] = []

    public init(limits: FetchLimits = FetchLimits()) {
        self.limits = limits
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = limits.idleTimeout
        configuration.timeoutIntervalForResource = limits.totalTimeout
        configuration.httpMaximumConnectionsPerHost = limits.perHost
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpAdditionalHeaders = ["User-Agent": limits.userAgent]
        let delegate = FetchSessionDelegate(maxBytes: limits.maxBytes, maxRedirects: limits.maxRedirects)
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        let scheme = request.url.scheme?.lowercased() ?? ""
        switch scheme {
        case "file":
            return try readFile(request.url)
        case "http", "https":
            let host = request.url.host ?? ""
            await acquire(host)
            defer { release(host) }
            return try await delegate.run(request, in: session)
        default:
            throw .unsupportedScheme(scheme)
        }
    }

    private func readFile(_ url: URL) throws(FetchError) -> FetchResult {
        let path = url.path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            throw .fileNotFound(path)
        }
        if let size = attributes[.size] as? Int, size > limits.maxBytes { throw .tooLarge(limit: limits.maxBytes) }
        guard let data = FileManager.default.contents(atPath: path) else { throw .fileNotFound(path) }
        return .fetched(FetchedDocument(data: data, finalURL: url))
    }

    // MARK: Limits

    private func acquire(_ host: String) async {
        if hasRoom(host) {
            take(host)
            return
        }
        await withCheckedContinuation { waiting.append((host, $0)) }
    }

    private func hasRoom(_ host: String) -> Bool {
        running < limits.concurrent && runningPerHost[host, default: 0] < limits.perHost
    }

    private func take(_ host: String) {
        running += 1
        runningPerHost[host, default: 0] += 1
    }

    private func release(_ host: String) {
        running -= 1
        runningPerHost[host, default: 0] -= 1
        if let index = waiting.firstIndex(where: { hasRoom($0.host) }) {
            let next = waiting.remove(at: index)
            take(next.host)
            next.continuation.resume()
        }
    }
}
