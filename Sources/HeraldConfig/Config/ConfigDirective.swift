public import HeraldCore

/// A line of the config file as typed values: what `ConfigFile.parse` makes of a `bind`,
/// `unbind`, `set`, `color`, `highlight` or `filter` line before it applies it, and what a
/// translator (newsboat's config, `NewsboatConfig`) builds instead of writing text.
///
/// Whether a directive is right is decided in one place, `ReaderConfig.apply(_:)`, for the
/// lines the reader reads and the directives a translator builds alike; `line` prints a
/// directive as the config line that reads back to it.
public enum ConfigDirective: Sendable, Equatable {
    /// `bind KEY ACTION [SCREEN…]`: the key (or sequence) does the action on those screens,
    /// or wherever the action works when nil.
    case bind(keys: [Key], action: Action, screens: [ScreenKind]?)
    /// `unbind KEY [SCREEN…]`: the key does nothing on those screens (anywhere when nil).
    case unbind(keys: [Key], screens: [ScreenKind]?)
    /// `set NAME VALUE`: a setting of `Settings.specs` by name, its value as the config writes it.
    case set(setting: String, value: String)
    /// `color ELEMENT FG BG [ATTR…]`: an element of `Theme.elements` in a style.
    case color(element: String, style: Style)
    /// `highlight [article|all] REGEX FG [BG] [ATTR…]`: titles the pattern matches, or the
    /// words it matches in an article's text, or both, in a style.
    case highlight(pattern: String, style: Style, target: HighlightTarget = .titles)
    /// `filter EXPR… ACTION`: the expression is query text as written in the line (its
    /// quotes are the query's own, so it is printed as it stands, not quoted as one word).
    case filter(query: String, action: FilterAction)
    /// `macro KEY STEP [; STEP…] [-- "DESCRIPTION"]`: `,` then the key runs the steps.
    case macro(Macro)

    /// The directive as a line of the config file, which `ConfigFile.parse` reads back to
    /// the same directive (a filter's expression only when it can stand in a line, which
    /// `ReaderConfig.apply(_:)` checks).
    public var line: String {
        switch self {
        case .bind(let keys, let action, let screens):
            "bind \(Self.keyWord(keys)) \(action.rawValue)" + Self.screenWords(screens)
        case .unbind(let keys, let screens):
            "unbind \(Self.keyWord(keys))" + Self.screenWords(screens)
        case .set(let setting, let value):
            "set \(ConfigFile.word(setting)) \(ConfigFile.word(value))"
        case .color(let element, let style):
            "color \(ConfigFile.word(element)) \(Self.styleWords(style, backgroundOptional: false))"
        case .highlight(let pattern, let style, let target):
            "highlight " + (target == .titles ? "" : target.rawValue + " ")
                + "\(ConfigFile.word(pattern)) \(Self.styleWords(style, backgroundOptional: true))"
        case .filter(let query, let action):
            "filter \(query) \(action.rawValue)"
        case .macro(let macro): macro.line
        }
    }

    /// A key or a sequence as one word: `j`, `C-d`, `"g g"`, `"#"`.
    private static func keyWord(_ keys: [Key]) -> String {
        ConfigFile.word(keys.map(KeyName.name(of:)).joined(separator: " "))
    }

    private static func screenWords(_ screens: [ScreenKind]?) -> String {
        (screens ?? []).map { " " + $0.rawValue }.joined()
    }

    /// `FG BG [ATTR…]`, attributes in the order `herald config default` writes them. Where
    /// the background may be left out (`highlight`), a default one is, when no attribute
    /// follows it (newsboat's `highlight all "x" red` stays as short).
    static func styleWords(_ style: Style, backgroundOptional: Bool) -> String {
        let attributes = [
            style.bold ? "bold" : nil, style.dim ? "dim" : nil, style.underline ? "underline" : nil,
            style.reverse ? "reverse" : nil, style.italic ? "italic" : nil,
        ].compactMap { $0 }
        let background =
            backgroundOptional && style.background == .default && attributes.isEmpty
            ? [] : [style.background.description]
        return ([style.foreground.description] + background + attributes).joined(separator: " ")
    }
}

/// What a `highlight` line colours.
public enum HighlightTarget: String, Sendable, Equatable, CaseIterable {
    /// Whole titles in article lists and search results (`highlight REGEX …`, and newsboat's
    /// `highlight articlelist`).
    case titles = "articlelist"
    /// Each stretch of an article's text the pattern matches (`highlight article REGEX …`).
    case article
    /// Both (`highlight all REGEX …`).
    case all
}

extension ConfigFile {
    /// A word of the config file: bare, or `"quoted"` with `\"` and `\\` when it holds
    /// spaces, quotes, backslashes or `#` (or is empty), as `Word.split` reads it back.
    public static func word(_ text: String) -> String {
        let bare = !text.isEmpty && !text.contains(where: { $0.isWhitespace || "\"\\#".contains($0) })
        if bare { return text }
        return "\""
            + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            + "\""
    }
}
