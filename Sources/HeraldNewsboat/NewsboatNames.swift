import HeraldCore
/// newsboat's names for keys, operations, dialogs, colours and screen elements, with the
/// Herald names they become in the config file (see `NewsboatConfig`). Names with no
/// Herald counterpart are absent: the translator reports those lines.
///
/// The Herald names are checked against Herald's own tables (actions, screens, theme
/// elements, key names) by `NewsboatConfigTests`, so a renamed action cannot slip by.
enum NewsboatNames {
    /// newsboat operation → Herald actions (newsboat's `quit` goes back, and quits from
    /// the feed list: two Herald actions).
    static let operations: [String: [String]] = [
        "open": ["open"], "quit": ["back", "quit"], "hard-quit": ["hard-quit"], "reload": ["reload"],
        "reload-all": ["reload-all"], "mark-feed-read": ["mark-feed-read"],
        "mark-all-feeds-read": ["mark-all-read"], "next-unread": ["next-unread"],
        "prev-unread": ["prev-unread"], "next": ["next-article"], "prev": ["prev-article"],
        "next-feed": ["next-feed"], "prev-feed": ["prev-feed"], "open-in-browser": ["open-in-browser"],
        "help": ["help"], "toggle-article-read": ["toggle-read"], "show-urls": ["show-links"],
        "open-search": ["search"], "up": ["up"], "down": ["down"], "pageup": ["page-up"],
        "pagedown": ["page-down"], "home": ["top"], "end": ["bottom"],
    ]

    /// newsboat dialog (the optional last word of bind-key) → Herald screen.
    static let dialogs: [String: String] = [
        "feedlist": "feeds", "articlelist": "articles", "article": "article", "tagselection": "tags",
        "urlview": "links", "help": "page",
    ]

    /// newsboat key names (besides single characters and `^X`) → Herald key names.
    static let keys: [String: String] = [
        "ENTER": "Enter", "ESC": "Esc", "BACKSPACE": "Backspace", "LEFT": "Left", "RIGHT": "Right",
        "UP": "Up", "DOWN": "Down", "PPAGE": "PgUp", "NPAGE": "PgDn", "HOME": "Home", "END": "End",
        "TAB": "Tab", "SPACE": "Space", "DEL": "Delete", "BACKTAB": "S-Tab",
    ]

    /// The Herald name of a newsboat key, nil when Herald has no such key.
    static func key(_ name: String) -> String? {
        if name.count == 1, let character = name.first, !character.isWhitespace {
            return name
        }
        if let named = keys[name.uppercased()] { return named }
        if name.hasPrefix("^"), name.count == 2, let letter = name.last, letter.isASCII, letter.isLetter {
            return "C-\(letter.lowercased())"
        }
        if name.uppercased().hasPrefix("F"), let number = Int(name.dropFirst()), (1...12).contains(number) {
            return "F\(number)"
        }
        return nil
    }

    /// newsboat colour element → Herald theme elements.
    static let elements: [String: [String]] = [
        "listnormal": ["read"], "listnormal_unread": ["unread"], "listfocus": ["selection"],
        "listfocus_unread": ["selection"], "info": ["header", "status"], "title": ["header"],
        "hint-key": ["hint"], "hint-description": ["hint"],
    ]

    /// Why a newsboat colour element has no Herald counterpart, when there is more to say.
    static let elementReasons: [String: String] = [
        "article": "Herald draws article text in the `read` element's style, shared with read rows",
        "background": "Herald draws on the terminal's own background",
    ]

    /// A newsboat colour (`default`, a name, or `colorN` for N < 8) as Herald names it.
    static func color(_ name: String) -> String? {
        let names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
        let lower = name.lowercased()
        if lower == "default" || names.contains(lower) { return lower }
        if lower.hasPrefix("color"), let number = Int(lower.dropFirst(5)), names.indices.contains(number) {
            return names[number]
        }
        return nil
    }

    /// A newsboat attribute as Herald names it (`standout` is reverse video in curses).
    static func attribute(_ name: String) -> String? {
        switch name.lowercased() {
        case "bold", "dim", "underline", "reverse": name.lowercased()
        case "standout": "reverse"
        default: nil
        }
    }
}
