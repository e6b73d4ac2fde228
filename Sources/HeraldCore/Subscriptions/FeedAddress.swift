import Foundation

/// Which addresses may become a subscription, by where they came from.
///
/// One policy for every way in: a feed's address is http or https, with a host, and holds
/// no control character, space or bidi control. `file:` is allowed only when the user typed
/// it (`herald add file:///…`): an address from a subscription file, a web page's alternate
/// link, a redirect or another device's sync files is data from elsewhere, and
/// `file:///etc/passwd` there is an attack. A device (`file:///dev/…`) is never a feed.
///
/// newsboat's command feeds (`exec:COMMAND`, `filter:FILTER:URL`, see `CommandFeed`) run a
/// shell command on this machine: they are taken only from the user's own hand, typed or in
/// their own newsboat `urls` (`.newsboatURLs`), never from an OPML file, a web page, a
/// redirect or another device.
public enum FeedAddress {
    public enum Origin: Sendable {
        /// Typed by the user on the command line.
        case typed
        /// Listed in a file being imported (OPML, a newsboat urls file).
        case listed
        /// Listed in the user's own newsboat `urls` (`herald import-newsboat`): as `listed`,
        /// and newsboat's `exec:` and `filter:` feeds come over too.
        case newsboatURLs
        /// Named by a fetched web page (`<link rel="alternate">`).
        case discovered
        /// Written by another device into the sync folder (a subscription, a move).
        case synced
    }

    /// Why an address was refused, in words for the user.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// Longer addresses are refused: no feed needs one, and a megabyte-long line is junk.
    public static let maximumLength = 4096

    /// The address, trimmed, when it may be subscribed to from `origin`.
    public static func check(_ address: String, from origin: Origin) throws(Refusal) -> String {
        let trimmed = address.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw Refusal("no address") }
        guard trimmed.utf8.count <= maximumLength else {
            throw Refusal("longer than \(maximumLength) bytes")
        }
        if trimmed.unicodeScalars.contains(where: { TextSanitizer.isForbidden($0) }) {
            throw Refusal("holds a control character")
        }
        if CommandFeed.isCommand(trimmed) { return try command(trimmed, from: origin) }
        if trimmed.unicodeScalars.contains(where: { $0.properties.isWhitespace }) {
            throw Refusal("holds a space")
        }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased() else {
            throw Refusal("not a URL (a feed's address starts with http:// or https://)")
        }
        switch scheme {
        case "http", "https":
            guard let host = url.host, !host.isEmpty else { throw Refusal("no host") }
        case "file" where origin == .typed:
            guard !url.path.isEmpty else { throw Refusal("no path") }
            let path = URL(fileURLWithPath: url.path).standardizedFileURL.path
            if path == "/dev" || path.hasPrefix("/dev/") { throw Refusal("a device is not a feed") }
        case "file":
            throw Refusal("a file: address may only be typed, not come from \(origin.source)")
        default:
            throw Refusal("\(scheme): is not a feed's scheme (only http and https are)")
        }
        return trimmed
    }

    /// An `exec:` or `filter:` address, when `origin` is the user's own and it names a
    /// command (and, for a filter, an http or https address to download).
    private static func command(_ address: String, from origin: Origin) throws(Refusal) -> String {
        let kind = address.hasPrefix("exec:") ? "exec" : "filter"
        guard origin == .typed || origin == .newsboatURLs else {
            throw Refusal(
                "\(kind == "exec" ? "an" : "a") \(kind): feed runs a command on this machine: only your own command line or newsboat urls "
                    + "may add one, not \(origin.source)")
        }
        guard let command = CommandFeed(address: address) else {
            throw Refusal(
                kind == "exec"
                    ? "exec: names no command" : "not filter:COMMAND:URL (a command and an address)")
        }
        if case .filter(_, let url) = command {
            let scheme = URL(string: url)?.scheme?.lowercased()
            guard scheme == "http" || scheme == "https" else {
                throw Refusal("the filter's address is not http or https")
            }
            do throws(Refusal) {
                guard try check(url, from: .listed) == url else { throw Refusal("spaces around it") }
            } catch {
                throw Refusal("the filter's address: \(error)")
            }
        }
        return address
    }
}

extension FeedAddress.Origin {
    /// Where an address of this origin came from, for a refusal.
    var source: String {
        switch self {
        case .typed: "the command line"
        case .listed: "an imported file"
        case .newsboatURLs: "newsboat's urls"
        case .discovered: "a web page"
        case .synced: "another device through sync"
        }
    }
}
