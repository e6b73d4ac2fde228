import CCurl
import Foundation

/// What one finished transfer came to: the last response's head and body, or why it failed.
struct CurlOutcome: Sendable {
    /// CURLE_OK, or the libcurl error.
    var code: CURLcode = CURLE_OK
    /// libcurl's words for the error (its error buffer), empty when none.
    var message = ""
    /// The status of each response on the way, redirects first.
    var statuses: [Int] = []
    var head = ResponseHead()
    var body = Data()
    /// Where the last response came from, after redirects.
    var effectiveURL: String?
    /// The body (decompressed) grew past the cap and the transfer was stopped.
    var tooLarge = false
    /// The body's Content-Encoding could not be undone: why.
    var damagedBody: String?
    /// A redirect pointed somewhere the fetcher does not go (file:, javascript:, …).
    var refusedRedirect: String?
    var cancelled = false
    /// Bytes this transfer counted against the body budget (the caller releases them).
    var budgeted = 0
    /// Stopped by the loop at its total deadline.
    var expired = false
}

/// The headers of one response that the fetcher uses. Header values come from the server:
/// they are kept as text and parsed where used, never trusted.
struct ResponseHead: Sendable {
    var etag: String?
    var lastModified: String?
    var contentType: String?
    var contentEncoding: String?
    var retryAfter: String?
    var location: String?

    mutating func take(_ line: Substring) {
        guard let colon = line.firstIndex(of: ":") else { return }
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        switch line[..<colon].lowercased() {
        case "etag": etag = value
        case "last-modified": lastModified = value
        case "content-type": contentType = value
        case "content-encoding": contentEncoding = value
        case "retry-after": retryAfter = value
        case "location": location = value
        default: break
        }
    }

    /// `text/xml; charset=EUC-KR` → `EUC-KR`.
    static func charset(_ contentType: String) -> String? {
        for part in contentType.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            if pair.count == 2, pair[0].lowercased() == "charset" {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            }
        }
        return nil
    }
}

/// One request on the loop thread: its easy handle, the options it was given, and what has
/// arrived so far. Only the loop thread touches it (libcurl calls the callbacks from
/// `curl_multi_perform`, on that thread).
final class CurlTransfer {
    let id: UInt64
    let easy: UnsafeMutableRawPointer
    let maxBytes: Int
    let continuation: CheckedContinuation<CurlOutcome, Never>
    let budget: BodyBudget?
    private let pauses: PauseQueue
    var outcome = CurlOutcome()
    /// Waiting for room in the budget before its body may arrive.
    var paused = false {
        didSet {
            let now = ContinuousClock.now
            if paused { pausedSince = now } else if let since = pausedSince { pausedFor += now - since }
        }
    }
    /// The whole fetch's deadline counts the time it ran, not the time it waited for the
    /// budget (libcurl's own CURLOPT_TIMEOUT would count both).
    private let started = ContinuousClock.now
    private var pausedSince: ContinuousClock.Instant?
    private var pausedFor: Duration = .zero
    private let allowed: Duration
    private var admitted = false
    /// Its body has started (a share of the budget is reserved for it).
    var isAdmitted: Bool { admitted }
    /// The next header line is a status line.
    private var expectingStatus = true
    /// Bytes of budget taken for the body before it arrived.
    private var reserved = 0
    /// The body's decoder, made at its first byte (nil: not encoded).
    private var decoder: BodyDecoder?
    private var decoderMade = false

    /// What the body will weigh: its Content-Length (decoded bodies may be larger; the
    /// excess is counted as it arrives), else a typical feed's size.
    private var expectedSize: Int {
        var length: curl_off_t = -1
        hc_getinfo_offset(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length)
        return length >= 0 ? min(Int(length), maxBytes) : 256 * 1024
    }
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    /// nil when libcurl cannot make a handle (out of memory).
    init?(job: CurlJob, budget: BodyBudget?, pauses: PauseQueue) {
        guard let easy = curl_easy_init() else { return nil }
        self.budget = budget
        self.pauses = pauses
        self.id = job.id
        self.easy = easy
        self.maxBytes = job.limits.maxBytes
        self.continuation = job.continuation
        self.allowed = .milliseconds(Int(job.limits.totalTimeout * 1000))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        configure(job)
    }

    deinit {
        // The lead of the body budget, if this transfer held it, is freed by the fetcher
        // when the body is released, not here (see `BodyBudget`).
        curl_easy_cleanup(easy)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    private func configure(_ job: CurlJob) {
        let limits = job.limits
        let context = Unmanaged.passUnretained(self).toOpaque()
        hc_setopt_string(easy, CURLOPT_URL, job.request.url.absoluteString)
        // Threads, not signals, time out name lookups.
        hc_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        // Ending a transfer while its name is being looked up does not wait for the lookup
        // (libcurl would join the resolver's thread, stopping every other transfer).
        hc_setopt_long(easy, CURLOPT_QUICK_EXIT, 1)
        // A proxy's answer to CONNECT is not one of the responses.
        hc_setopt_long(easy, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        hc_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1)
        hc_setopt_long(easy, CURLOPT_MAXREDIRS, limits.maxRedirects)
        // The network gives http and https only; a redirect to file:, ftp:, … is an error.
        hc_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        hc_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        // gzip and deflate, decoded here (`BodyDecoder`), not by libcurl: what a paused
        // transfer holds is then compressed bytes, and the size cap holds for what a bomb
        // unpacks to.
        hc_setopt_long(easy, CURLOPT_HTTP_CONTENT_DECODING, 0)
        hc_setopt_string(
            easy, CURLOPT_USERAGENT, job.request.userAgent.map(Self.headerSafe) ?? limits.userAgent)
        hc_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(limits.idleTimeout * 1000))
        // A server that trickles (slower than this for the idle timeout) is given up on.
        hc_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, limits.minimumBytesPerSecond)
        hc_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, max(Int(limits.idleTimeout.rounded(.up)), 1))
        // Refused before a byte of the body when Content-Length says it is too large.
        hc_setopt_offset(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maxBytes))
        hc_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)
        hc_setopt_data_fn(easy, CURLOPT_WRITEFUNCTION, curlWriteBody)
        hc_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        hc_setopt_data_fn(easy, CURLOPT_HEADERFUNCTION, curlWriteHeader)
        hc_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
        var headers = ["Accept-Encoding: gzip, deflate"]
        if let etag = job.request.etag { headers.append("If-None-Match: \(Self.headerSafe(etag))") }
        if let date = job.request.lastModified {
            headers.append("If-Modified-Since: \(Self.headerSafe(date))")
        }
        headers += job.request.headers.map(Self.headerSafe)
        if let body = job.request.body {
            // libcurl copies the bytes: the request's Data need not outlive this call.
            hc_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))
            if body.isEmpty {
                hc_setopt_string(easy, CURLOPT_COPYPOSTFIELDS, "")
            } else {
                _ = body.withUnsafeBytes { bytes in
                    hc_setopt_pointer(
                        easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
                }
            }
            // No "Expect: 100-continue" wait before a large body.
            headers.append("Expect:")
        }
        for header in headers { headerList = curl_slist_append(headerList, header) }
        if let headerList { hc_setopt_list(easy, CURLOPT_HTTPHEADER, headerList) }
    }

    /// Whether the fetch has run (paused time aside) longer than the limit.
    func isOverdue(at now: ContinuousClock.Instant) -> Bool {
        let waiting = paused ? pausedSince.map { now - $0 } ?? .zero : .zero
        // Paused time has a bound too, ten times the limit: a caller that never releases a
        // body must not leave the others waiting forever.
        return now - started - pausedFor - waiting > allowed || pausedFor + waiting > allowed * 10
    }

    /// A stored validator goes back into a header line: no line breaks or controls in it.
    static func headerSafe(_ value: String) -> String {
        String(value.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F })
    }

    /// Called with each piece of the (decoded) body; returning less than given stops the
    /// transfer with CURLE_WRITE_ERROR, the pause value pauses it.
    func receive(body bytes: UnsafeRawBufferPointer) -> Int {
        if let budget, !admitted {
            guard budget.hasRoom else { return pause() }
            // The whole body is reserved at once: the first bytes of many transfers can
            // arrive in one turn of the loop, and each must see the others' bodies.
            admitted = true
            // At most a quarter of the budget: a large body arriving slowly (or a hostile
            // Content-Length) must not hold every other body back; its bytes beyond the
            // reservation count as they arrive.
            reserved = min(expectedSize, budget.limit / 4)
            budget.take(reserved)
            outcome.budgeted = reserved
        }
        if !decoderMade {
            decoderMade = true
            decoder = BodyDecoder(encoding: outcome.head.contentEncoding)
        }
        guard let decoder else {
            switch keep(bytes) {
            case .kept: return bytes.count
            case .tooLarge: return 0
            case .full: return pause()
            }
        }
        // What this input adds may have to be taken back: no room for it after all.
        let (bodyBefore, budgetedBefore) = (outcome.body.count, outcome.budgeted)
        decoder.checkpoint()
        switch decoder.decode(bytes, keep) {
        case .more: return bytes.count
        case .refused: return 0
        case .wait:
            guard decoder.rollback() else {
                outcome.damagedBody = "the body could not be decoded (out of memory)"
                return 0
            }
            outcome.body.removeSubrange(bodyBefore...)
            budget?.release(outcome.budgeted - budgetedBefore)
            outcome.budgeted = budgetedBefore
            return pause()
        case .damaged(let why):
            outcome.damagedBody = why
            return 0
        }
    }

    private func pause() -> Int {
        paused = true
        pauses.append(id)
        return hc_write_pause()
    }

    /// Adds decoded bytes to the body, counting those past the reservation. `.tooLarge` (and
    /// the body dropped) when they would pass the size cap; `.full` when they go past the
    /// reservation while the budget is full and another body leads (see `BodyBudget`).
    private func keep(_ bytes: UnsafeRawBufferPointer) -> BodyDecoder.Kept {
        if outcome.body.count + bytes.count > maxBytes {
            // The body is dropped here, so its bytes leave the budget now, not when the
            // caller hears of the error (another body may lead meanwhile).
            outcome.tooLarge = true
            outcome.body = Data()
            budget?.release(outcome.budgeted)
            outcome.budgeted = 0
            return .tooLarge
        }
        if let budget {
            let beyond =
                max(outcome.body.count + bytes.count - reserved, 0) - max(outcome.body.count - reserved, 0)
            if beyond > 0 {
                guard budget.mayGrow(id) else { return .full }
                budget.take(beyond)
                outcome.budgeted += beyond
            }
        }
        outcome.body.append(contentsOf: bytes)
        return .kept
    }

    /// Called with each header line of each response (redirects included).
    func receive(header bytes: UnsafeRawBufferPointer) -> Int {
        let line = String(decoding: bytes, as: UTF8.self)
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if expectingStatus {
            // The first line of a response: "HTTP/1.1 301 Moved", or "HTTP/1.1 200" with no
            // reason phrase. (Only here: a header line that starts with "HTTP/" is a header.)
            expectingStatus = false
            let words = trimmed.split(separator: " ", maxSplits: 2)
            outcome.statuses.append(words.count > 1 ? Int(words[1]) ?? 0 : 0)
            outcome.head = ResponseHead()
            outcome.body = Data()
            (decoder, decoderMade) = (nil, false)
        } else if trimmed.isEmpty {
            // The end of a response's head: a redirect's or a 1xx's next response follows.
            expectingStatus = true
        } else {
            outcome.head.take(line[...])
        }
        return bytes.count
    }

    /// Fills in what libcurl knows once the transfer has ended.
    func finish(_ code: CURLcode) -> CurlOutcome {
        outcome.code = code
        errorBuffer[Int(CURL_ERROR_SIZE)] = 0
        outcome.message = String(cString: errorBuffer)
        if outcome.message.isEmpty, code != CURLE_OK {
            outcome.message = String(cString: curl_easy_strerror(code))
        }
        var url: UnsafeMutablePointer<CChar>?
        if hc_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &url) == CURLE_OK, let url {
            outcome.effectiveURL = String(cString: url)
        }
        var status = 0
        if hc_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status) == CURLE_OK, status > 0 {
            // libcurl's word for the last response's status, over our reading of its lines.
            if outcome.statuses.isEmpty {
                outcome.statuses = [status]
            } else {
                outcome.statuses[outcome.statuses.count - 1] = status
            }
        }
        if code == CURLE_UNSUPPORTED_PROTOCOL, outcome.statuses.count > 0 {
            var redirect: UnsafeMutablePointer<CChar>?
            if hc_getinfo_string(easy, CURLINFO_REDIRECT_URL, &redirect) == CURLE_OK, let redirect {
                outcome.refusedRedirect = String(cString: redirect)
            } else {
                outcome.refusedRedirect = outcome.head.location ?? "?"
            }
        }
        return outcome
    }
}

private let curlWriteBody: herald_curl_data_fn = { data, size, count, context in
    guard let context, let data else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.receive(body: UnsafeRawBufferPointer(start: data, count: size * count))
}

private let curlWriteHeader: herald_curl_data_fn = { data, size, count, context in
    guard let context, let data else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.receive(header: UnsafeRawBufferPointer(start: data, count: size * count))
}
