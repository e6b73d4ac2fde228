
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
