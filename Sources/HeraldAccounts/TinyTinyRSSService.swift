public import Foundation
import HeraldCore
public import HeraldFetch

/// A Tiny Tiny RSS account, through its JSON API (`/api/`, API level 15 and later: TT-RSS 21
/// and the versions since).
///
/// Every call is a POST of a JSON object naming its `op`, with the session id (`sid`) it got
/// from `login`; a session the server has forgotten (`NOT_LOGGED_IN`) is replaced by one new
/// login and the call made again. Calls go one at a time, whoever makes them: TT-RSS writes
/// a session row back at the end of each request, and two requests at once carrying a
/// forgotten id both insert it, one failing with HTTP 500. Article ids are TT-RSS's integers (`ttrss_entries.id`,
/// increasing as articles arrive), feed ids its feed numbers; categories become tags.
///
/// Articles come newest first, 200 a page at most (see `TinyTinyRSSPaging`), with their
/// HTML unsanitized (`sanitize: false`: TT-RSS's sanitizer costs it three quarters of a
/// page's time, and Herald reads an article's HTML as it reads a feed's, as hostile input).
/// TT-RSS's API gives no time of a read or star change: `states()` dates none.
public actor TinyTinyRSSService: AccountService {
    public nonisolated let abilities = AccountAbilities(subscribe: true, unsubscribe: true)

    let http: AccountHTTP
    let login: String
    let password: String
    /// The current session, or the login under way that will give one.
    private var session: Task<Result<String, AccountError>, Never>?
    /// The page of articles after the one `items(after:limit:)` returned last, asked for
    /// already.
    var nextPage: NextPage?
    /// Whether a call is under way, and the calls waiting for their turn.
    private var calling = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    struct NextPage {
        let cursor: String
        let limit: Int
        let task: Task<Result<RemoteItemPage, AccountError>, Never>
    }

    /// `base` is TT-RSS's own address (newsboat's `ttrss-url`, `https://example.org/tt-rss/`):
    /// the API is at `base` + `/api/`.
    public init(base: URL, login: String, password: String, fetcher: FeedFetcher) {
        self.http = AccountHTTP(base: base, fetcher: fetcher)
        self.login = login
        self.password = password
    }

    public func logIn() async throws(AccountError) {
        session = nil
        _ = try await sessionID()
    }

    // MARK: Calls

    /// Calls `op` with `parameters` (and the session), logging in first if need be and once
    /// more if the server forgot the session; its content decoded as `Content`.
    func call<Content: Decodable>(
        _ op: String, _ parameters: [String: TinyTinyRSSValue] = [:], as type: Content.Type
    ) async throws(AccountError) -> Content {
        await takeTurn()
        defer { endTurn() }
        var sid = try await sessionID()
        var retried = false
        while true {
            var body = parameters
            body["op"] = .text(op)
            body["sid"] = .text(sid)
            switch try await post(body, as: Content.self) {
            case .ok(let content):
                return content
            case .failed(let code, _) where code == "NOT_LOGGED_IN" && !retried:
                retried = true
                sid = try await renewedSessionID(replacing: sid)
            case .failed(let code, let message):
                throw Self.error(op: op, code: code, message: message)
            }
        }
    }

    private func takeTurn() async {
        if !calling {
            calling = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func endTurn() {
        if waiting.isEmpty {
            calling = false
        } else {
            waiting.removeFirst().resume()
        }
    }

    /// The session id, logging in when there is none (one login at a time, shared by the
    /// calls waiting for it).
    private func sessionID() async throws(AccountError) -> String {
        let task: Task<Result<String, AccountError>, Never>
        if let session {
            task = session
        } else {
            task = Task { await self.logInNow() }
            session = task
        }
        let result = await task.value
        if case .failure = result, session == task { session = nil }
        return try result.get()
    }

    /// A new session when `old` is still the current one (another call may have renewed it).
    private func renewedSessionID(replacing old: String) async throws(AccountError) -> String {
        if let task = session, case .success(let current) = await task.value, current == old, session == task
        {
            session = nil
        }
        return try await sessionID()
    }

    private func logInNow() async -> Result<String, AccountError> {
        let body: [String: TinyTinyRSSValue] = [
            "op": .text("login"), "user": .text(login), "password": .text(password),
        ]
        do {
            switch try await post(body, as: TinyTinyRSSReply.Login.self) {
            case .ok(let login):
                guard !login.sessionID.isEmpty, login.sessionID.utf8.count <= 256,
                    login.sessionID.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
                else { return .failure(.badResponse("TT-RSS's login gave no usable session id")) }
                return .success(login.sessionID)
            case .failed(let code, let message):
                return .failure(Self.error(op: "login", code: code, message: message))
            }
        } catch {
            return .failure(error)
        }
    }

    /// One POST to `/api/`, its answer decoded.
    private func post<Content: Decodable>(_ body: [String: TinyTinyRSSValue], as type: Content.Type)
        async throws(AccountError) -> TinyTinyRSSReply.Envelope<Content>.Outcome
    {
        let json: Data
        do { json = try JSONEncoder().encode(body) } catch {
            throw .badResponse("a request could not be written")
        }
        let data = try await http.postJSON(http.url("/api/"), json)
        do {
            return try JSONDecoder().decode(TinyTinyRSSReply.Envelope<Content>.self, from: data).outcome
        } catch {
            throw .badResponse(Self.why(error, data: data))
        }
    }

    /// An API error in words (`LOGIN_ERROR` and `API_DISABLED` refuse the login).
    static func error(op: String, code: String, message: String?) -> AccountError {
        let code = String(code.prefix(60)).filter { $0.isLetter || $0.isNumber || $0 == "_" }
        switch code {
        case "LOGIN_ERROR":
            return .unauthorized("TT-RSS did not accept the user name and password (LOGIN_ERROR)")
        case "API_DISABLED":
            return .unauthorized(
                "the API is switched off for this user in TT-RSS's preferences (API_DISABLED)")
        case "NOT_LOGGED_IN": return .unauthorized("TT-RSS ended the session again right after a new login")
        default:
            let detail = message.map { ": " + ServerItem.line(String($0.prefix(200))) } ?? ""
            return .badResponse("TT-RSS answered \(op) with the error \(code.isEmpty ? "?" : code)\(detail)")
        }
    }

    /// Why an answer could not be read, without quoting it (it may echo a request).
    static func why(_ error: any Error, data: Data) -> String {
        let start = data.prefix(64).drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if start.first == UInt8(ascii: "<") {
            return "an HTML page instead of TT-RSS's JSON (is the URL TT-RSS's?)"
        }
        if data.isEmpty { return "an empty answer" }
        if let error = error as? DecodingError {
            switch error {
            case .dataCorrupted(let context) where context.codingPath.isEmpty: return "not JSON"
            case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
                return "a field of the wrong type (\(path(context.codingPath)))"
            case .keyNotFound(let key, let context):
                return "a missing field (\(path(context.codingPath + [key])))"
            @unknown default: return "not TT-RSS's JSON"
            }
        }
        return "not TT-RSS's JSON"
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}

/// A value of a TT-RSS API request.
enum TinyTinyRSSValue: Encodable, Sendable {
    case text(String)
    case number(Int)
    case flag(Bool)

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .number(let number): try container.encode(number)
        case .flag(let flag): try container.encode(flag)
        }
    }
}
