import Foundation

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

    /// POSTs a form that only reads (`stream/items/contents`): no edit token.
    func postReading(_ path: String, _ fields: [(String, String)]) async throws(AccountError) -> Data {
        let url = http.url(path)
        return try await inSession { session throws(AccountError) in
            try await http.postForm(url, fields, headers: [Self.header(session)])
        }
    }

    /// An exchange in the session; when the session is refused, once more in a new one.
    private func inSession(_ exchange: (String) async throws(AccountError) -> Data) async throws(AccountError)
        -> Data
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
