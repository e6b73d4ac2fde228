package import HeraldCore

/// A command typed on the `:` command line.
///
///     mark-read [QUERY]    mark-unread [QUERY]    star [QUERY]    unstar [QUERY]
///     undo    reload    set NAME VALUE    quit    help    N (a row)
///     save FILE    pipe-to COMMAND    link N    tag NAME    goto TEXT
///     source FILE    dumpconfig FILE    podcasts
///
/// The flag commands work on the list on screen, or on the articles a query matches.
package enum ColonCommand: Equatable, Sendable {
    case flag(ArticleFlag, Bool, BulkTarget)
    case undo, reload, quit, help, podcasts
    case set(name: String, value: String)
    /// A number alone: go to that row (newsboat's `:7`; a digit on a list starts it).
    case row(Int)
    /// The article as text to a file, or to a command's standard input.
    case save(String), pipeTo(String)
    /// Open link N of the article's text (`#` starts it).
    case link(Int)
    /// The articles of the feeds with a tag; the next feed whose title holds the text.
    case tag(String), goto(String)
    /// Reads a config file over the one in force (newsboat's `:source`); writes the config in
    /// force to a file (its `:dumpconfig`).
    case source(String), dumpConfig(String)

    /// Every command, with its arguments and what it does, in the order `:help` lists them.
    package static let table: [(name: String, arguments: String, summary: String)] = [
        ("mark-read", "[QUERY]", "mark the articles of the list on screen (or matching QUERY) read"),
        ("mark-unread", "[QUERY]", "mark them unread"),
        ("star", "[QUERY]", "star them"),
        ("unstar", "[QUERY]", "unstar them"),
        ("undo", "", "take back the last change of read or starred flags (as U does)"),
        ("reload", "", "reload every feed"),
        ("set", "NAME VALUE", "change a setting for this session (the names of the config file's set)"),
        ("save", "FILE", "save the article as text to FILE (s starts it with save-path)"),
        ("pipe-to", "COMMAND", "the article as text to COMMAND's standard input, by /bin/sh (| starts it)"),
        ("link", "N", "open link N of the article's text (# starts it)"),
        ("tag", "NAME", "the articles of the feeds tagged NAME"),
        ("goto", "TEXT", "select the next feed whose title holds TEXT"),
        ("source", "FILE", "read a config file over the one in force (keys, settings, colours, macros)"),
        ("dumpconfig", "FILE", "write the config in force, with this session's :set and :source, to FILE"),
        ("podcasts", "", "the podcast queue (as d does)"),
        ("N", "", "a number: go to row N (a digit on a list starts it)"),
        ("quit", "", "quit"),
        ("help", "", "this list"),
    ]

    package static let names = table.map(\.name).filter { $0 != "N" }

    /// Reads a command line; the error in words (naming the word it stopped at) otherwise.
    package static func parse(_ line: String) -> Result<ColonCommand, ColonCommandError> {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let name = String(trimmed.prefix { !$0.isWhitespace })
        let rest = trimmed.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        let flag: (ArticleFlag, Bool)?
        switch name {
        case "mark-read": flag = (.read, true)
        case "mark-unread": flag = (.read, false)
        case "star": flag = (.starred, true)
        case "unstar": flag = (.starred, false)
        default: flag = nil
        }
        if let (which, value) = flag {
            guard !rest.isEmpty else { return .success(.flag(which, value, .list)) }
            do {
                _ = try ArticleQuery.parse(rest)
            } catch {
                // The column in the line as typed (after the `:`).
                let leading = line.prefix { $0.isWhitespace }.count
                let gap = line.dropFirst(leading + name.count).prefix { $0.isWhitespace }.count
                let column = leading + name.count + gap + error.column
                return .failure(ColonCommandError("query: \(error.message) (column \(column))"))
            }
            return .success(.flag(which, value, .query(rest)))
        }
        if let row = Int(name), row > 0, rest.isEmpty { return .success(.row(row)) }
        let text: [String: (String) -> ColonCommand] = [
            "save": { .save($0) }, "pipe-to": { .pipeTo($0) }, "tag": { .tag($0) }, "goto": { .goto($0) },
            "source": { .source($0) }, "dumpconfig": { .dumpConfig($0) },
        ]
        if let make = text[name] {
            guard !rest.isEmpty else {
                let what =
                    [
                        "save": "a file name", "pipe-to": "a command", "tag": "a tag", "goto": "a text",
                        "source": "a config file", "dumpconfig": "a file name",
                    ][name]!
                return .failure(ColonCommandError("`\(name)` needs \(what)"))
            }
            return .success(make(rest))
        }
        if name == "link" {
            guard let number = Int(rest), number > 0 else {
                return .failure(ColonCommandError("`link` needs a link's number: link 3"))
            }
            return .success(.link(number))
        }
        let plain: [String: ColonCommand] = [
            "undo": .undo, "reload": .reload, "quit": .quit, "help": .help, "podcasts": .podcasts,
        ]
        if let command = plain[name] {
            return rest.isEmpty
                ? .success(command) : .failure(ColonCommandError("`\(name)` takes no arguments"))
        }
        guard name == "set" else {
            return .failure(
                ColonCommandError(
                    "unknown command `\(name)`" + ConfigFile.suggestion(for: name, among: names)
                        + " (:help lists them)"))
        }
        return parseSet(rest)
    }

    /// `set NAME VALUE`, read as the config file reads it (quotes for a value with spaces).
    private static func parseSet(_ text: String) -> Result<ColonCommand, ColonCommandError> {
        guard case .success(let words) = Word.split(text) else {
            return .failure(ColonCommandError("a quote is not closed"))
        }
        guard let name = words.first else {
            return .failure(ColonCommandError("set needs a name and a value: set NAME VALUE"))
        }
        let spec: Settings.Spec
        switch Settings.spec(named: name.text) {
        case .success(let found): spec = found
        case .failure(let error): return .failure(ColonCommandError(error.message))
        }
        guard words.count == 2 else {
            return .failure(
                ColonCommandError(
                    "set \(spec.name) takes one value (\(spec.kind.expected)); quote one with spaces"))
        }
        return .success(.set(name: spec.name, value: words[1].text))
    }

    /// What Tab makes of a partly typed line: the one completion (with a space after it), or
    /// the longest beginning the candidates share, and the candidates.
    package static func complete(_ line: String) -> (text: String, candidates: [String]) {
        let words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let (head, partial, among): (String, String, [String])
        switch words.count {
        case 1: (head, partial, among) = ("", line, names)
        case 2 where words[0] == "set":
            (head, partial, among) = ("set ", words[1], Settings.specs.map(\.name))
        default: return (line, [])
        }
        let candidates = among.filter { $0.hasPrefix(partial) }
        guard let first = candidates.first else { return (line, []) }
        if candidates.count == 1 { return (head + first + " ", []) }
        var common = first
        for candidate in candidates.dropFirst() {
            while !candidate.hasPrefix(common) { common.removeLast() }
        }
        return (head + common, candidates)
    }
}

/// What a flag command works on.
package enum BulkTarget: Equatable, Sendable {
    /// The list on screen (a feed, a tag, All articles, Unread, Starred).
    case list
    /// The articles a query matches (its text, which parses).
    case query(String)
}

/// A command line that could not be read, in words for the status line.
package struct ColonCommandError: Error, Equatable, Sendable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// The `:` commands for the man page and `:help`: usage and what each does.
public enum CommandLineReference {
    public static var entries: [(usage: String, summary: String)] {
        ColonCommand.table.map { ($0.arguments.isEmpty ? $0.name : "\($0.name) \($0.arguments)", $0.summary) }
    }
}
