/// newsboat's feeds that are commands, as its `urls` file writes them: `exec:COMMAND` (the
/// command's standard output is the feed) and `filter:FILTER:URL` (the document at URL,
/// piped through FILTER, whose standard output is the feed). Both command lines are run by
/// `/bin/sh -c`, so they are the user's own text and nobody else's: only an address the user
/// typed or listed in their own newsboat `urls` may be one (see `FeedAddress`). Nothing a
/// feed sends is ever put into a command line.
public enum CommandFeed: Sendable, Equatable {
    case exec(command: String)
    /// `url` is the address to download, checked as any feed's (http or https).
    case filter(command: String, url: String)

    /// The command in an address, nil when the address is no command (an `http:` feed, say).
    /// As newsboat reads it: the filter ends at the first colon after `filter:`, the rest is
    /// the URL; an `exec:` or `filter:` address without a command, or a filter without a URL,
    /// is still a command address (`isCommand`) but names nothing to run.
    public init?(address: String) {
        if address.hasPrefix("exec:") {
            let command = String(address.dropFirst("exec:".count))
            guard !command.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
            self = .exec(command: command)
        } else if address.hasPrefix("filter:") {
            let rest = address.dropFirst("filter:".count)
            guard let colon = rest.firstIndex(of: ":") else { return nil }
            let command = String(rest[..<colon])
            let url = String(rest[rest.index(after: colon)...])
            guard !command.trimmingCharacters(in: .whitespaces).isEmpty, !url.isEmpty else { return nil }
            self = .filter(command: command, url: url)
        } else {
            return nil
        }
    }

    /// Whether an address is newsboat's `exec:` or `filter:` form, well made or not.
    public static func isCommand(_ address: String) -> Bool {
        address.hasPrefix("exec:") || address.hasPrefix("filter:")
    }

    /// `exec` or `filter`: how errors and refusals name it.
    public var kind: String {
        switch self {
        case .exec: "exec"
        case .filter: "filter"
        }
    }

    /// The command line run by `/bin/sh -c`.
    public var command: String {
        switch self {
        case .exec(let command), .filter(let command, _): command
        }
    }
}
