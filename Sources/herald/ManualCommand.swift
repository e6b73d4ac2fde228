import HeraldCore
import HeraldConfig

/// `herald manual` (the man page, roff) and `herald completions SHELL`, printed from the
/// command table, the action table and the settings table, as `--help` is.
enum ManualCommand {
    static func manual() -> String {
        var out: [String] = [
            ".TH HERALD 1 \"\" \"herald \(Usage.version)\" \"User Commands\"",
            ".SH NAME",
            "herald \\- a keyboard-driven terminal reader for feeds (RSS, Atom, JSON Feed)",
            ".SH SYNOPSIS",
            ".B herald",
            "[\\fB\\-\\-db\\fR \\fIPATH\\fR] [\\fB\\-\\-feeds\\fR \\fIDIR\\fR] [\\fB\\-\\-config\\fR \\fIPATH\\fR] [\\fICOMMAND\\fR]",
            ".SH DESCRIPTION",
            roff(
                "Without a command, herald opens the reader on the library (the bundled demo feeds until you add your own). "
                    + "The commands below work without opening it."),
            ".SH COMMANDS",
        ]
        for command in CommandTable.commands {
            out += [
                ".TP",
                ".B " + roff("herald \(command.name)")
                    + (command.arguments.isEmpty ? "" : " " + roff(command.arguments)), roff(command.summary),
            ]
        }
        out += [
            ".SH KEYS",
            roff(
                "In the reader, ? shows the keys of the screen you are on. The config file can change every one."
            ),
        ]
        for binding in Keymap.standard.bindings {
            out += [
                ".TP", ".B " + roff(binding.labels.joined(separator: ", ")),
                roff(binding.summary + (binding.isGlobal ? "" : " [\(KeyTable.places(binding))]")),
            ]
        }
        out += [
            ".SH COMMAND LINE",
            roff("In the reader, : opens a command line (Tab completes, Up and Down recall, Esc cancels):"),
        ]
        for entry in CommandLineReference.entries {
            out += [".TP", ".B " + roff(":" + entry.usage), roff(entry.summary)]
        }
        out += [
            ".SH CONFIGURATION",
            roff(
                "$XDG_CONFIG_HOME/herald/config (~/.config/herald/config), or --config PATH: one directive a line, "
                    + "# to the end of a line a comment, \"quoted words\" with spaces. "
                    + "herald config default prints every default; herald config check names every mistake."),
        ]
        for directive in ConfigFile.reference {
            out += [".TP", ".B " + roff(directive.usage), roff(directive.summary)]
        }
        out += [
            ".PP",
            roff("EXPR, the query language of query and filter lines, of / and of herald list --query: " + ConfigFile.queryLanguage),
        ]
        for spec in Settings.specs {
            out += [
                ".TP", ".B " + roff("set \(spec.name)") + " " + roff(spec.kind.expected), roff(spec.summary),
            ]
        }
        out += [
            ".SH ENVIRONMENT",
            ".TP", ".B HERALD_DB", roff("the library file (default $XDG_DATA_HOME/herald/herald.db)"),
            ".TP", ".B BROWSER", roff("the program that opens links, unless the config sets browser"),
            ".TP", ".B HERALD_PLAYER",
            roff("the program that plays podcasts and videos, unless the config sets player"),
            ".TP", ".B NO_COLOR",
            roff("set: no colours, attributes only (as set colors no, or a terminal without colours)"),
            ".SH FILES",
            ".TP", ".I ~/.local/share/herald/herald.db", roff("the library"),
            ".TP", ".I ~/.config/herald/config", roff("the config file"),
            ".SH SEE ALSO",
            ".BR newsboat (1)",
        ]
        return out.joined(separator: "\n") + "\n"
    }

    /// Text for roff: backslashes and a leading dot or quote escaped, hyphens as \-, and
    /// anything outside ASCII as groff's \[uXXXX] (so it needs no preprocessor).
    static func roff(_ text: String) -> String {
        var escaped = ""
        for scalar in TextSanitizer.singleLine(text).unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case _ where !scalar.isASCII:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }

    static func completions(_ shell: String?) throws -> String {
        let commands = CommandTable.commands
        switch shell {
        case "bash":
            var cases = ""
            for command in commands where !(command.options + command.words).isEmpty {
                cases +=
                    "        \(command.name)) words=\"\((command.options + command.words).joined(separator: " "))\" ;;\n"
            }
            return """
                # herald completions for bash (herald completions bash)
                _herald() {
                    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" command="" words="" i
                    case "$prev" in
                        --db|--config|--feeds) COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
                    esac
                    for (( i = 1; i < COMP_CWORD; i++ )); do
                        case "${COMP_WORDS[i]}" in
                            --db|--config|--feeds) (( i++ )) ;;
                            -*) ;;
                            *) command="${COMP_WORDS[i]}"; break ;;
                        esac
                    done
                    case "$command" in
                        "") words="\((commands.map(\.name) + CommandTable.globalOptions).joined(separator: " "))" ;;
                \(cases)    esac
                    COMPREPLY=( $(compgen -W "$words" -- "$cur") )
                    if [ -z "$words" ] || [ "$command" = parse ] || [ "$command" = import ]; then
                        COMPREPLY+=( $(compgen -f -- "$cur") )
                    fi
                }
                complete -F _herald herald

                """
        case "zsh":
            let described = commands.map {
                "'\($0.name):\($0.summary.replacingOccurrences(of: "'", with: ""))'"
            }
            .joined(separator: " ")
            var cases = ""
            for command in commands where !(command.options + command.words).isEmpty {
                cases +=
                    "        \(command.name)) compadd -- \((command.options + command.words).joined(separator: " ")) ;;\n"
            }
            return """
                #compdef herald
                # herald completions for zsh (herald completions zsh)
                _herald() {
                    local -a commands
                    commands=(\(described))
                    if (( CURRENT == 2 )); then
                        _describe 'command' commands
                        compadd -- \(CommandTable.globalOptions.joined(separator: " "))
                        return
                    fi
                    case $words[2] in
                \(cases)        parse|import) _files ;;
                    esac
                }
                _herald "$@"

                """
        case "fish":
            var lines = ["# herald completions for fish (herald completions fish)"]
            let names = commands.map(\.name).joined(separator: " ")
            for command in commands {
                lines.append(
                    "complete -c herald -f -n 'not __fish_seen_subcommand_from \(names)' -a \(command.name) -d '\(command.summary.replacingOccurrences(of: "'", with: ""))'"
                )
                for option in command.options {
                    // A long option by -l, newsboat's one-letter ones (import-newsboat's -u) by -s.
                    let flag =
                        option.hasPrefix("--") ? "-l \(option.dropFirst(2))" : "-s \(option.dropFirst())"
                    lines.append(
                        "complete -c herald -f -n '__fish_seen_subcommand_from \(command.name)' \(flag)")
                }
                for word in command.words {
                    lines.append(
                        "complete -c herald -f -n '__fish_seen_subcommand_from \(command.name)' -a \(word)")
                }
            }
            for option in CommandTable.globalOptions {
                lines.append("complete -c herald -l \(option.dropFirst(2))")
            }
            return lines.joined(separator: "\n") + "\n"
        default:
            throw UsageError("completions takes bash, zsh or fish")
        }
    }
}
