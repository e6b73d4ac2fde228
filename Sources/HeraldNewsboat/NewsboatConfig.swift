import HeraldCore
public import HeraldConfig

/// What a newsboat `config` file becomes in Herald's config: the directives written, the
/// newsboat lines they came from, and every line left behind with its number and why.
public struct NewsboatTranslation: Sendable, Equatable {
    /// A newsboat line that was not carried over.
    public struct Skipped: Sendable, Hashable {
        public var line: Int
        public var text: String
        public var reason: String
    }

    /// A Herald directive and the number of the newsboat line it came from.
    public struct Translated: Sendable, Equatable {
        public var directive: ConfigDirective
        public var origin: Int
    }

    /// Herald directives, in the order of the newsboat lines they came from.
    public var directives: [Translated] = []
    /// The directives as Herald config lines: what the import writes.
    public var lines: [String] { directives.map(\.directive.line) }
    /// The newsboat line each of `lines` came from.
    public var origins: [Int] { directives.map(\.origin) }
    /// The text of the newsboat lines carried over, by number.
    public var sources: [Int: String] = [:]
    /// newsboat lines carried over.
    public var carried = 0
    public var skipped: [Skipped] = []

    public init() {}

    /// Takes a directive back out, listing its line as not carried over with `reason`.
    public mutating func drop(at index: Int, reason: String) {
        let dropped = directives.remove(at: index)
        let origin = dropped.origin
        skipped.append(Skipped(line: origin, text: sources[origin] ?? dropped.directive.line, reason: reason))
        if !directives.contains(where: { $0.origin == origin }) { carried -= 1 }
        skipped.sort { $0.line < $1.line }
    }
}

/// Translates newsboat's `config` into Herald's directives (`bind`, `unbind`, `set`,
/// `color`, `highlight`, `filter`, as `ConfigDirective` values): one newsboat line at a
/// time, each either carried over or listed in `skipped` with its reason. What Herald's
/// reader would refuse of them is found by applying them (`ReaderConfig.apply`), which
/// `herald import-newsboat` does before it prints them as config lines.
///
/// No line deletes: `ignore-article` becomes a `hide` filter under `ignore-mode display`
/// (newsboat keeps the articles and does not show them) and a `skip` filter otherwise
/// (newsboat's default, `download`: new matching articles are not stored, stored ones stay).
public enum NewsboatConfig {
    public static func translate(_ text: String) -> NewsboatTranslation {
        translate(
            lines: text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init))
    }

    /// The translation of these lines (a config with its includes followed: see
    /// `NewsboatConfigText`); each result's line number is a position in `lines`, from 1.
    public static func translate(lines: [String]) -> NewsboatTranslation {
        var result = NewsboatTranslation()
        var reloadTime: (minutes: String, line: Int, text: String)?
        var autoReload: (on: Bool, line: Int, text: String)?
        // newsboat reads the whole file before it ignores anything: the last `ignore-mode`
        // holds, wherever it stands.
        let modes = lines.compactMap { words(String($0)) }.filter { $0.first == "ignore-mode" }
            .compactMap { $0.dropFirst().first }.filter(ignoreModes.contains)
        let hiding = modes.last == "display"
        for (index, raw) in lines.enumerated() {
            let number = index + 1
            var shown = TextSanitizer.singleLine(String(raw)).trimmingCharacters(in: .whitespaces)
            // A password is never shown: its line is its setting's name.
            if let name = shown.split(separator: " ").first, NewsboatAccounts.isSecret(String(name)) {
                shown = "\(name) …"
            }
            guard let words = words(String(raw)) else {
                result.skipped.append(.init(line: number, text: shown, reason: "a quote is not closed"))
                continue
            }
            guard let name = words.first else { continue }
            let arguments = Array(words.dropFirst())
            // Both decide one Herald setting: settled after the loop.
            if name == "reload-time" {
                reloadTime = (arguments.first ?? "", number, shown)
                continue
            }
            if name == "auto-reload" {
                autoReload = (NewsboatConfig.bool(arguments.first) ?? false, number, shown)
                continue
            }
            // It decides what the ignore-article lines become: carried over in them.
            if name == "ignore-mode" {
                if ignoreModes.contains(arguments.first ?? "") {
                    result.sources[number] = shown
                    result.carried += 1
                } else {
                    result.skipped.append(
                        .init(line: number, text: shown, reason: "ignore-mode is display or download"))
                }
                continue
            }
            switch directives(name, arguments, hiding: hiding) {
            case .success(let directives):
                result.directives += directives.map { .init(directive: $0, origin: number) }
                result.sources[number] = shown
                result.carried += 1
            case .failure(let problem):
                result.skipped.append(.init(line: number, text: shown, reason: problem.reason))
            }
        }
        settleReload(reloadTime, autoReload, into: &result)
        result.skipped.sort { $0.line < $1.line }
        return result
    }

    /// `auto-reload yes` with `reload-time M` (newsboat's default 60) → `set reload-interval M`.
    private static func settleReload(
        _ time: (minutes: String, line: Int, text: String)?, _ auto: (on: Bool, line: Int, text: String)?,
        into result: inout NewsboatTranslation
    ) {
        guard let auto, auto.on else {
            if let auto {
                result.skipped.append(
                    .init(
                        line: auto.line, text: auto.text,
                        reason: "automatic reloads are off, as in Herald by default"))
            }
            if let time {
                result.skipped.append(
                    .init(
                        line: time.line, text: time.text,
                        reason: "newsboat does not reload on its own (auto-reload no)"))
            }
            return
        }
        let minutes = time?.minutes ?? "60"
        guard let value = Int(minutes), value > 0 else {
            if let time {
                result.skipped.append(
                    .init(line: time.line, text: time.text, reason: "not a number of minutes"))
            }
            return
        }
        result.directives.append(
            .init(
                directive: .set(setting: "reload-interval", value: "\(value)"),
                origin: time?.line ?? auto.line))
        result.sources[time?.line ?? auto.line] = time?.text ?? auto.text
        result.carried += time == nil ? 1 : 2
    }

    typealias Translated = Result<[ConfigDirective], NewsboatFilter.Untranslatable>

    private static func refuse(_ reason: String) -> Translated { .failure(.init(reason)) }

    /// newsboat's values of `ignore-mode`.
    static let ignoreModes = ["display", "download"]

    /// The Herald directives for one newsboat directive; `hiding`: `ignore-mode display`.
    static func directives(_ name: String, _ arguments: [String], hiding: Bool) -> Translated {
        let first = arguments.first ?? ""
        switch name {
        case "bind-key": return bind(arguments)
        case "unbind-key":
            if first == "-a" { return refuse("unbinding every key has no Herald equivalent") }
            guard let key = NewsboatNames.key(first) else { return refuse("no Herald key `\(first)`") }
            return screen(arguments.dropFirst().first).map { [.unbind(keys: [key], screens: $0)] }
        case "color": return color(arguments)
        case "browser": return setting("browser", first.replacingOccurrences(of: "%u", with: "%s"))
        case "player": return setting("player", first)
        case "notify-program":
            // newsboat passes the program its message; Herald runs a shell command with %n
            // (new articles) and %f (feeds) filled in.
            guard !first.isEmpty else { return refuse("no value") }
            return setting("notify-command", first + " \"herald: %n new articles from %f feeds\"")
        case "confirm-mark-all-feeds-read": return flag("confirm-mark-all", first)
        case "confirm-mark-feed-read":
            return refuse("Herald marks one feed read without asking (undo with u)")
        case "refresh-on-startup": return flag("reload-on-start", first)
        case "show-read-feeds", "show-read-articles": return flag(name, first)
        case "reload-threads": return number("reload-jobs", first)
        case "max-items": return number("keep-articles", first)
        case "keep-articles-days": return number("keep-days", first)
        case "text-width": return number("text-width", first)
        case "highlight": return highlight(arguments)
        // The same names and %-fields in Herald; a field Herald has no data for is refused
        // when the directive is applied, with why.
        case "articlelist-format", "feedlist-format", "datetime-format": return setting(name, first)
        case "save-path": return setting("save-path", first)
        // podboat's queue settings, the same in Herald (its %-fields too).
        case "download-path", "download-filename-format": return setting(name, first)
        case "max-downloads": return number(name, first)
        case "delete-played-files": return flag(name, first)
        case "bookmark-cmd": return setting("bookmark-cmd", first)
        case "macro": return macro(arguments)
        case "ignore-article":
            guard arguments.count == 2 else { return refuse("ignore-article takes a feed and an expression") }
            do {
                var query = try NewsboatFilter.translate(arguments[1])
                if arguments[0] != "*" { query = "feed:\(NewsboatFilter.quoted(arguments[0])) (\(query))" }
                // The expression as written: its quotes are its own.
                return .success([.filter(query: query, action: hiding ? .hide : .skip)])
            } catch {
                return .failure(error)
            }
        case "cache-file":
            return refuse(
                "where newsboat keeps its cache: the import reads it there; Herald keeps its own library")
        default:
            if let translated = NewsboatAccounts.directives(name, first) { return translated }
            return refuse("`\(name)` has no Herald equivalent")
        }
    }

    private static func bind(_ arguments: [String]) -> Translated {
        guard arguments.count >= 2 else { return refuse("bind-key needs a key and an operation") }
        guard let key = NewsboatNames.key(arguments[0]) else {
            return refuse("no Herald key `\(arguments[0])`")
        }
        guard let actions = NewsboatNames.operations[arguments[1]] else {
            return refuse("the operation `\(arguments[1])` has no Herald action")
        }
        let dialog = arguments.dropFirst(2).first
        // newsboat's quit quits from the feed list and goes back elsewhere.
        let chosen: [Action] =
            arguments[1] == "quit" && dialog != nil ? [dialog == "feedlist" ? .quit : .back] : actions
        return screen(dialog).map { screens in
            chosen.map { .bind(keys: [key], action: $0, screens: screens) }
        }
    }

    /// `macro KEY OP [ARGS] [; OP [ARGS]…] [-- "DESCRIPTION"]`: each operation becomes its
    /// Herald action, each `set NAME VALUE` the Herald setting it translates to.
    private static func macro(_ arguments: [String]) -> Translated {
        guard arguments.count >= 2, let key = NewsboatNames.key(arguments[0]) else {
            return refuse("macro needs a key Herald has and an operation")
        }
        var words = Array(arguments.dropFirst())
        var description: String?
        if let dashes = words.firstIndex(of: "--") {
            description = words.dropFirst(dashes + 1).joined(separator: " ")
            words.removeSubrange(dashes...)
        }
        var groups: [[String]] = [[]]
        for word in words {
            if word == ";" {
                groups.append([])
            } else if word.hasSuffix(";"), word.count > 1 {
                groups[groups.count - 1].append(String(word.dropLast()))
                groups.append([])
            } else {
                groups[groups.count - 1].append(word)
            }
        }
        var steps: [Macro.Step] = []
        for group in groups where !group.isEmpty {
            if group[0] == "set", group.count == 3 {
                switch directives(group[1], [group[2]], hiding: false) {
                case .success(let translated):
                    for case .set(let setting, let value) in translated { steps.append(.set(setting: setting, value: value)) }
                case .failure(let problem): return .failure(.init("set \(group[1]): \(problem.reason)"))
                }
            } else {
                guard group.count == 1, let action = NewsboatNames.operations[group[0]]?.first else {
                    return refuse("the operation `\(group.joined(separator: " "))` has no Herald action")
                }
                steps.append(.action(action))
            }
        }
        guard !steps.isEmpty else { return refuse("a macro with no operation") }
        return .success([.macro(Macro(key: key, steps: steps, description: description))])
    }

    /// The Herald screen of a newsboat dialog, as a bind names it; nil for none.
    private static func screen(_ dialog: String?) -> Result<[ScreenKind]?, NewsboatFilter.Untranslatable> {
        guard let dialog else { return .success(nil) }
        guard let screen = NewsboatNames.dialogs[dialog] else {
            return .failure(.init("the dialog `\(dialog)` has no Herald screen"))
        }
        return .success([screen])
    }

    private static func color(_ arguments: [String]) -> Translated {
        guard arguments.count >= 3 else { return refuse("color needs an element and two colours") }
        guard let elements = NewsboatNames.elements[arguments[0]] else {
            return refuse(
                NewsboatNames.elementReasons[arguments[0]] ?? "no Herald element for `\(arguments[0])`")
        }
        return style(Array(arguments.dropFirst())).map { style in
            elements.map { .color(element: $0, style: style) }
        }
    }

    /// newsboat's `FG [BG [ATTR…]]` as a Herald style (the background left out: the default).
    static func style(_ words: [String]) -> Result<Style, NewsboatFilter.Untranslatable> {
        var style = Style()
        for (index, word) in words.enumerated() {
            if index < 2 {
                guard let color = NewsboatNames.color(word) else {
                    return .failure(.init("no Herald colour `\(word)` (the eight named colours and default)"))
                }
                if index == 0 { style.foreground = color } else { style.background = color }
            } else if !NewsboatNames.add(attribute: word, to: &style) {
                return .failure(.init("no Herald attribute `\(word)`"))
            }
        }
        return .success(style)
    }

    /// `highlight articlelist REGEX FG [BG [ATTR…]]` → `highlight REGEX FG [BG] [ATTR…]`
    /// (titles); `highlight article …` and `highlight all …` keep their target (the
    /// article's text; both).
    private static func highlight(_ arguments: [String]) -> Translated {
        guard arguments.count >= 3 else { return refuse("highlight needs a target, a pattern and a colour") }
        guard let target = HighlightTarget(rawValue: arguments[0]) else {
            return refuse("Herald highlights articles and their list, not `\(arguments[0])`")
        }
        switch style(Array(arguments.dropFirst(2))) {
        case .success(let style):
            return .success([.highlight(pattern: arguments[1], style: style, target: target)])
        case .failure(let problem): return .failure(problem)
        }
    }

    private static func setting(_ name: String, _ value: String) -> Translated {
        guard !value.isEmpty else { return refuse("no value") }
        guard !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return refuse("a command with control characters")
        }
        return .success([.set(setting: name, value: value)])
    }

    private static func flag(_ name: String, _ value: String) -> Translated {
        guard let on = bool(value) else { return refuse("`\(value)` is not yes or no") }
        return .success([.set(setting: name, value: on ? "yes" : "no")])
    }

    private static func number(_ name: String, _ value: String) -> Translated {
        guard let number = Int(value), number >= 0 else { return refuse("`\(value)` is not a number") }
        return .success([.set(setting: name, value: String(number))])
    }

    static func bool(_ text: String?) -> Bool? {
        switch text?.lowercased() {
        case "yes", "true", "1": true
        case "no", "false", "0": false
        default: nil
        }
    }

    /// The words of a newsboat line (`"quoted"` with `\"` inside, `#` a comment), nil when
    /// a quote is left open.
    static func words(_ line: String) -> [String]? {
        var words: [String] = []
        var current: String?
        var quoted = false
        var escaped = false
        for character in line {
            if escaped {
                current?.append(character)
                escaped = false
            } else if quoted {
                if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    quoted = false
                } else {
                    current?.append(character)
                }
            } else if character == "#" && current == nil {
                break
            } else if character.isWhitespace {
                if let word = current { words.append(word) }
                current = nil
            } else if character == "\"" {
                quoted = true
                current = current ?? ""
            } else {
                current = (current ?? "") + String(character)
            }
        }
        if quoted { return nil }
        if let word = current { words.append(word) }
        return words
    }
}
