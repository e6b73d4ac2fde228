public import Foundation
import CCurl

/// Limits every fetch obeys.
public struct FetchLimits: Sendable {
    /// Fetches running at once, in all. Waiting on the network costs a socket and no CPU, so
    /// this is high: feeds on different hosts wait in parallel.
    public var concurrent = 200
    /// Fetches running at once against one host: politeness.
    public var perHost = 6
    /// Seconds to connect, and seconds under `minimumBytesPerSecond` before a fetch fails
    /// (a server that accepts and never answers, or trickles).
    public var idleTimeout: TimeInterval = 15
    public var minimumBytesPerSecond = 16
    /// Seconds a whole fetch may take, whatever the server does.
    public var totalTimeout: TimeInterval = 60
    /// The largest body accepted, counted as it arrives and after decompression.
    public var maxBytes = 16 * 1_048_576
    public var maxRedirects = 5
    public var userAgent = "Herald/0.4 (terminal feed reader; +https://example.org/herald)"

    public init() {}
}

/// Fetches feeds over HTTP(S) (libcurl, on one thread of its own: see `CurlLoop`) and from
/// files, with a global and a per-host limit, conditional GET, timeouts, a size cap and a
/// redirect limit. Every failure is a `FetchError` that names the cause.
public actor FeedFetcher {
    /// What each fetch may take; a command feed's output is held to them too (`CommandOutput`).
    public let limits: FetchLimits
    private let loop: CurlLoop?
    private var nextID: UInt64 = 0
    private var running = 0
    private var runningPerHost: [String: Int] = [:]
    private var waiting: [(host: String, continuation: CheckedContinuation<Void, Never>)] = []

    /// With a `bodyBudget`, bodies start arriving only while the bytes of bodies fetched and
    /// not yet `release`d are under it (see `BodyBudget`); the caller must release every
    /// fetched document.
    public init(limits: FetchLimits = FetchLimits(), bodyBudget: Int? = nil) {
        self.limits = limits
        self.loop = CurlLoop(perHost: limits.perHost, total: limits.concurrent, bodyBudget: bodyBudget)
    }

    /// The caller is done with a document's bytes (with a body budget: lets the next body in).
    public nonisolated func release(_ document: FetchedDocument) {
        loop?.release(bytes: document.heldBytes, transfer: document.transfer)
    }

    deinit { loop?.stop() }

    /// The most bytes of bodies its budget ever held at once (tests).
    nonisolated var peakBudgetBytes: Int? { loop?.budget?.peakHeld }

    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        let scheme = request.url.scheme?.lowercased() ?? ""
        switch scheme {
        case "file":
            return try readFile(request.url)
        case "http", "https":
            guard let loop else { throw .other("libcurl could not start") }
            let host = request.url.host ?? ""
            await acquire(host)
            defer { release(host) }
            nextID += 1
            let id = nextID
            let outcome = await loop.perform(request, limits: limits, id: id)
            do throws(FetchError) {
                var result = try Self.result(of: outcome, for: request, limits: limits)
                // Only the document's bytes stay counted, until the caller releases them; a
                // body larger than the whole budget also keeps the lead, if it held it.
                var kept = 0
                var holdsLead = false
                if case .fetched(var document) = result, outcome.budgeted > 0 {
                    kept = min(document.data.count, outcome.budgeted)
                    holdsLead = kept > loop.budget?.limit ?? .max
                    document.heldBytes = kept
                    document.transfer = holdsLead ? id : nil
                    result = .fetched(document)
                }
                loop.release(bytes: outcome.budgeted - kept, transfer: holdsLead ? nil : id)
                return result
            } catch {
                loop.release(bytes: outcome.budgeted, transfer: id)
                throw error
            }
        default:
            throw .unsupportedScheme(scheme)
        }
    }

    private func readFile(_ url: URL) throws(FetchError) -> FetchResult {
        .fetched(
            FetchedDocument(
                data: try LocalFile.read(url.path, limit: limits.maxBytes, regularOnly: true), finalURL: url))
    }

    // MARK: Outcomes

    static func result(of outcome: CurlOutcome, for request: FetchRequest, limits: FetchLimits)
        throws(FetchError) -> FetchResult
    {
        let host = request.url.host ?? "?"
        if outcome.cancelled { throw .other("cancelled") }
        if outcome.tooLarge { throw .tooLarge(limit: limits.maxBytes) }
        if let why = outcome.damagedBody { throw .other(why) }
        switch outcome.code {
        case CURLE_OK: break
        case CURLE_FILESIZE_EXCEEDED: throw .tooLarge(limit: limits.maxBytes)
        case CURLE_COULDNT_RESOLVE_HOST: throw .hostNotFound(host)
        case CURLE_COULDNT_CONNECT: throw .connectionRefused(host)
        case CURLE_OPERATION_TIMEDOUT:
            if outcome.expired { throw .timedOut("\(host) took over \(Int(limits.totalTimeout)) s") }
            if outcome.message.contains("too slow") {
                throw .timedOut(
                    "\(host) sent under \(limits.minimumBytesPerSecond) bytes/s for \(Int(limits.idleTimeout)) s"
                )
            }
            throw .timedOut("no connection to \(host) within \(Int(limits.idleTimeout)) s")
        case CURLE_TOO_MANY_REDIRECTS: throw .tooManyRedirects
        case CURLE_PARTIAL_FILE: throw .other("\(host) closed the connection before the end of the body")
        case CURLE_RECV_ERROR where outcome.message.lowercased().contains("header"):
            throw .other("\(host) sent too many headers (\(outcome.message))")
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING:
            throw .other("\(host) broke the connection (\(outcome.message))")
        case CURLE_UNSUPPORTED_PROTOCOL where outcome.refusedRedirect != nil:
            throw .redirectRefused(scheme: Self.scheme(of: outcome.refusedRedirect ?? ""))
        default: throw .other(outcome.message)
        }
        let status = outcome.statuses.last ?? 0
        let finalURL = outcome.effectiveURL.flatMap(URL.init(string:)) ?? request.url
        let redirects = outcome.statuses.dropLast()
        let permanent = !redirects.isEmpty && redirects.allSatisfy { $0 == 301 || $0 == 308 }
        switch status {
        case 304:
            return permanent && finalURL != request.url ? .notModifiedAt(finalURL) : .notModified
        case 200..<300:
            return .fetched(
                FetchedDocument(
                    data: outcome.body, etag: outcome.head.etag, lastModified: outcome.head.lastModified,
                    charset: outcome.head.contentType.flatMap(ResponseHead.charset), finalURL: finalURL,
                    movedPermanentlyTo: permanent ? finalURL : nil))
        case 429, 503:
            guard let seconds = outcome.head.retryAfter.flatMap({ Self.retryAfterSeconds($0) }) else {
                throw .httpStatus(status)
            }
            throw .serverAskedToWait(status: status, seconds: seconds)
        default:
            throw .httpStatus(status)
        }
    }

    /// The longest wait a server may ask for: a day (a hostile or broken one could ask for
    /// years, and the feed would never be read again).
    public static let longestRetryAfter = 86_400

    /// A Retry-After value (delay-seconds, or an HTTP date) as seconds from `now`, at least
    /// 1 and at most `longestRetryAfter`; nil when it is neither.
    static func retryAfterSeconds(_ value: String, now: Date = Date()) -> Int? {
        let value = value.trimmingCharacters(in: .whitespaces)
        var seconds: Double
        if !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            seconds = Double(value.prefix(12)) ?? Double(longestRetryAfter)
        } else if let date = httpDate(value) {
            seconds = date.timeIntervalSince(now)
        } else {
            return nil
        }
        return Int(min(max(seconds, 1), Double(longestRetryAfter)).rounded(.up))
    }

    /// An HTTP date in its preferred form, `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110).
    static func httpDate(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]),
            let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3])
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month + 1, day)
        (components.hour, components.minute, components.second) = (time[0], time[1], time[2])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT")!
        return calendar.date(from: components)
    }

    /// The scheme of a refused redirect's target, as plain letters (it comes from a server).
    static func scheme(of location: String) -> String {
        let scheme = location.prefix { $0 != ":" }
        let plain =
            !scheme.isEmpty && scheme.count < 20
            && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) }
        return plain && scheme.count < location.count ? scheme.lowercased() : "?"
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
        if runningPerHost[host] == 0 { runningPerHost[host] = nil }
        if let index = waiting.firstIndex(where: { hasRoom($0.host) }) {
            let next = waiting.remove(at: index)
            take(next.host)
            next.continuation.resume()
        }
    }
}
