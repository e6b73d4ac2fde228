import HeraldCore
import HeraldConfig

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
        var edited = query
        return apply(key, to: &edited) == .notAnEdit ? nil : edited
    }

    /// What a key did to the text it edited.
    enum Outcome: Equatable {
        case changed
        /// An editing key that left the text as it was (Backspace on nothing, a control).
        case unchanged
        /// A character past `InputLimits.promptBytes`: not added.
        case full
        /// Not an editing key (a move, Enter, Esc).
        case notAnEdit
    }

    /// Edits `text` in place with `key`: a character is appended to the same storage, so a
    /// paste of N characters costs N appends, not N copies of a growing text. At most
    /// `InputLimits.promptBytes` bytes are kept.
    static func apply(_ key: Key, to text: inout String) -> Outcome {
        switch key {
        case .character(let character):
            let added = printable(character)
            guard !added.isEmpty else { return .unchanged }
            guard text.utf8.count + added.utf8.count <= InputLimits.promptBytes else { return .full }
            text.append(contentsOf: added)
            return .changed
        case .backspace:
            guard !text.isEmpty else { return .unchanged }
            text.removeLast()
            return .changed
        case .control("u"):
            guard !text.isEmpty else { return .unchanged }
            text = ""
            return .changed
        case .control("w"):
            let before = text.utf8.count
            text = deletingLastWord(text)
            return text.utf8.count == before ? .unchanged : .changed
        default:
            return .notAnEdit
        }
    }

    /// What the status line says when a paste reached the limit.
    static var fullMessage: String {
        "the line is full: \(InputLimits.promptBytes) bytes at most"
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
