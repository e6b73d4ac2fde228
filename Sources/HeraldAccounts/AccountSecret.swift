import Foundation
public import HeraldFetch

/// Where an account's password comes from, as newsboat has it: the config line itself
/// (`freshrss-password`), a file (`…-passwordfile`, its first line), or a command's output
/// (`…-passwordeval`, its first line). It is read when the account is contacted and held
/// only in memory: never in the library, the sync folder, output, errors or another
/// process's arguments (a command gets nothing of it; it prints it on a pipe).
public enum AccountSecret: Sendable {
    case text(String)
    case file(String)
    case command(String)
    /// None was set: the account cannot log in (says which settings to set).
    case missing(String)

    /// The password. A file others can read is refused with why, as is a config file
    /// others can read that holds the password itself (`configPath`'s check is the caller's:
    /// see `AccountSecret.exposed`).
    public func read(fetcher: FeedFetcher) async throws(AccountError) -> String {
        switch self {
        case .text(let password): return password
        case .missing(let why): throw .configuration(why)
        case .file(let path):
            let path = (path as NSString).expandingTildeInPath
            if let why = Self.exposed(path) { throw .configuration(why) }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .configuration("the password file \(path) cannot be read")
            }
            return Self.firstLine(data)
        case .command(let command):
            do {
                var limits = FetchLimits()
                limits.maxBytes = 64 * 1024
                limits.totalTimeout = 60
                let output = try await CommandOutput.run(command, kind: "passwordeval", input: nil, limits: limits)
                let password = Self.firstLine(output)
                guard !password.isEmpty else { throw AccountError.configuration("the password command printed nothing") }
                return password
            } catch let error as AccountError {
                throw error
            } catch {
                throw .configuration("the password command failed: \(error)")
            }
        }
    }

    /// Why the file at `path` must not hold a password (others can read it), or nil.
    public static func exposed(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        guard info.st_mode & S_IROTH != 0 else { return nil }
        let mode = String(info.st_mode & 0o777, radix: 8)
        return "\(path) is readable by every user (mode \(mode)): it must not hold a password; run chmod 600 \(path)"
    }

    static func firstLine(_ data: Data) -> String {
        let text = String(decoding: data.prefix(64 * 1024), as: UTF8.self)
        return String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
            .trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
    }
}
