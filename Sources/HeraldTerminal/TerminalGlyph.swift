import CNCursesW
import Glibc
import HeraldUI

/// Turns a canvas grapheme into the wide characters handed to ncurses, so that ncurses'
/// cursor model (glibc `wcwidth`) agrees with the width the canvas gave it.
///
/// glibc counts ❤️ as 1 column, 👍🏽 as 4 and 👨‍👩‍👧 as 6 while Herald (and terminals) give
/// each 2. Where the counts disagree the grapheme is reduced: modifiers, VS16 and the tail of
/// a ZWJ sequence are dropped (👍🏽 → 👍, 👨‍👩‍👧 → 👨, ❤️ → ❤); a glyph one column narrower
/// than its cell is padded with a space; anything else unprintable becomes `?`/`？`.
enum TerminalGlyph {
    /// The characters to draw for a cell, as clusters placed in successive columns (each a
    /// spacing character and its zero-width followers: a flag is two clusters, 🇰 then 🇷),
    /// and whether one more column needs a padding space.
    static func reduce(_ grapheme: Character, width: Int) -> (clusters: [[UInt32]], pad: Bool) {
        let scalars = grapheme.unicodeScalars.map(\.value)
        let maxScalars = Int(cn_ccharw_max())
        var clusters: [[UInt32]] = []
        var total = 0
        var valid = true
        for scalar in scalars {
            let w = Int(wcwidth(wchar_t(scalar)))
            if w < 0 {
                valid = false
            } else if w > 0 || clusters.isEmpty {
                if w == 0 { valid = false }  // a grapheme must start with a spacing character
                clusters.append([scalar])
                total += w
            } else if clusters[clusters.count - 1].count < maxScalars {
                clusters[clusters.count - 1].append(scalar)
            }
        }
        if valid, total == width { return (clusters, false) }

        // Keep the base and the combining marks glibc also counts as zero width, but none of
        // the emoji machinery (ZWJ and what follows it, variation selectors, skin tones).
        let first = Int(wcwidth(wchar_t(scalars[0])))
        var kept = [scalars[0]]
        for scalar in scalars.dropFirst() {
            if scalar == 0x200D { break }
            if scalar == 0xFE0F || scalar == 0xFE0E { continue }
            if wcwidth(wchar_t(scalar)) == 0, kept.count < maxScalars { kept.append(scalar) }
        }
        if first == width { return ([kept], false) }
        if first == 1 && width == 2 { return ([kept], true) }
        return ([[width == 2 ? 0xFF1F : 0x3F]], false)
    }
}

/// The process locale must be UTF-8 for wide characters (and `wcwidth`) to work.
public enum TerminalLocale {
    /// Takes the user's locale; falls back to C.UTF-8 when its codeset is not UTF-8.
    public static func ensureUTF8() {
        setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
        if codeset.uppercased().replacingOccurrences(of: "-", with: "") != "UTF8" {
            setlocale(LC_CTYPE, "C.UTF-8")
        }
    }
}
