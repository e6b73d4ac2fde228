/// Why a feed could not be fetched, in words that name the cause.
public enum FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    case unsupportedScheme(String)
    case hostNotFound(String)
    case connectionRefused(String)
    case timedOut(String)
    case httpStatus(Int)
    /// 429 or 503 with a Retry-After: the server asks not to be asked again for `seconds`.
    case serverAskedToWait(status: Int, seconds: Int)
    case tooLarge(limit: Int)
    case tooManyRedirects
    /// A redirect to a scheme the network may not send us to (file:, javascript:, data:, …).
    case redirectRefused(scheme: String)
    case fileNotFound(String)
    case other(String)

    public var description: String {
        switch self {
        case .unsupportedScheme(let scheme): "unsupported URL scheme '\(scheme)' (http, https and file only)"
        case .hostNotFound(let host): "DNS: host \(host) not found"
        case .connectionRefused(let host): "connection refused by \(host)"
        case .timedOut(let what): "timed out (\(what))"
        case .httpStatus(let code): "HTTP \(code)"
        case .serverAskedToWait(let code, let seconds):
            "HTTP \(code): the server asks not to be asked again for \(FetchError.duration(seconds))"
        case .tooLarge(let limit): "larger than \(limit / 1_048_576) MB"
        case .tooManyRedirects: "too many redirects (or a redirect loop)"
        case .redirectRefused(let scheme):
            "refused a redirect to a \(scheme): URL (only http and https are followed)"
        case .fileNotFound(let path): "no such file: \(path)"
        case .other(let why): why
        }
    }

    /// How long the server asked to be left alone, if it did.
    public var retryAfterSeconds: Int? {
        if case .serverAskedToWait(_, let seconds) = self { seconds } else { nil }
    }

    /// `45 s`, `12 min`, `3 h 5 min` (to the nearest minute).
    public static func duration(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        let minutes = (seconds + 30) / 60
        if minutes < 60 { return "\(minutes) min" }
        return "\(minutes / 60) h" + (minutes % 60 > 0 ? " \(minutes % 60) min" : "")
    }
}
