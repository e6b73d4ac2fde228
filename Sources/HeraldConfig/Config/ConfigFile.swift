public import HeraldCore
import Foundation

/// A mistake in the config file, where it is and what would be right.
public struct ConfigDiagnostic: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "\(file):\(line):\(column): \(message)" }
}

/// What the config file makes of the reader: its keys and settings, and the lines that
/// could not be read (the rest of the file still counts).
public struct ReaderConfig: Sendable {
    public var keymap: Keymap = .standard
    public var settings = Settings()
    /// The `color` lines: element → style.
    public var colors: [String: Style] = [:]
    /// The `highlight` lines of titles (`highlight REGEX …`, `highlight all …`), in file order.
    public var highlights: [TitleHighlight] = []
    /// The `highlight article|all` lines: words in an article's text, in file order.
    public var textHighlights: [TitleHighlight] = []
    /// The `feed URL KEY VALUE` lines, values checked (see `FeedSettingKey`).
    public var feedSettings: [FeedSettingLine] = []
    public var diagnostics: [ConfigDiagnostic] = []
    /// The `query` lines, in order.
    public var queries: [NamedQuery] = []
    /// The `filter` lines, in order.
    public var filters: [QueryFilter] = []
    /// The `macro` lines, by key (a later line for a key replaces an earlier one).
    public var macros: [Key: Macro] = [:]
    /// What `herald config check` says of lines that are right but worth knowing about (a
    /// `delete` filter deletes for good), as warnings; the reader does not show them.
    public var notes: [ConfigDiagnostic] = []
    /// The regular expressions of the `highlight`, `query` and `filter` lines, in file order
    /// (`herald config check` tries them on the library).
    public var regexes: [ConfigRegex] = []
    /// The files read: the config, then those it includes, in the order first read.
    public var files: [String] = []
    /// The directives that were read without a mistake, in order, included files' in place of
    /// their `include` lines (what `:dumpconfig` writes, and what `:source` adds to).
    public var lines: [String] = []

    public init() {}
}

/// Reads the config file: one directive per line, words separated by spaces, `"quoted
/// words"` (with `\"` and `\\` inside), `#` to the end of the line a comment.
///
///     bind KEY ACTION [SCREEN…]    the key does the action (on those screens, else wherever
///                                  the action works); what the key did there is undone
///     unbind KEY [SCREEN…]         the key does nothing (there)
///     set NAME VALUE               a setting (see `Settings.specs`)
///     color ELEMENT FG BG [ATTR…]  an element's colours and attributes
///     highlight REGEX FG [BG] [ATTR…]  titles the regex matches, in that style
///     highlight article|all REGEX …    the words it matches in an article's text (and titles)
///     query "Name" EXPR…           a query feed; filter EXPR… ACTION (`ConfigFile+Queries.swift`)
///     include FILE                 the file's lines, read here (relative to this file's folder)
///     macro KEY STEP [; STEP…]     `,` then KEY runs the steps (`ConfigFile+Macros.swift`)
public enum ConfigFile {
    static let directives = [
        "bind", "unbind", "set", "color", "feed", "highlight", "query", "filter", "include", "macro",
    ]
    /// Directives of newsboat's config that Herald does not read (yet): said so, by name.
    static let notYet: [String] = []
    /// Included files read for one config: a bound on a config that includes the same files
    /// over and over (no cycle, but a tree that doubles at each level).
    static let includedFilesLimit = 64

    /// Reads a config's text, as the file `file` holds it. `include` lines read the files
    /// they name through `read` (a path in, the text out, or an error saying why not); with
    /// no `read`, an `include` line is a mistake.
    public static func parse(
        _ text: String, file: String, read: ((String) throws -> String)? = nil
    ) -> ReaderConfig {
        var reading = Reading(read: read)
        reading.files.append(file)
        reading.parse(text, file: file, chain: [(file as NSString).standardizingPath])
        reading.config.diagnostics = reading.diagnostics
        reading.config.notes = reading.notes
        reading.config.files = reading.files
        return reading.config
    }

    /// One reading of a config and the files it includes.
    struct Reading {
        var config = ReaderConfig()
        var diagnostics: [ConfigDiagnostic] = []
        var notes: [ConfigDiagnostic] = []
        /// Every file read, in the order first read.
        var files: [String] = []
        /// How many times an included file was read.
        var reads = 0
        let read: ((String) throws -> String)?

        init(read: ((String) throws -> String)?) { self.read = read }

        /// Reads `text`, the file at the end of `chain` (the files including it, outermost first).
        mutating func parse(_ text: String, file: String, chain: [String]) {
            for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
                .enumerated()
            {
                var found: [ConfigDiagnostic] = []
                var noted: [ConfigDiagnostic] = []
                let diagnose: (Int, String) -> Void = { column, message in
                    found.append(
                        ConfigDiagnostic(file: file, line: index + 1, column: column, message: message))
                }
                let note: (Int, String) -> Void = { column, message in
                    noted.append(
                        ConfigDiagnostic(file: file, line: index + 1, column: column, message: message))
                }
                var include: (path: String, column: Int)?
                ConfigFile.line(
                    String(line), file: file, number: index + 1, into: &config, diagnose: diagnose,
                    note: note,
                    include: { include = ($0, $1) })
                diagnostics += found
                notes += noted
                // The lines in force, includes read in place (`:dumpconfig` writes them).
                if found.isEmpty, include == nil, case .success(let words) = Word.split(String(line)), !words.isEmpty {
                    config.lines.append(String(line).trimmingCharacters(in: .whitespaces))
                }
                if let include {
                    self.include(include.path, at: include.column, from: file, line: index + 1, chain: chain)
                }
            }
        }

        /// `include PATH` at `line` of `file`: the file read in its place.
        private mutating func include(
            _ path: String, at column: Int, from file: String, line: Int, chain: [String]
        ) {
            func diagnose(_ message: String) {
                diagnostics.append(ConfigDiagnostic(file: file, line: line, column: column, message: message))
            }
            guard let read else {
                return diagnose("include reads files only in a config read from disk; the line is ignored")
            }
            let resolved = ConfigFile.resolve(path, from: file)
            if chain.contains(resolved) {
                let cycle = (chain.drop { $0 != resolved } + [resolved]).joined(separator: " → ")
                return diagnose("`\(path)` is already being read (\(cycle)): a cycle; the line is ignored")
            }
            guard reads < ConfigFile.includedFilesLimit else {
                return diagnose(
                    "more than \(ConfigFile.includedFilesLimit) files read for one config; the line is ignored"
                )
            }
            reads += 1
            let text: String
            do {
                text = try read(resolved)
            } catch {
                return diagnose("cannot read `\(resolved)`: \(error)")
            }
            if !files.contains(resolved) { files.append(resolved) }
            parse(text, file: resolved, chain: chain + [resolved])
        }
    }

    /// An included file's path: `~` and `~/…` are the home, a relative path is from the
    /// including file's folder; `..` and `.` are resolved so a cycle is seen whatever the
    /// spelling.
    static func resolve(_ path: String, from file: String) -> String {
        var full = path
        if path == "~" || path.hasPrefix("~/") {
            full = NSHomeDirectory() + path.dropFirst()
        } else if !path.hasPrefix("/"), let slash = file.lastIndex(of: "/") {
            full = String(file[...slash]) + path
        }
        return (full as NSString).standardizingPath
    }

    /// Reads one line into `config`; an `include` is handed to `include` (its path and
    /// column), which reads it once this line's diagnostics are out.
    static func line(
        _ line: String, file: String, number: Int, into config: inout ReaderConfig,
        diagnose: (Int, String) -> Void, note: (Int, String) -> Void, include: (String, Int) -> Void
    ) {
        let words: [Word]
        switch Word.split(line) {
        case .success(let split): words = split
        case .failure(let error): return diagnose(error.column, error.message)
        }
        guard let first = words.first else { return }
        let arguments = Array(words.dropFirst())
        let before = (
            config.highlights.count, config.textHighlights.count, config.queries.count, config.filters.count
        )
        defer {
            config.regexes += regexes(
                added: before, to: config, file: file, line: line, number: number, directive: first)
        }
        switch first.text {
        case "bind": bind(arguments, after: first, into: &config, diagnose: diagnose)
        case "unbind": unbind(arguments, after: first, into: &config, diagnose: diagnose)
        case "set": set(arguments, after: first, into: &config, diagnose: diagnose)
        case "color", "colour": color(arguments, after: first, into: &config, diagnose: diagnose)
        case "feed":
            feed(arguments, after: first, file: file, line: number, into: &config, diagnose: diagnose)
        case "highlight": highlight(arguments, after: first, into: &config, diagnose: diagnose)
        case "query":
            query(arguments, after: first, line: line, into: &config, diagnose: diagnose)
        case "filter":
            filter(arguments, after: first, line: line, into: &config, diagnose: diagnose, note: note)
        case "include":
            guard arguments.count == 1, let path = arguments.first, !path.text.isEmpty else {
                return diagnose(
                    (arguments.dropFirst().first ?? first).column,
                    "include takes one file: include FILE (quote a path with spaces)")
            }
            include(path.text, path.column)
        case "macro": macro(arguments, after: first, into: &config, diagnose: diagnose)
        case let name where notYet.contains(name):
            diagnose(first.column, "`\(name)` is not supported yet; the line is ignored")
        default:
            diagnose(
                first.column,
                "unknown directive `\(first.text)`"
                    + suggestion(for: first.text, among: directives + notYet)
                    + " (bind, unbind, set, color, feed, highlight, query, filter, include or macro)")
        }
    }

    // bind, unbind, set and color (highlight and filter: ConfigFile+Highlight, +Queries): the
    // words are read into a `ConfigDirective` (a diagnostic for a word that names nothing),
    // which `ReaderConfig.apply` applies and judges; its problems are placed at their words.

    private static func bind(
        _ words: [Word], after directive: Word, into config: inout ReaderConfig,
        diagnose: (Int, String) -> Void
    ) {
        guard words.count >= 2 else {
            return diagnose(
                (words.last ?? directive).end, "bind needs a key and an action: bind KEY ACTION [SCREEN…]")
        }
        guard let keys = KeyName.parseSequence(words[0].text) else {
            return diagnose(words[0].column, "unknown key `\(words[0].text)`" + KeyName.help)
        }
        guard let action = Action(rawValue: words[1].text) else {
            return diagnose(
                words[1].column,
                "unknown action `\(words[1].text)`"
                    + suggestion(for: words[1].text, among: Action.allCases.map(\.rawValue)))
        }
        guard let screens = screens(words.dropFirst(2), diagnose: diagnose) else { return }
        for problem in config.apply(.bind(keys: keys, action: action, screens: screens)) {
            // An action left nothing to do is told at the first screen named (at the action
            // when none is); a clash at the key.
            let at = problem.part == .screens ? words[min(2, words.count - 1)] : words[0]
            diagnose(at.column, problem.message)
        }
    }

    private static func unbind(
        _ words: [Word], after directive: Word, into config: inout ReaderConfig,
        diagnose: (Int, String) -> Void
    ) {
        guard let first = words.first else {
            return diagnose(directive.end, "unbind needs a key: unbind KEY [SCREEN…]")
        }
        guard let keys = KeyName.parseSequence(first.text) else {
            return diagnose(first.column, "unknown key `\(first.text)`" + KeyName.help)
        }
        guard let screens = screens(words.dropFirst(), diagnose: diagnose) else { return }
        for problem in config.apply(.unbind(keys: keys, screens: screens)) {
            diagnose(first.column, problem.message)
        }
    }

    private static func set(
        _ words: [Word], after directive: Word, into config: inout ReaderConfig,
        diagnose: (Int, String) -> Void
    ) {
        guard let name = words.first else {
            return diagnose(directive.end, "set needs a name and a value: set NAME VALUE")
        }
        // Named before the count of values is checked: that message names what it expects.
        let spec: Settings.Spec
        switch Settings.spec(named: name.text) {
        case .success(let found): spec = found
        case .failure(let error): return diagnose(name.column, error.message)
        }
        guard words.count == 2 else {
            let at = words.count > 2 ? words[2].column : name.end
            return diagnose(
                at, "set \(spec.name) takes one value (\(spec.kind.expected)); quote one with spaces")
        }
        for problem in config.apply(.set(setting: spec.name, value: words[1].text)) {
            diagnose(problem.part == .setting ? name.column : words[1].column, problem.message)
        }
    }

    static let colorNames = ["default"] + TerminalColor.basicNames
    static let attributeNames = ["bold", "dim", "underline", "reverse", "italic", "normal"]

    /// `color ELEMENT FOREGROUND BACKGROUND [ATTRIBUTE…]`: colours are `default`, `black`,
    /// `red`, `green`, `yellow`, `blue`, `magenta`, `cyan`, `white`, `bright-NAME`, `colorN`.
    private static func color(
        _ words: [Word], after directive: Word, into config: inout ReaderConfig,
        diagnose: (Int, String) -> Void
    ) {
        guard words.count >= 3 else {
            return diagnose(
                (words.last ?? directive).end,
                "color needs an element and two colours: color ELEMENT FG BG [ATTR…]")
        }
        // Named before the colours are read, so a line wrong in both is told about its element.
        if let unknown = unknownElement(words[0].text) { return diagnose(words[0].column, unknown.message) }
        guard let style = style(words.dropFirst(), backgroundOptional: false, diagnose: diagnose) else {
            return
        }
        for problem in config.apply(.color(element: words[0].text, style: style)) {
            diagnose(words[0].column, problem.message)
        }
    }

    /// What the reader says of an element `Theme.elements` does not have, nil for one it has.
    static func unknownElement(_ name: String) -> ConfigWordError? {
        guard !Theme.elements.contains(name) else { return nil }
        return ConfigWordError(
            message: "unknown element `\(name)`" + suggestion(for: name, among: Theme.elements))
    }

    /// The screens named (nil: none named), or nil after a diagnostic.
    private static func screens(
        _ words: ArraySlice<Word>, diagnose: (Int, String) -> Void
    ) -> [ScreenKind]?? {
        guard !words.isEmpty else { return .some(nil) }
        var screens: [ScreenKind] = []
        for word in words {
            guard let screen = ScreenKind(rawValue: word.text) else {
                diagnose(
                    word.column,
                    "unknown screen `\(word.text)`"
                        + suggestion(for: word.text, among: ScreenKind.allCases.map(\.rawValue)))
                return nil
            }
            screens.append(screen)
        }
        return .some(screens)
    }

    /// ` — did you mean `next-unread`?` when one of `names` is close, else "".
    package static func suggestion(for word: String, among names: [String]) -> String {
        let scored = names.map { ($0, editDistance(word.lowercased(), $0)) }.min { $0.1 < $1.1 }
        guard let (name, distance) = scored, distance <= max(2, word.count / 3) else { return "" }
        return " — did you mean `\(name)`?"
    }

    /// Levenshtein distance (short words only: config words).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.prefix(64)), b = Array(b.prefix(64))
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(
                    previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
