import HeraldCore
import HeraldConfig

/// newsboat's names for keys, operations, dialogs, colours and screen elements, with the
/// Herald values they become (see `NewsboatConfig`). Names with no Herald counterpart are
/// absent: the translator reports those lines.
///
/// Actions, screens, keys and colours are Herald's own types, so a renamed action does not
/// compile; theme elements are names, checked against `Theme.elements` by
/// `NewsboatConfigTests` (and by `ReaderConfig.apply` on every import).
enum NewsboatNames {
    /// newsboat operation → Herald actions (newsboat's `quit` goes back, and quits from
    /// the feed list: two Herald actions).
    static let operations: [String: [Action]] = [
        "open": [.open], "quit": [.back, .quit], "hard-quit": [.quitNow], "reload": [.reload],
        "reload-all": [.reloadAll], "mark-feed-read": [.markListRead],
        "mark-all-feeds-read": [.markAllRead], "next-unread": [.nextUnread],
        "prev-unread": [.previousUnread], "next": [.nextArticle], "prev": [.previousArticle],
        "next-feed": [.nextFeed], "prev-feed": [.previousFeed], "open-in-browser": [.openInBrowser],
        "help": [.help], "toggle-article-read": [.toggleRead], "show-urls": [.showLinks],
        "open-search": [.search], "up": [.up], "down": [.down], "pageup": [.pageUp],
        "pagedown": [.pageDown], "home": [.top], "end": [.bottom], "redraw": [.redraw],
        "toggle-show-read-feeds": [.toggleShowRead], "open-in-browser-and-mark-read": [.openInBrowserAndMarkRead],
        "save": [.save], "pipe-to": [.pipeTo], "goto-url": [.gotoURL], "bookmark": [.bookmark],
        "toggle-source-view": [.toggleSource], "random-unread": [.randomUnread], "macro-prefix": [.macroPrefix],
        "enqueue": [.enqueue], "edit-flags": [.toggleStar], "cmdline": [.commandLine],
        "set-tag": [.showTags], "select-tag": [.showTags], "sort": [.sort], "rev-sort": [.reverseSort], "edit-urls": [.editURLs],
        // podboat's, from the same config.
        "pb-download": [.downloadNow], "pb-cancel": [.cancelDownload], "pb-delete": [.deleteDownload],
        "pb-purge": [.purgeDownloads], "pb-play": [.play], "pb-mark-as-finished": [.markPlayed],
        "pb-increase-max-dls": [.moreDownloads], "pb-decrease-max-dls": [.fewerDownloads],
    ]

    /// newsboat dialog (the optional last word of bind-key) → Herald screen.
    static let dialogs: [String: ScreenKind] = [
        "feedlist": .feeds, "articlelist": .articles, "article": .article, "tagselection": .tags,
        "urlview": .links, "help": .page, "podboat": .downloads,
    ]

    /// newsboat key names (besides single characters and `^X`) → Herald keys.
    static let keys: [String: Key] = [
        "ENTER": .enter, "ESC": .escape, "BACKSPACE": .backspace, "LEFT": .left, "RIGHT": .right,
        "UP": .up, "DOWN": .down, "PPAGE": .pageUp, "NPAGE": .pageDown, "HOME": .home, "END": .end,
        "TAB": .tab, "SPACE": .character(" "), "DEL": .delete, "BACKTAB": .backTab,
    ]

    /// The Herald key of a newsboat key name, nil when Herald has no such key. A single
    /// character is taken as it is: one the config file cannot name is refused when the
    /// import applies the binding (`ReaderConfig.apply`), in the reader's words.
    static func key(_ name: String) -> Key? {
        if name.count == 1, let character = name.first, !character.isWhitespace {
            return .character(character)
        }
        if let named = keys[name.uppercased()] { return named }
        if name.hasPrefix("^"), name.count == 2, let letter = name.last, letter.isASCII, letter.isLetter {
            return .control(Character(letter.lowercased()))
        }
        if name.uppercased().hasPrefix("F"), let number = Int(name.dropFirst()), (1...12).contains(number) {
            return .function(number)
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

    /// A newsboat colour (`default`, a name, or `colorN` for N < 8) as a Herald colour.
    static func color(_ name: String) -> TerminalColor? {
        let lower = name.lowercased()
        if lower == "default" { return .default }
        if let basic = TerminalColor.basicNames.firstIndex(of: lower) { return TerminalColor(UInt8(basic)) }
        if lower.hasPrefix("color"), let number = Int(lower.dropFirst(5)),
            TerminalColor.basicNames.indices.contains(number)
        {
            return TerminalColor(UInt8(number))
        }
        return nil
    }

    /// Sets a newsboat attribute on `style` (`standout` is reverse video in curses); false
    /// for one Herald does not draw.
    static func add(attribute name: String, to style: inout Style) -> Bool {
        switch name.lowercased() {
        case "bold": style.bold = true
        case "dim": style.dim = true
        case "underline": style.underline = true
        case "reverse", "standout": style.reverse = true
        default: return false
        }
        return true
    }
}
