/// Key names in the config file: a character (`j`, `?`, `J`), a named key (`Enter`, `Esc`,
/// `Space`, `Tab`, `S-Tab`, `Backspace`, `Delete`, `Up`, `Down`, `Left`, `Right`, `PgUp`,
/// `PgDn`, `Home`, `End`), a control key (`C-x`, `Ctrl-x` or `^X`), or `F1`…`F12`. Case
/// matters for characters only. A sequence is key names spaced in one quoted word (`"g g"`).
enum KeyName {
    static let help =
        " (a character, Enter, Esc, Space, Tab, S-Tab, Backspace, Delete, Up, Down, Left, Right, PgUp, PgDn, Home, End, C-x or F1…F12; a sequence spaced in quotes: \"g g\")"

    /// A key, or a sequence of keys spaced in one word (`g g`); nil when a name is unknown.
    static func parseSequence(_ text: String) -> [Key]? {
        let names = text.split(whereSeparator: \.isWhitespace)
        guard !names.isEmpty else { return nil }
        var keys: [Key] = []
        for name in names {
            guard let key = parse(String(name)) else { return nil }
            keys.append(key)
        }
        return keys
    }

    /// The diagnostic for a binding that took another off (`g` when `g g` was bound).
    static func clash(_ keys: [Key], _ clash: KeyClash) -> String {
        let new = keys.map(name(of:)).joined(separator: " ")
        let old = clash.keys.map(name(of:)).joined(separator: " ")
        let (shorter, longer) = keys.count < clash.keys.count ? (new, old) : (old, new)
        return "`\(new)` clashes with `\(old)` (\(clash.action.rawValue) on "
            + clash.screens.map(\.rawValue).joined(separator: ", ")
            + "): `\(shorter)` cannot both act and begin `\(longer)`, so `\(old)` is unbound there"
    }

    private static let named: [String: Key] = [
        "enter": .enter, "return": .enter, "esc": .escape, "escape": .escape, "space": .character(" "),
        "tab": .tab, "s-tab": .backTab, "shift-tab": .backTab, "backtab": .backTab, "backspace": .backspace,
        "delete": .delete, "del": .delete, "up": .up, "down": .down, "left": .left, "right": .right,
        "pgup": .pageUp, "pageup": .pageUp, "pgdn": .pageDown, "pagedown": .pageDown, "home": .home,
        "end": .end,
    ]

    static func parse(_ text: String) -> Key? {
        if text.count == 1, let character = text.first, !character.isWhitespace,
            character.isASCII || character.isLetter
        {
            return .character(character)
        }
        let lower = text.lowercased()
        if let key = named[lower] { return key }
        for prefix in ["c-", "ctrl-", "^"] where lower.hasPrefix(prefix) && lower.count == prefix.count + 1 {
            if let letter = lower.last, letter.isASCII, letter.isLetter { return .control(letter) }
        }
        if lower.hasPrefix("f"), let number = Int(lower.dropFirst()), (1...12).contains(number) {
            return .function(number)
        }
        return nil
    }

    /// The name `parse` reads back (for `herald config default`).
    static func name(of key: Key) -> String {
        switch key {
        case .character(" "): "Space"
        case .character(let c): String(c)
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "Backspace"
        case .tab: "Tab"
        case .backTab: "S-Tab"
        case .delete: "Delete"
        case .up: "Up"
        case .down: "Down"
        case .left: "Left"
        case .right: "Right"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .control(let c): "C-\(c)"
        case .function(let n): "F\(n)"
        case .resize: "resize"
        case .mouse: "mouse"
        }
    }
}
