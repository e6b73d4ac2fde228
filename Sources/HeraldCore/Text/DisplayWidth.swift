/// How many terminal columns a grapheme takes, by one rule used everywhere in Herald.
///
/// glibc's `wcwidth` (what ncurses counts with) is right for Hangul, CJK and combining marks
/// but wrong for emoji sequences (❤️ = 1, 👍🏽 = 4, 👨‍👩‍👧 = 6, while terminals draw 2), so
/// layout never asks it: East Asian wide and fullwidth, emoji presentation and VS16 sequences
/// are 2, graphemes made only of zero-width scalars are 0, everything else is 1.
public enum DisplayWidth {
    /// The width of one grapheme: 0, 1 or 2.
    public static func of(_ grapheme: Character) -> Int {
        let scalars = grapheme.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if first.value < 0x7F, scalars.count == 1 { return first.value < 0x20 ? 0 : 1 }
        if isZeroWidth(first) && scalars.count == 1 { return 0 }
        if isWide(first) { return 2 }
        if first.properties.isEmojiPresentation { return 2 }
        if scalars.count > 1 {
            // VS16 asks for emoji presentation; a keycap or regional pair is drawn as one emoji.
            for scalar in scalars.dropFirst() where scalar.value == 0xFE0F || scalar.value == 0x20E3 {
                return 2
            }
        }
        return 1
    }

    /// The width of a string laid out grapheme by grapheme.
    public static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        for grapheme in text { total += of(grapheme) }
        return total
    }

    /// Scalars that take no column of their own.
    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return true
        default: return scalar.value == 0x200B
        }
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges, Unicode 15, emoji handled apart.
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x1100 { return false }
        switch v {
        case 0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF,
            0x1B000...0x1B2FF, 0x1F200...0x1F202, 0x1F210...0x1F23B, 0x1F240...0x1F248,
            0x1F250...0x1F251, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
