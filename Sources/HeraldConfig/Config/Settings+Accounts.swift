/// A server account's settings, by newsboat's names: `urls-source` says which server the
/// library reads through (`local`: none), and each server's `-url`, `-login`, `-password`,
/// `-passwordfile` and `-passwordeval` say where, who, and how to find the password.
/// `herald` turns them into an account (`AccountConfig` in HeraldAccounts).
public struct AccountSettings: Sendable, Equatable {
    /// `local`, or a server's name (`freshrss`, `ttrss`, `miniflux`, `greader`, `fever`).
    public var source = "local"
    /// The values set, by setting name (`freshrss-url` …).
    public var values: [String: String] = [:]

    public init() {}

    /// A value of the chosen server's (`url`, `login`, `password` …), nil when unset.
    public func value(_ field: String) -> String? {
        values["\(source)-\(field)"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The servers' names `urls-source` takes, after `local`.
    public static let sources = ["freshrss", "ttrss", "miniflux", "greader", "fever"]
    /// The fields each server has.
    public static let fields = ["url", "login", "password", "passwordfile", "passwordeval"]
}

extension Settings {
    static let accountSpecs: [Spec] =
        [
            Spec(
                name: "urls-source", kind: .choice(["local"] + AccountSettings.sources), defaultValue: "local",
                summary:
                    "the server the library reads through, as newsboat's urls-source: its subscriptions, articles and read and starred marks (local: none; your own feeds stay beside the server's)"
            )
        ]
        + AccountSettings.sources.flatMap { source in
            [
                Spec(
                    name: "\(source)-url", kind: .text, defaultValue: "",
                    summary: "the \(source) server's address (docs/ACCOUNTS.md)"),
                Spec(name: "\(source)-login", kind: .text, defaultValue: "", summary: "the \(source) user name"),
                Spec(
                    name: "\(source)-password", kind: .secret, defaultValue: "",
                    summary:
                        "the \(source) password (never printed; the config file must not be readable by others: chmod 600)"
                ),
                Spec(
                    name: "\(source)-passwordfile", kind: .text, defaultValue: "",
                    summary: "a file whose first line is the \(source) password (chmod 600)"),
                Spec(
                    name: "\(source)-passwordeval", kind: .command, defaultValue: "",
                    summary: "a command (by /bin/sh) printing the \(source) password (pass show rss, secret-tool …)"),
            ]
        }

    /// Sets an account setting from its config text; the problem in words, or nil.
    mutating func setAccount(_ spec: Spec, _ text: String) -> String? {
        let value = text.trimmingCharacters(in: .whitespaces)
        if value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "\(spec.kind.expected) cannot hold control characters"
        }
        if spec.name == "urls-source" {
            guard value == "local" || AccountSettings.sources.contains(value) else {
                return "\(spec.name) is \(spec.kind.expected)"
            }
            account.source = value
        } else {
            // Empty: unset (`herald config default` writes every one so).
            account.values[spec.name] = value.isEmpty ? nil : value
        }
        return nil
    }

    /// Whether the setting holds a secret: its value is never printed.
    public static func isSecret(_ name: String) -> Bool {
        specs.first { $0.name == name }.map { if case .secret = $0.kind { true } else { false } } ?? false
    }
}
