import Foundation
import HeraldFetch

/// The session of a Google Reader API account: ClientLogin's `Auth`, the edit token, and
/// the requests that carry them, each tried again once when the server refuses it.
extension GoogleReaderService {
    /// GETs an API path in the session; a refused session is logged into again, once.
    func get(_ path: String, _ query: [(String, String)]) async throws(AccountError) -> Data {
        let url = http.url(path, query: query)
        return try await inSession { session throws(AccountError) in
            try await http.get(url, headers: [Self.header(session)])
        }
    }

    /// GETs a page of items (`body`: nil) or POSTs a form asking for one, in the session; nil
    /// when the answer is over the fetcher's size cap, so that the caller can ask for less.
    func itemPage(_ path: String, query: [(String, String)] = [], form: [(String, String)]? = nil)
        async throws(AccountError) -> Data?
    {
        let url = http.url(path, query: query)
        let body = form.map(Self.formBody)
        return try await inSession { session throws(AccountError) in
            var request = FetchRequest(url: url)
            request.headers = [Self.header(session)]
            if let body {
                request.body = body
                request.headers.append("Content-Type: application/x-www-form-urlencoded")
            }
            return try await bodyUnlessTooLarge(request)
        }
    }

    /// `application/x-www-form-urlencoded`, as `AccountHTTP.postForm` writes it.
    static func formBody(_ fields: [(String, String)]) -> Data {
        Data(
            fields.map { AccountHTTP.formEscape($0.0) + "=" + AccountHTTP.formEscape($0.1) }.joined(
                separator: "&"
            ).utf8)
    }

    /// What `AccountHTTP` does, but a body over the size cap is nil rather than an error.
    private func bodyUnlessTooLarge(_ request: FetchRequest) async throws(AccountError) -> Data? {
        let result: FetchResult
        do {
            result = try await http.fetcher.fetch(request)
        } catch {
            if case .tooLarge = error { return nil }
            throw AccountHTTP.accountError(error)
        }
        guard case .fetched(let document) = result else {
            throw .badResponse("304 Not Modified to a request that sent no validators")
        }
        http.fetcher.release(document)
        return document.data
    }

    /// An exchange in the session; when the session is refused, once more in a new one.
    private func inSession<Answer: Sendable>(_ exchange: (String) async throws(AccountError) -> Answer)
        async throws(AccountError) -> Answer
    {
        let session = try await authorization(replacing: nil)
        do throws(AccountError) {
            return try await exchange(session)
        } catch {
            guard case .unauthorized = error else { throw error }
            return try await exchange(try await authorization(replacing: session))
        }
    }

    /// POSTs a form in the session, signed with the edit token (`T`). A refusal (a stale
    /// token, or the session itself: fetching the token then logs in again) fetches the token
    /// again and tries once more.
    func post(_ path: String, _ fields: [(String, String)]) async throws(AccountError) -> Data {
        let url = http.url(path)
        let token = try await editToken(replacing: nil)
        do throws(AccountError) {
            let session = try await authorization(replacing: nil)
            return try await http.postForm(url, fields + [("T", token)], headers: [Self.header(session)])
        } catch {
            guard case .unauthorized = error else { throw error }
            let renewed = try await editToken(replacing: token)
            let session = try await authorization(replacing: nil)
            return try await http.postForm(url, fields + [("T", renewed)], headers: [Self.header(session)])
        }
    }

    static func header(_ session: String) -> String { "Authorization: GoogleLogin auth=\(session)" }

    /// The session; a new one when there is none or the caller's (`stale`) was refused. Callers
    /// asking at once share one login.
    func authorization(replacing stale: String?) async throws(AccountError) -> String {
        if let auth, auth != stale { return auth }
        if let pendingLogin { return try await pendingLogin.value.get() }
        let task = Task { await self.clientLogin() }
        pendingLogin = task
        let result = await task.value
        if pendingLogin == task { pendingLogin = nil }
        if case .success(let session) = result {
            auth = session
            token = nil
        }
        return try result.get()
    }

    /// The edit token; a new one when there is none or the caller's (`stale`) was refused.
    func editToken(replacing stale: String?) async throws(AccountError) -> String {
        if let token, token != stale { return token }
        if let pendingToken { return try await pendingToken.value.get() }
        let task = Task { await self.fetchToken() }
        pendingToken = task
        let result = await task.value
        if pendingToken == task { pendingToken = nil }
        if case .success(let fetched) = result { token = fetched }
        return try result.get()
    }

    private func clientLogin() async -> Result<String, AccountError> {
        do throws(AccountError) {
            let data = try await http.postForm(
                http.url("/accounts/ClientLogin"), [("Email", login), ("Passwd", password)])
            let text = String(decoding: data.prefix(65_536), as: UTF8.self)
            for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("Auth=") {
                if let session = AccountValue.token(line.dropFirst(5)) { return .success(session) }
            }
            if text.contains("Error=") {  // `Error=BadAuthentication` with a 200, as some servers do
                return .failure(.unauthorized("the server refused the user name or the API password"))
            }
            return .failure(.badResponse("the login's answer holds no Auth="))
        } catch {
            switch error {
            // FreshRSS answers 401 to a wrong password, 400 to a user name it cannot have,
            // others 403 (`Error=BadAuthentication`).
            case .unauthorized, .serverError(status: 400):
                return .failure(.unauthorized("the server refused the user name or the API password"))
            default:
                return .failure(error)
            }
        }
    }

    private func fetchToken() async -> Result<String, AccountError> {
        do throws(AccountError) {
            let data = try await get("/reader/api/0/token", [])
            let text = String(decoding: data.prefix(4_200), as: UTF8.self)
            guard let token = AccountValue.token(Substring(text)) else {
                return .failure(.badResponse("the edit token is not a token"))
            }
            return .success(token)
        } catch {
            return .failure(error)
        }
    }
}
