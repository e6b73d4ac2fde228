/// The commands and options of `herald`, once: `--help`, the man page and the shell
/// completions are all printed from here.
enum CommandTable {
    struct Command {
        var name: String
        /// What follows `herald NAME`.
        var arguments: String
        var summary: String
        /// Its own options (completed after the command).
        var options: [String] = []
        /// Its words (`check`, `default`) completed after it.
        var words: [String] = []
    }

    static let commands: [Command] = [
        Command(
            name: "list",
            arguments: "[--feed URL] [--tag T] [--starred] [--unread] [--query EXPR] [--limit N] [--json]",
            summary: "print articles, newest first",
            options: ["--feed", "--tag", "--starred", "--unread", "--query", "--limit", "--json"]),
        Command(
            name: "tags", arguments: "[--json]", summary: "print the tags with their counts",
            options: ["--json"]),
        Command(
            name: "podcasts", arguments: "[list | add ID… | download] [--json] [--quiet]",
            summary: "the podcast queue: list it, add an article's episode, download it now",
            options: ["--json", "--quiet"], words: ["list", "add", "download"]),
        Command(
            name: "search", arguments: "QUERY… [--limit N] [--json]",
            summary: "print search results, best first",
            options: ["--limit", "--json"]),
        Command(
            name: "add", arguments: "URL [--title T] [--tag T]… [--account]",
            summary: "subscribe to a feed, or tag a known one",
            options: ["--title", "--tag", "--account"]),
        Command(
            name: "remove", arguments: "URL | --demo", summary: "unsubscribe (drops its articles)",
            options: ["--demo"]),
        Command(
            name: "reload", arguments: "[--jobs N] [--quiet] [--due] [--index-now]",
            summary: "fetch every feed (--due: the due ones)",
            options: ["--jobs", "--quiet", "--due", "--index-now"]),
        Command(
            name: "feed", arguments: "set URL KEY VALUE | unset URL KEY | show [URL] [--json]",
            summary: "a feed's own settings (keys: herald config default)",
            options: ["--json"], words: ["set", "unset", "show"]),
        Command(
            name: "parse", arguments: "FILE_OR_URL|- [--json]", summary: "print a feed as Herald reads it",
            options: ["--json"]),
        Command(
            name: "extract", arguments: "FILE_OR_URL|- [--json]",
            summary: "print the article Herald reads in a web page", options: ["--json"]),
        Command(
            name: "show", arguments: "ID [--json]",
            summary: "print one article as the reader shows it (its whole text once fetched)", options: ["--json"]),
        Command(
            name: "config", arguments: "check | default",
            summary: "check the config file; print the defaults",
            words: ["check", "default"]),
        Command(
            name: "import", arguments: "FILE",
            summary: "add the feeds of an OPML or newsboat urls file"),
        Command(
            name: "import-newsboat", arguments: "[DIR] [-u URLS] [-c CACHE] [-C CONFIG] [--dry-run] [--json]",
            summary: "move over from newsboat: feeds, articles, config",
            options: [
                "--dry-run", "--json", "-u", "--url-file", "-c", "--cache-file", "-C", "--config-file",
            ]),
        Command(name: "export", arguments: "", summary: "write the subscriptions as OPML 2.0"),
        Command(
            name: "mark", arguments: "read|unread|star|unstar ID… | --query EXPR",
            summary: "set a flag, as the reader does (queued for the account)",
            options: ["--query"], words: ["read", "unread", "star", "unstar"]),
        Command(
            name: "account", arguments: "[status | sync]",
            summary: "the server account (urls-source): its state; a sync now",
            words: ["status", "sync"]),
        Command(
            name: "sync", arguments: "[status] [--dir PATH] [--quiet]",
            summary: "sync subscriptions and flags through a shared folder",
            options: ["--dir", "--quiet"], words: ["status"]),
        Command(
            name: "snapshot", arguments: "[--size WxH] [--keys K]",
            summary: "print the screen after keys, headless",
            options: ["--size", "--keys"]),
        Command(
            name: "completions", arguments: "bash | zsh | fish", summary: "print a shell's completion script",
            words: ["bash", "zsh", "fish"]),
        Command(name: "manual", arguments: "", summary: "print the man page (roff)"),
    ]

    static let globalOptions = ["--db", "--feeds", "--config", "--help", "--version"]

    /// `--help`'s usage lines.
    static func usageLines() -> [String] {
        var lines = ["  herald [--db PATH] [--feeds DIR] [--config PATH]", pad("") + "open the reader"]
        for command in commands {
            let synopsis =
                "  herald \(command.name)" + (command.arguments.isEmpty ? "" : " \(command.arguments)")
            if synopsis.count + 2 <= column {
                lines.append(pad(synopsis) + command.summary)
            } else {
                lines.append(synopsis)
                lines.append(pad("") + command.summary)
            }
        }
        lines.append("  herald --help | --version")
        return lines
    }

    private static let column = 50
    private static func pad(_ text: String) -> String {
        text + String(repeating: " ", count: max(column - text.count, 1))
    }
}
