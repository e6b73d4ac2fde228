import Foundation

extension ConfigFile {
    /// `herald config default`: every setting and binding as it ships, commented out, with
    /// what it does; printed from the same tables the reader uses.
    public static func defaultText() -> String {
        var lines = [
            "# Herald's config file: $XDG_CONFIG_HOME/herald/config (~/.config/herald/config),",
            "# or --config PATH. One directive per line; # starts a comment; \"quote\" words with spaces.",
            "# Below is every default, commented out: uncomment a line and change it.",
            "#",
            "# Settings (set NAME VALUE):",
        ]
        for spec in Settings.specs {
            lines.append("#   \(spec.summary) (\(spec.kind.expected))")
            lines.append("# set \(spec.name) \(spec.defaultValue.isEmpty ? "\"\"" : spec.defaultValue)")
        }
        lines += feedSettingLines()
        lines += [
            "#",
            "# Keys (bind KEY ACTION [SCREEN…]: the key does the action on those screens, else wherever",
            "# the action works; unbind KEY [SCREEN…]: the key does nothing there, else anywhere):",
            "# Keys: a character, Enter, Esc, Space, Tab, S-Tab, Backspace, Delete, Up, Down, Left, Right,",
            "#   PgUp, PgDn, Home, End, C-x, F1…F12; a sequence spaced in quotes (bind \"g r\" reload-all): its",
            "#   first key waits for the next; a key cannot both act and begin a sequence on one screen.",
            "# Screens: " + ScreenKind.allCases.map(\.rawValue).joined(separator: " "),
            "# Actions: " + Action.allCases.map(\.rawValue).joined(separator: " "),
        ]
        lines += [
            "#",
            "# Colours (color ELEMENT FOREGROUND BACKGROUND [ATTRIBUTE…]): "
                + colorNames.joined(separator: " ") + ",",
            "#   bright-NAME (8–15), color0…color255 (a terminal with fewer colours draws the nearest basic one);",
            "#   attributes: bold dim underline reverse italic. set colors no, NO_COLOR in the environment, or",
            "#   a terminal without colours: attributes only (the selection and the header in reverse video).",
            "# Highlights (highlight REGEX FG [BG] [ATTRIBUTE…]): article titles the regex matches",
            "#   (case-insensitive) in that style, e.g.  highlight \"rust|swift\" bright-green default bold;",
            "#   highlight article REGEX …: the words it matches in an article's text; highlight all REGEX …: both.",
            "# Other files (include FILE): read in place of the line; a relative path is from this file's folder.",
        ]
        let theme = Theme()
        for element in Theme.elements {
            guard let style = theme.style(of: element) else { continue }
            lines.append("# " + ConfigDirective.color(element: element, style: style).line)
        }
        lines += queriesDefaultText
        lines += macrosDefaultText
        lines.append("#")
        for binding in Keymap.standard.bindings {
            lines.append("#   \(binding.summary)")
            for key in binding.keys {
                let screens = binding.screens.isEmpty ? nil : binding.screens
                lines.append(
                    "# " + ConfigDirective.bind(keys: [key], action: binding.action, screens: screens).line)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
