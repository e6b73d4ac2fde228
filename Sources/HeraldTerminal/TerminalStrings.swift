import Foundation
import HeraldCore

/// Control strings Herald writes itself: the clipboard (OSC 52) and the window title.
public enum TerminalStrings {
    /// OSC 52 for `text`, as the terminal around Herald needs it. The text travels
    /// base64-encoded, so nothing in it can act as a control sequence.
    ///
    /// Inside tmux both the plain sequence (taken when tmux has `set-clipboard on`) and one
    /// wrapped for tmux's passthrough (`allow-passthrough on`: the ESCs doubled inside
    /// `ESC P tmux; … ESC \`) are sent; inside GNU screen the sequence goes through its DCS
    /// passthrough in pieces of 76 characters (screen limits a string's length).
    public static func clipboard(_ text: String, environment: [String: String]) -> [String] {
        let encoded = Data(text.utf8).base64EncodedString()
        let plain = "\u{1b}]52;c;" + encoded + "\u{07}"
        if let tmux = environment["TMUX"], !tmux.isEmpty {
            let doubled = plain.replacingOccurrences(of: "\u{1b}", with: "\u{1b}\u{1b}")
            return [plain, "\u{1b}Ptmux;" + doubled + "\u{1b}\\"]
        }
        if environment["STY"].map({ !$0.isEmpty }) == true || environment["TERM"]?.hasPrefix("screen") == true
        {
            var pieces: [String] = []
            var rest = Substring(encoded)
            while !rest.isEmpty {
                pieces.append(String(rest.prefix(76)))
                rest = rest.dropFirst(76)
            }
            return ["\u{1b}P\u{1b}]52;c;" + pieces.joined(separator: "\u{1b}\\\u{1b}P") + "\u{07}\u{1b}\\"]
        }
        return [plain]
    }

    /// OSC 2: the window (and tmux pane) title, sanitised and cut to 120 columns.
    public static func title(_ text: String) -> String {
        "\u{1b}]2;" + TextLayout.truncate(TextSanitizer.singleLine(text), toWidth: 120) + "\u{07}"
    }

    /// Whether a terminal of this type shows OSC 2 titles: xterm and its kin, tmux, screen.
    public static func takesTitles(term: String) -> Bool {
        let known = [
            "xterm", "screen", "tmux", "rxvt", "alacritty", "foot", "kitty", "wezterm", "st-", "konsole",
            "gnome", "vte",
            "iterm", "putty", "mintty", "contour", "ghostty",
        ]
        return known.contains { term.hasPrefix($0) } || term == "st"
    }

    /// Saves the terminal's title (xterm's title stack), to put back with `restoreTitle`.
    public static let saveTitle = "\u{1b}[22;0t"
    public static let restoreTitle = "\u{1b}[23;0t"
}
