public import Foundation
public import HeraldFetch

/// The servers Herald reads through, by newsboat's `urls-source` names (and Herald's own for
/// the bare protocols), with the protocol each speaks.
public enum AccountKind: String, Sendable, CaseIterable {
    /// FreshRSS through its Google Reader API (`freshrss-url`: the server, or its
    /// `…/api/greader.php`).
    case freshrss
    /// Miniflux through its Google Reader API (`miniflux-url`: the server; the login and
    /// password are those of its Google Reader integration).
    case miniflux
    /// Any server of the Google Reader API (`greader-url`: where `/accounts/ClientLogin` is).
    case greader
    /// Tiny Tiny RSS through its JSON API (`ttrss-url`: the server, as newsboat has it).
    case ttrss
    /// Any Fever API server (`fever-url`: the endpoint, FreshRSS's `…/api/fever.php`).
    case fever

    /// newsboat's sources Herald does not speak yet, each with what to do instead.
    public static let notYet: [String: String] = [
        "ocnews": "Nextcloud News", "newsblur": "NewsBlur", "feedbin": "Feedbin", "inoreader": "Inoreader",
        "oldreader": "The Old Reader", "feedhq": "FeedHQ",
    ]

    /// The settings' prefix (`freshrss-url`, `freshrss-login` …).
    public var prefix: String { rawValue }

    public var name: String {
        switch self {
        case .freshrss: "FreshRSS"
        case .miniflux: "Miniflux"
        case .greader: "Google Reader API"
        case .ttrss: "Tiny Tiny RSS"
        case .fever: "Fever API"
        }
    }
}

/// An account as configured: which server, where, who; and the password, read when needed
/// (`AccountSecret`), never stored in the library, never printed.
public struct AccountConfig: Sendable {
    public var kind: AccountKind
    public var url: URL
    public var login: String
    public var secret: AccountSecret

    public init(kind: AccountKind, url: URL, login: String, secret: AccountSecret) {
        (self.kind, self.url, self.login, self.secret) = (kind, url, login, secret)
    }

    /// What ties a library to the account: its kind, address and login (no secret).
    public var identity: String { "\(kind.rawValue) \(login)@\(url.absoluteString)" }

    /// How the account is named in a status line: `FreshRSS (alice@example.org)`.
    public var label: String { "\(kind.name) (\(login)@\(url.host ?? url.absoluteString))" }

    /// The client of its protocol, with its password read now.
    public func service(fetcher: FeedFetcher) async throws(AccountError) -> any AccountService {
        let password = try await secret.read(fetcher: fetcher)
        switch kind {
        case .freshrss:
            let path = url.path
            let api =
                path.hasSuffix("greader.php") || path.hasSuffix("greader.php/")
                ? url : url.appendingPathComponent("api/greader.php")
            return GoogleReaderService(apiBase: api, login: login, password: password, fetcher: fetcher)
        case .miniflux, .greader:
            return GoogleReaderService(apiBase: url, login: login, password: password, fetcher: fetcher)
        case .ttrss:
            return TinyTinyRSSService(base: url, login: login, password: password, fetcher: fetcher)
        case .fever:
            return FeverService(endpoint: url, login: login, password: password, fetcher: fetcher)
        }
    }
}
