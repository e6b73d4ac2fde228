/// The CJK and Hangul characters of a text, one per token, for the character index.
///
/// Japanese and Chinese are written without spaces, and Korean glues particles to words
/// (한국어를), so word tokenizers miss most substrings. Indexing each such character as a
/// token and querying a phrase of characters finds any substring of any length, one
/// character included. Runs are separated by a token no query contains (`x`), so a phrase
/// never matches across two runs.
enum CJKText {
    static func isIndexed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7A3,  // Hangul
            0x3040...0x309F, 0x30A0...0x30FF, 0x31F0...0x31FF,  // kana
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x2FFFF:  // Han
            true
        default:
            false
        }
    }

    /// `"東京タワーに行った"` → `"東 京 タ ワ ー に 行 っ た"`; runs joined by ` x `.
    ///
    /// Works on UTF-8 bytes (a reload passes every article through here): every indexed
    /// character is U+1100 or above, so its first byte is E1 or above, and text without such
    /// bytes (most Latin text) is passed over at byte speed.
    static func characters(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var out: [UInt8] = []
            var inRun = false
            var i = 0
            while i < bytes.count {
                // Bytes below E1 start no indexed character: skipped without decoding.
                if bytes[i] < 0xE1 {
                    if bytes[i] < 0x80 || bytes[i] >= 0xC0 { inRun = false }
                    i += 1
                    continue
                }
                let (indexed, length) = scalar(in: bytes, at: i)
                if indexed {
                    if out.isEmpty {
                        out.reserveCapacity(bytes.count - i + bytes.count / 3)
                    } else if inRun {
                        out.append(0x20)
                    } else {
                        out.append(0x20)
                        out.append(0x78)
                        out.append(0x20)
                    }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<i + length]))
                }
                // Continuation bytes neither start nor end a run.
                if length > 0 { inRun = indexed }
                i += max(length, 1)
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    /// The text with every character the character index covers replaced by a space: what
    /// the word index sees.
    static func withoutIndexed(_ text: String) -> String {
        var text = text
        let replaced: [UInt8]? = text.withUTF8 { bytes in
            var out: [UInt8]?
            // Bytes from `copied` up to `i` go to `out` as they are, in one piece.
            var copied = 0
            var i = 0
            while i < bytes.count {
                guard bytes[i] >= 0xE1 else {
                    i += 1
                    continue
                }
                let (indexed, length) = scalar(in: bytes, at: i)
                if indexed {
                    if out == nil { out = .init(); out!.reserveCapacity(bytes.count) }
                    out!.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<i]))
                    out!.append(0x20)
                    copied = i + length
                }
                i += max(length, 1)
            }
            if out != nil { out!.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...])) }
            return out
        }
        // Text with nothing to replace (most Latin text) is shared, not copied: a reload
        // holds both while an article waits to be written.
        return replaced.map { String(decoding: $0, as: UTF8.self) } ?? text
    }

    /// Whether the scalar starting at `i` is indexed, and its length in bytes (0 for a
    /// continuation byte, which starts no scalar). The bytes are valid UTF-8 (a String's).
    @inline(__always)
    private static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> (Bool, Int) {
        let b = bytes[i]
        switch b {
        case 0x00...0x7F: return (false, 1)
        case 0x80...0xBF: return (false, 0)
        case 0xC0...0xDF: return (false, 2)
        case 0xE0: return (false, 3)
        case 0xE1...0xEF:
            guard i + 2 < bytes.count else { return (false, bytes.count - i) }
            let value =
                UInt32(b & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
            return (Unicode.Scalar(value).map(isIndexed) ?? false, 3)
        default:
            guard i + 3 < bytes.count else { return (false, bytes.count - i) }
            let value =
                UInt32(b & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12 | UInt32(bytes[i + 2] & 0x3F) << 6
                | UInt32(bytes[i + 3] & 0x3F)
            return (Unicode.Scalar(value).map(isIndexed) ?? false, 4)
        }
    }

    /// True when a query word holds characters the character index answers for.
    static func contains(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.contains(where: isIndexed)
    }
}
