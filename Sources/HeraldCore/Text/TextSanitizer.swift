/// Removes from feed text everything that could act on a terminal instead of being shown.
///
/// Feed data is hostile: an ESC in a title could retitle the window (`ESC ]0;…BEL`), clear
/// the screen or move the cursor; bidi overrides and isolates can make text read backwards.
/// C0 and C1 controls, DEL and those bidi formatting characters never pass; a tab becomes
/// spaces and a line break a space when the text must stay on one line.
///
/// XML cannot hold C0 controls: before libxml2 reads a broken feed, `XMLRepair` writes each
/// one (a raw byte or `&#27;`) as the noncharacter `controlStandIns.lowerBound + code`, which
/// it passes on, where libxml2 would drop the ESC alone and leave `[31m` behind. Here a
/// stand-in is the control it stands for.
public enum TextSanitizer {
    /// U+FDD0–U+FDEF, noncharacters (Unicode keeps them for a program's own use, and no
    /// text holds them): U+FDD0 + N stands for the C0 control N.
    public static let controlStandIns: ClosedRange<UInt32> = 0xFDD0...0xFDEF

    /// True for a scalar that must never reach the terminal.
    public static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case controlStandIns: return true
        case 0x202A...0x202E, 0x2066...0x2069: return true  // bidi embeddings, overrides, isolates
        case 0x200E, 0x200F, 0x061C: return true  // bidi marks
        default: return false
        }
    }

    /// Text for one line: controls dropped, tabs and line breaks turned into a space.
    public static func singleLine(_ text: String) -> String {
        guard needsCleaning(text, keepingBreaks: false) else { return text }
        var out = String.UnicodeScalarView()
        forEachShown(text) { scalar in
            switch scalar.value {
            case 0x09, 0x0A, 0x0D:
                if out.last != " " { out.append(" ") }
            default:
                out.append(scalar)
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
        forEachShown(text) { scalar in
            defer { previousWasCR = scalar.value == 0x0D }
            switch scalar.value {
            case 0x0D: out.append("\n")
            case 0x0A: if !previousWasCR { out.append("\n") }
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// Calls `shown` with every scalar of `text` that is not part of a control sequence and
    /// not forbidden, tab, LF and CR included.
    ///
    /// A whole escape sequence goes, not just its ESC: `ESC [31m` would otherwise leave
    /// `[31m` on screen. Recognised as a terminal (ECMA-48) reads them: CSI (`ESC [` or C1
    /// 9B) with its parameter and intermediate bytes up to the final byte; OSC, DCS, SOS, PM
    /// and APC (`ESC ] P X ^ _` or C1 9D 90 98 9E 9F) up to BEL or the string terminator
    /// (`ESC \` or C1 9C); any other `ESC` with its intermediate bytes and final byte. A
    /// string left unterminated ends at the next line break, so it cannot swallow the rest of
    /// an article.
    static func forEachShown(_ text: String, _ shown: (Unicode.Scalar) -> Void) {
        enum State { case text, escape, csi, string, stringEscape }
        var state = State.text
        for written in text.unicodeScalars {
            let scalar =
                controlStandIns.contains(written.value)
                ? Unicode.Scalar(UInt8(written.value - controlStandIns.lowerBound)) : written
            let value = scalar.value
            switch state {
            case .text:
                switch value {
                case 0x1B: state = .escape
                case 0x9B: state = .csi
                case 0x90, 0x98, 0x9D, 0x9E, 0x9F: state = .string
                case 0x09, 0x0A, 0x0D: shown(scalar)
                default: if !isForbidden(scalar) { shown(scalar) }
                }
            case .escape:
                switch value {
                case 0x5B: state = .csi  // [
                case 0x5D, 0x50, 0x58, 0x5E, 0x5F: state = .string  // ] P X ^ _
                case 0x20...0x2F: break  // intermediate bytes: the final byte follows
                case 0x1B: break  // ESC ESC: the second one starts over
                case 0x30...0x7E: state = .text  // the final byte
                default:
                    // Not a sequence after all: the ESC goes, the scalar is read as text.
                    state = .text
                    if value == 0x09 || value == 0x0A || value == 0x0D || !isForbidden(scalar) {
                        shown(scalar)
                    }
                }
            case .csi:
                switch value {
                case 0x20...0x3F: break  // parameter and intermediate bytes
                case 0x40...0x7E: state = .text  // the final byte
                default:
                    state = .text
                    if value == 0x09 || value == 0x0A || value == 0x0D || !isForbidden(scalar) {
                        shown(scalar)
                    }
                }
            case .string:
                switch value {
                case 0x07, 0x9C: state = .text
                case 0x1B: state = .stringEscape
                case 0x0A, 0x0D:
                    state = .text
                    shown(scalar)
                default: break
                }
            case .stringEscape:
                state = value == 0x5C ? .text : .string  // ESC \ ends it
            }
        }
    }

    /// A fast scan of the UTF-8 bytes for anything `isForbidden` (LF and tab are fine in a
    /// body): C0 and DEL are single bytes, C1 is C2 80–9F, the bidi controls are D8 9C and
    /// E2 80 8E/8F/AA–AE, E2 81 A6–A9, the controls' stand-ins EF B7 90–AF.
    static func needsCleaning(_ text: String, keepingBreaks: Bool) -> Bool {
        // On the contiguous bytes (a native string's own): walking `utf8` checks an index
        // per byte, and every article's text and title go through here.
        var text = text
        return text.withUTF8 { needsCleaning($0, keepingBreaks: keepingBreaks) }
    }

    private static func needsCleaning(_ bytes: UnsafeBufferPointer<UInt8>, keepingBreaks: Bool) -> Bool {
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in bytes {
            // Printable ASCII, most of any text, is never forbidden.
            if byte >= 0x20 && byte < 0x7F {
                (beforePrevious, previous) = (previous, byte)
                continue
            }
            switch byte {
            case 0x0A, 0x09: if !keepingBreaks { return true }
            case 0x00...0x1F, 0x7F: return true
            case 0x80...0x9F where previous == 0xC2: return true
            case 0x9C where previous == 0xD8: return true
            case 0x8E...0x8F where previous == 0x80 && beforePrevious == 0xE2: return true
            case 0xAA...0xAE where previous == 0x80 && beforePrevious == 0xE2: return true
            case 0xA6...0xA9 where previous == 0x81 && beforePrevious == 0xE2: return true
            case 0x90...0xAF where previous == 0xB7 && beforePrevious == 0xEF: return true
            default: break
            }
            beforePrevious = previous
            previous = byte
        }
        return false
    }
}
