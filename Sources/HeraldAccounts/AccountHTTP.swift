public import Foundation
public import HeraldFetch

/// The HTTP exchanges of an account's API, through the feed fetcher (libcurl on its own
/// thread: waiting costs no CPU), with its limits: a size cap counted as bytes arrive and
/// after decompression, timeouts, http(s) only. Errors become `AccountError`s that name the
/// cause and never a secret (a request's URL, body and headers are never put in words).
public struct AccountHTTP: Sendable {
    public let fetcher: FeedFetcher
    /// The account's base address, as configured (without a trailing slash).
    public let base: URL

    public init(base: URL, fetcher: FeedFetcher) {
        self.base = base
        self.fetcher = fetcher
    }

    /// The base address with `path` after it (`path` starts with `/`), and `query` items.
    public func url(_ path: String, query: [(String, String)] = []) -> URL {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += path
        if !query.isEmpty {
            text += "?" + query.map { "\(Self.formEscape($0.0))=\(Self.formEscape($0.1))" }.joined(separator: "&")
        }
        return URL(string: text) ?? base
    }

    /// GETs `url`: the body, or why not.
    public func get(_ url: URL, headers: [String] = []) async throws(AccountError) -> Data {
        var request = FetchRequest(url: url)
        request.headers = headers
        return try await perform(request)
    }

    /// POSTs a form (`application/x-www-form-urlencoded`).
    public func postForm(_ url: URL, _ fields: [(String, String)], headers: [String] = []) async throws(AccountError)
        -> Data
    {
        let body = Data(fields.map { "\(Self.formEscape($0.0))=\(Self.formEscape($0.1))" }.joined(separator: "&").utf8)
        return try await perform(
            FetchRequest(
                url: url, post: body, headers: headers + ["Content-Type: application/x-www-form-urlencoded"]))
    }

    /// POSTs a JSON body.
    public func postJSON(_ url: URL, _ body: Data, headers: [String] = []) async throws(AccountError) -> Data {
        try await perform(FetchRequest(url: url, post: body, headers: headers + ["Content-Type: application/json"]))
    }

    func perform(_ request: FetchRequest) async throws(AccountError) -> Data {
        let result: FetchResult
        do { result = try await fetcher.fetch(request) } catch { throw Self.accountError(error) }
        switch result {
        case .fetched(let document):
            fetcher.release(document)
            return document.data
        case .notModified, .notModifiedAt:
            throw .badResponse("304 Not Modified to a request that sent no validators")
        }
    }

    /// The fetcher's error in the account's terms.
    static func accountError(_ error: FetchError) -> AccountError {
        switch error {
        case .httpStatus(let status) where status == 401 || status == 403:
            .unauthorized("the server answered HTTP \(status)")
        case .httpStatus(let status): .serverError(status: status)
        case .serverAskedToWait(_, let seconds): .busy(seconds: seconds)
        default: .unreachable(error.description)
        }
    }

    /// `application/x-www-form-urlencoded` escaping (also right for a URL's query).
    public static func formEscape(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
