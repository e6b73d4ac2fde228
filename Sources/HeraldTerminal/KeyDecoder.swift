import CNCursesW
import HeraldUI
import HeraldConfig

/// Maps what `wget_wch` returns to `Key`s.
enum KeyDecoder {
    /// A function key code (`wget_wch` returned KEY_CODE_YES).
    static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: .up
        case KEY_DOWN: .down
        case KEY_LEFT: .left
        case KEY_RIGHT: .right
        case KEY_PPAGE: .pageUp
        case KEY_NPAGE: .pageDown
        case KEY_HOME, KEY_A1: .home
        case KEY_END, KEY_C1: .end
        case KEY_ENTER: .enter
        case KEY_BACKSPACE: .backspace
        case KEY_DC: .delete
        case KEY_BTAB: .backTab
        // resizeterm queues KEY_RESIZE; the session already learnt of the resize from SIGWINCH.
        case KEY_RESIZE: nil
        case KEY_F0 + 1...KEY_F0 + 24: .function(Int(code - KEY_F0))
        default: nil
        }
    }

    /// Decodes a run of characters (OK results of `wget_wch`), joining scalars that form one
    /// grapheme (Hangul jamo, emoji with modifiers) into one key.
    static func characters(_ codes: [UInt32]) -> [Key] {
        var keys: [Key] = []
        var text = String.UnicodeScalarView()
        func flushText() {
            for grapheme in String(text) { keys.append(.character(grapheme)) }
            text.removeAll()
        }
        for code in codes {
            switch code {
            case 10, 13:
                flushText()
                keys.append(.enter)
            case 27:
                flushText()
                keys.append(.escape)
            case 9:
                flushText()
                keys.append(.tab)
            case 8, 127:
                flushText()
                keys.append(.backspace)
            case 1...26:
                flushText()
                keys.append(.control(Character(Unicode.Scalar(code + 96)!)))
            case 0, 28...31, 0x80...0x9F:
                flushText()
            default:
                if let scalar = Unicode.Scalar(code) { text.append(scalar) }
            }
        }
        flushText()
        return keys
    }
}
