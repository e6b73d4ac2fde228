/// A decoded keystroke, independent of the terminal library.
public enum Key: Sendable, Hashable, CustomStringConvertible {
    /// Printable text: one grapheme (Hangul and other UTF-8 included).
    case character(Character)
    case enter, escape, backspace, tab, backTab, delete
    case up, down, left, right
    case pageUp, pageDown, home, end
    /// Ctrl plus a letter, lowercased (`Ctrl-C` is `.control("c")`).
    case control(Character)
    case function(Int)
    /// The terminal changed size.
    case resize
    /// The mouse: a click, a double click or a turn of the wheel, at a cell.
    case mouse(MouseEvent)

    public var description: String {
        switch self {
        case .character(let c): "\(c)"
        case .control(let c): "C-\(c)"
        case .function(let n): "F\(n)"
        default: "\(Self.names.first { $0.value == self }?.key ?? "?")"
        }
    }

    /// The key as the help and the README show it: `j`, `Enter`, `↓`, `PgDn`, `Space`, `Ctrl-C`.
    public var label: String {
        switch self {
        case .character(" "): "Space"
        case .character(let c): String(c)
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "Backspace"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .delete: "Delete"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .control(let c): "Ctrl-" + c.uppercased()
        case .function(let n): "F\(n)"
        case .resize: "resize"
        case .mouse(let event): "mouse \(event.kind) at \(event.x),\(event.y)"
        }
    }

    /// Names for scripted key sequences (`herald snapshot --keys "j j enter"`).
    static let names: [String: Key] = [
        "enter": .enter, "esc": .escape, "escape": .escape, "backspace": .backspace,
        "tab": .tab, "btab": .backTab, "delete": .delete, "up": .up, "down": .down,
        "left": .left, "right": .right, "pgup": .pageUp, "pgdn": .pageDown,
        "home": .home, "end": .end, "space": .character(" "), "resize": .resize,
    ]

    /// Parses a space-separated key script: names (`enter`, `pgdn`, `C-c`, `F1`) and
    /// single characters (`j`, `q`, `한`). Returns nil with the first token it cannot read.
    public static func parseScript(_ script: String) -> Result<[Key], KeyScriptError> {
        var keys: [Key] = []
        for token in script.split(whereSeparator: { $0 == " " || $0 == "," }) {
            let word = String(token)
            if let key = names[word.lowercased()] {
                keys.append(key)
            } else if word.count == 1, let c = word.first {
                keys.append(.character(c))
            } else if word.lowercased().hasPrefix("c-"), word.count == 3, let c = word.last {
                keys.append(.control(Character(c.lowercased())))
            } else if word.uppercased().hasPrefix("F"), let n = Int(word.dropFirst()), (1...24).contains(n) {
                keys.append(.function(n))
            } else {
                return .failure(KeyScriptError(token: word))
            }
        }
        return .success(keys)
    }
}

/// A key script token that names no key.
public struct KeyScriptError: Error, Sendable, Equatable, CustomStringConvertible {
    public var token: String
    public var description: String { "unknown key '\(token)' (try j, enter, esc, pgdn, C-c, F1)" }
}

/// What the mouse did, where (0-based cells).
public struct MouseEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case click, doubleClick, wheelUp, wheelDown }
    public var kind: Kind
    public var x: Int
    public var y: Int

    public init(_ kind: Kind, x: Int, y: Int) {
        (self.kind, self.x, self.y) = (kind, x, y)
    }
}
