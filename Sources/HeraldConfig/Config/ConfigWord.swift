import Foundation

/// A word of a config line and the column it starts at (1-based, in characters).
package struct Word: Equatable {
    package var text: String
    package var column: Int
    /// The column just after the word.
    package var end: Int

    package struct SplitError: Error {
        var column: Int
        var message: String
    }

    /// The words of a line, comments dropped.
    package static func split(_ line: String) -> Result<[Word], SplitError> {
        var words: [Word] = []
        var current: String?
        var start = 0
        var quoteStart: Int?
        var escaped = false
        var column = 0
        for character in line {
            column += 1
            if let opened = quoteStart {
                if escaped {
                    current?.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    quoteStart = nil
                    _ = opened
                } else {
                    current?.append(character)
                }
                continue
            }
            if character == "#" && current == nil { break }
            if character.isWhitespace {
                if let text = current { words.append(Word(text: text, column: start, end: column)) }
                current = nil
            } else {
                if current == nil {
                    current = ""
                    start = column
                }
                if character == "\"" {
                    quoteStart = column
                } else {
                    current?.append(character)
                }
            }
        }
        if let opened = quoteStart {
            return .failure(SplitError(column: opened, message: "a quote is not closed"))
        }
        if let text = current { words.append(Word(text: text, column: start, end: column + 1)) }
        return .success(words)
    }
}
