import HeraldCore

/// A macro of the config: `,` then its key runs its steps in order (newsboat's `macro`).
public struct Macro: Sendable, Equatable {
    /// One step: an action as a key would do it, or a setting changed for the session.
    public enum Step: Sendable, Equatable {
        case action(Action)
        case set(setting: String, value: String)

        /// The step as the config line writes it.
        var words: String {
            switch self {
            case .action(let action): action.rawValue
            case .set(let setting, let value): "set \(ConfigFile.word(setting)) \(ConfigFile.word(value))"
            }
        }
    }

    public var key: Key
    public var steps: [Step]
    /// What the macro is for (`-- "description"`), shown while `,` waits for a key.
    public var description: String?

    public init(key: Key, steps: [Step], description: String? = nil) {
        (self.key, self.steps, self.description) = (key, steps, description)
    }

    /// `macro KEY STEP [; STEP…] [-- "DESCRIPTION"]`.
    var line: String {
        "macro \(KeyName.name(of: key)) " + steps.map(\.words).joined(separator: " ; ")
            + (description.map { " -- \(ConfigFile.word($0))" } ?? "")
    }
}

extension ConfigFile {
    /// `herald config default`'s part on macros.
    static let macrosDefaultText = [
        "#",
        "# Macros (macro KEY STEP [; STEP…] [-- \"DESCRIPTION\"]): , then KEY runs the steps in order, each",
        "#   once the one before has done its work; a step is an action or set NAME VALUE (for the session):",
        "# macro v set browser mpv ; open-in-browser ; set browser w3m -- \"watch it\"",
    ]

    /// Every directive of the config file with what it does, for the man page (in the words
    /// of `herald config default`).
    public static var reference: [(usage: String, summary: String)] {
        [
            (
                "bind KEY ACTION [SCREEN…]",
                "the key (or a sequence in quotes, \"g r\") does the action on those screens, else wherever the action works"
            ),
            ("unbind KEY [SCREEN…]", "the key does nothing there, else anywhere"),
            ("set NAME VALUE", "a setting (below)"),
            (
                "color ELEMENT FG BG [ATTR…]",
                "an element's colours: " + colorNames.joined(separator: " ")
                    + ", bright-NAME, color0…color255; attributes bold dim underline reverse italic"
            ),
            (
                "highlight [article|all] REGEX FG [BG] [ATTR…]",
                "titles the regex matches (case-insensitive) in that style; article: the words it matches in an article's text; all: both"
            ),
            (
                "feed URL KEY VALUE",
                "a feed's own setting: "
                    + FeedSettingKey.allCases.map { "\($0.rawValue) (\($0.summary))" }.joined(separator: "; ")
            ),
            ("query \"NAME\" EXPR…", "a named list of the articles matching EXPR, shown after Starred on the feed list"),
            (
                "filter EXPR… ACTION",
                "new articles matching EXPR are stored read (mark-read), kept out of sight (hide), not stored (skip), or removed for good with the stored ones (delete); starred articles are never hidden or removed"
            ),
            ("macro KEY STEP [; STEP…] [-- \"DESCRIPTION\"]", ", then KEY runs the steps: actions and set NAME VALUE"),
            ("include FILE", "the file's lines, read in place of the line (relative to this file's folder; a cycle is refused)"),
        ]
    }

    /// The query language in a few lines (EXPR above), for the man page.
    public static var queryLanguage: String {
        queriesDefaultText.drop { !$0.hasPrefix("# EXPR") }.prefix(3)
            .map { String($0.drop { $0 == "#" || $0 == " " }) }.joined(separator: " ")
    }

    /// `macro KEY STEP [; STEP…] [-- "DESCRIPTION"]`: a step is an action's name or
    /// `set NAME VALUE`; the steps are separated by `;` (a word of its own, or at a word's
    /// end), as newsboat writes them.
    static func macro(
        _ words: [Word], after directive: Word, into config: inout ReaderConfig,
        diagnose: (Int, String) -> Void
    ) {
        guard words.count >= 2 else {
            return diagnose(
                (words.last ?? directive).end,
                "macro needs a key and a step: macro KEY ACTION [; ACTION…] [-- \"DESCRIPTION\"]")
        }
        guard let key = KeyName.parse(words[0].text) else {
            return diagnose(words[0].column, "unknown key `\(words[0].text)`" + KeyName.help)
        }
        var rest = Array(words.dropFirst())
        var description: String?
        if let dashes = rest.firstIndex(where: { $0.text == "--" }) {
            guard dashes == rest.count - 2 else {
                return diagnose(rest[dashes].column, "-- is followed by one quoted description, last on the line")
            }
            description = rest[dashes + 1].text
            rest.removeLast(2)
        }
        // Steps: the words between `;`s.
        var groups: [[Word]] = [[]]
        for word in rest {
            if word.text == ";" {
                groups.append([])
            } else if word.text.hasSuffix(";"), word.text.count > 1 {
                var bare = word
                bare.text.removeLast()
                groups[groups.count - 1].append(bare)
                groups.append([])
            } else {
                groups[groups.count - 1].append(word)
            }
        }
        var steps: [Macro.Step] = []
        for group in groups {
            guard let first = group.first else {
                return diagnose(directive.column, "a macro step is empty (two `;` in a row, or one at the end)")
            }
            if first.text == "set" {
                guard group.count == 3 else {
                    return diagnose(first.column, "a set step takes a name and one value: set NAME VALUE")
                }
                steps.append(.set(setting: group[1].text, value: group[2].text))
            } else {
                guard let action = Action(rawValue: first.text) else {
                    return diagnose(
                        first.column,
                        "unknown action `\(first.text)`"
                            + suggestion(for: first.text, among: Action.allCases.map(\.rawValue)))
                }
                guard group.count == 1 else {
                    return diagnose(group[1].column, "an action takes no arguments in a macro (`;` between steps)")
                }
                steps.append(.action(action))
            }
        }
        for problem in config.apply(.macro(Macro(key: key, steps: steps, description: description))) {
            diagnose(words[1].column, problem.message)
        }
    }
}
