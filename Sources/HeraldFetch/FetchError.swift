/// Why a feed could not be fetched, in words that name the cause.
public enum FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    case unsupportedScheme(String)
    case hostNotFound(String)
    case connectionRefused(String)
    case timedOut(String)
    case httpStatus(Int)
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
        case .tooLarge(let limit): "response larger than \(limit / 1_048_576) MB"
        case .tooManyRedirects: "too many redirects (or a redirect loop)"
        case .redirectRefused(let scheme):
            "refused a redirect to a \(scheme): URL (only http and https are followed)"
        case .fileNotFound(let path): "no such file: \(path)"
        case .other(let why): why
        }
    }
}
