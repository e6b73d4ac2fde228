import HeraldConfig

/// newsboat's server accounts (`urls-source` and the `freshrss-*`, `ttrss-*`, `miniflux-*` …
/// settings) in Herald's config: the same names where Herald speaks the server's protocol;
/// every other setting of a server left behind with why. A password line is carried (into a
/// config file written readable by its owner alone) and never shown: its text in the import's
/// report is the setting's name.
enum NewsboatAccounts {
    /// newsboat's servers Herald does not speak yet, by `urls-source` name.
    static let notYet: [String: String] = [
        "ocnews": "Nextcloud News", "newsblur": "NewsBlur", "feedbin": "Feedbin", "inoreader": "Inoreader",
        "oldreader": "The Old Reader", "feedhq": "FeedHQ",
    ]

    /// The Herald directive of an account line; nil when `name` is not an account setting.
    static func directives(_ name: String, _ value: String) -> NewsboatConfig.Translated? {
        if name == "urls-source" {
            if value == "local" || AccountSettings.sources.contains(value) {
                return .success([.set(setting: name, value: value)])
            }
            if let server = notYet[value] {
                return .failure(
                    .init(
                        "Herald does not speak \(server)'s API yet: export its subscriptions as OPML and `herald import` them"
                    ))
            }
            return .failure(.init("no server `\(value)`"))
        }
        guard let dash = name.firstIndex(of: "-") else { return nil }
        let (server, field) = (String(name[..<dash]), String(name[name.index(after: dash)...]))
        if AccountSettings.sources.contains(server) {
            if AccountSettings.fields.contains(field) {
                guard !value.isEmpty else { return .failure(.init("no value")) }
                guard !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                    return .failure(.init("a value with control characters"))
                }
                return .success([.set(setting: name, value: value)])
            }
            return .failure(.init(reason(field)))
        }
        if let service = notYet[server] { return .failure(.init("Herald does not speak \(service)'s API yet")) }
        return nil
    }

    /// Why a server setting Herald has no name for is left behind.
    static func reason(_ field: String) -> String {
        switch field {
        case "min-items": "Herald brings every article the server holds"
        case "flag-star", "flag-share", "flag-publish":
            "Herald syncs the server's own starred mark (s), which newsboat's flags stand in for"
        case "mode": "Herald reads the whole account"
        case "show-special-feeds": "Herald's Starred and Unread lists hold the server's starred and unread articles"
        case "token", "tokenfile", "tokeneval":
            "Herald logs in with a user name and password (Miniflux: those of its Google Reader integration)"
        case "verifyhost": "Herald always checks the server's certificate"
        default: "no Herald equivalent"
        }
    }

    /// Whether a newsboat line's setting holds a secret, never to be shown.
    static func isSecret(_ name: String) -> Bool {
        name.hasSuffix("-password") || name.hasSuffix("-token")
    }
}
