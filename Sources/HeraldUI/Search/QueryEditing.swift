import HeraldCore

/// How the search prompt's keys edit the query. The caret always sits at the end, like
/// newsboat's prompt; editing is by grapheme, so a Hangul syllable or an emoji with a skin
/// tone is typed and deleted as one.
enum QueryEditing {
    /// The query after `key`, or nil when the key does not edit text (moves, Enter, Esc).
    ///
    /// - printable characters (any script, space included) are appended;
    /// - Backspace deletes the last grapheme;
    /// - Ctrl-U clears the query;
    /// - Ctrl-W deletes the last word and the spaces after it (readline's `unix-word-rubout`).
    static func edit(_ query: String, with key: Key) -> String? {
        switch key {
        case .character(let character):
            return query + printable(character)
        case .backspace:
            return String(query.dropLast())
        case .control("u"):
            return ""
        case .control("w"):
            return deletingLastWord(query)
        default:
            return nil
        }
    }

    /// What of a typed grapheme goes into the query: controls and bidi formatting are
    /// dropped (a pasted tab or line break becomes a space); a grapheme with nothing left to
    /// show adds nothing.
    static func printable(_ character: Character) -> String {
        let text = TextSanitizer.singleLine(String(character))
        return DisplayWidth.of(text) > 0 ? text : ""
    }

    /// Drops trailing spaces, then everything back to the previous space.
    static func deletingLastWord(_ query: String) -> String {
        var text = Substring(query)
        while let last = text.last, last.isWhitespace { text.removeLast() }
        while let last = text.last, !last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
