/// Removes from feed text everything that could act on a terminal instead of being shown.
///
/// Feed data is hostile: an ESC in a title could retitle the window (`ESC ]0;…BEL`), clear
/// the screen or move the cursor; bidi overrides and isolates can make text read backwards.
/// C0 and C1 controls, DEL and those bidi formatting characters never pass; a tab becomes
/// spaces and a line break a space when the text must stay on one line.
public enum TextSanitizer {
    /// True for a scalar that must never reach the terminal.
    public static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x202A...0x202E, 0x2066...0x2069: return true  // bidi embeddings, overrides, isolates
        case 0x200E, 0x200F, 0x061C: return true  // bidi marks
        default: return false
        }
    }

    /// Text for one line: controls dropped, tabs and line breaks turned into a space.
    public static func singleLine(_ text: String) -> String {
        guard needsCleaning(text, keepingBreaks: false) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D:
                if out.last != " " { out.append(" ") }
            default:
                if !isForbidden(scalar) { out.append(scalar) }
            }
        }
        return String(out)
    }

    /// Text for a body: line breaks kept (CRLF and CR become LF), tabs kept for the layout
    /// to expand, every other control dropped.
    public static func multiLine(_ text: String) -> String {
        guard needsCleaning(text, keepingBreaks: true) else { return text }
        var out = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar.value == 0x0D }
            switch scalar.value {
            case 0x0D: out.append("\n")
            case 0x0A: if !previousWasCR { out.append("\n") }
            case 0x09: out.append(scalar)
            default: if !isForbidden(scalar) { out.append(scalar) }
            }
        }
        return String(out)
    }

    /// A fast scan of the UTF-8 bytes for anything `isForbidden` (LF and tab are fine in a
    /// body): C0 and DEL are single bytes, C1 is C2 80–9F, the bidi controls are D8 9C and
    /// E2 80 8E/8F/AA–AE, E2 81 A6–A9.
    static func needsCleaning(_ text: String, keepingBreaks: Bool) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in text.utf8 {
            switch byte {
            case 0x0A, 0x09: if !keepingBreaks { return true }
            case 0x00...0x1F, 0x7F: return true
            case 0x80...0x9F where previous == 0xC2: return true
            case 0x9C where previous == 0xD8: return true
            case 0x8E...0x8F where previous == 0x80 && beforePrevious == 0xE2: return true
            case 0xAA...0xAE where previous == 0x80 && beforePrevious == 0xE2: return true
            case 0xA6...0xA9 where previous == 0x81 && beforePrevious == 0xE2: return true
            default: break
            }
            beforePrevious = previous
            previous = byte
        }
        return false
    }
}
