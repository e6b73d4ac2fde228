import Foundation

/// Splits a query into tokens: parentheses, operators, flags and terms (fields, ages,
/// dates, free words and phrases are whole terms already). Columns are 1-based characters.
struct QueryLexer {
    enum Kind: Equatable {
        case open, close, and, or, not
        case term(ArticleQuery)
    }

    struct Token: Equatable {
        var kind: Kind
        var column: Int
        /// The text as typed (for operators' messages).
        var text: String
    }

    private let characters: [Character]
    private var index = 0
    private let typing: Bool

    init(_ text: String, typing: Bool) {
        characters = Array(text)
        self.typing = typing
    }

    static let fieldNames = ["feed", "tag", "author", "title", "after", "before"]

    mutating func tokens() throws(QueryError) -> [Token] {
        var tokens: [Token] = []
        while let token = try next() { tokens.append(token) }
        return tokens
    }

    private var current: Character? { index < characters.count ? characters[index] : nil }
    private var column: Int { index + 1 }

    private func isBoundary(_ character: Character?) -> Bool {
        guard let character else { return true }
        return character.isWhitespace || character == "(" || character == ")"
    }

    private mutating func next() throws(QueryError) -> Token? {
        while let character = current, character.isWhitespace { index += 1 }
        guard let character = current else { return nil }
        let start = column
        switch character {
        case "(":
            index += 1
            return Token(kind: .open, column: start, text: "(")
        case ")":
            index += 1
            return Token(kind: .close, column: start, text: ")")
        case "-":
            index += 1
            guard let after = current, !after.isWhitespace, after != ")" else {
                throw QueryError(column: start, message: "- needs a term right after it: -word")
            }
            return Token(kind: .not, column: start, text: "-")
        case "\"":
            let text = try quoted()
            guard !text.isEmpty else { throw QueryError(column: start, message: "empty quotes") }
            try expectBoundary(after: "the closing quote")
            return Token(kind: .term(.text(FreeText(text, isPhrase: true))), column: start, text: text)
        default:
            return try word(start: start)
        }
    }

    /// A `"quoted string"` from the opening quote at `index`; `\"` and `\\` stand for
    /// themselves.
    private mutating func quoted() throws(QueryError) -> String {
        let start = column
        index += 1
        var text = ""
        while let character = current {
            index += 1
            if character == "\\", let escaped = current, escaped == "\"" || escaped == "\\" {
                text.append(escaped)
                index += 1
            } else if character == "\"" {
                return text
            } else {
                text.append(character)
            }
        }
        throw QueryError(column: start, message: "unclosed quote opened at column \(start)")
    }

    private func expectBoundary(after what: String) throws(QueryError) {
        guard isBoundary(current) else {
            throw QueryError(column: column, message: "a space or a parenthesis must follow \(what)")
        }
    }

    private mutating func bare() -> String {
        var text = ""
        while !isBoundary(current), let character = current {
            text.append(character)
            index += 1
        }
        return text
    }

    /// A bare word: an operator, a flag, a field, an age or a free word.
    private mutating func word(start: Int) throws(QueryError) -> Token {
        let begin = index
        var name = ""
        while let character = current, character.isASCII, character.isLetter {
            name.append(character)
            index += 1
        }
        let lower = name.lowercased()
        if lower == "age", let character = current, character == "<" || character == ">" || character == "=" {
            return Token(kind: .term(try age()), column: start, text: "age")
        }
        if !name.isEmpty, current == ":" {
            index += 1
            if Self.fieldNames.contains(lower) {
                return Token(kind: .term(try field(lower, at: start)), column: start, text: name)
            }
            if lower == "age" {
                throw QueryError(column: start, message: "age needs a comparison and a span: age<7d")
            }
            if let suggestion = Self.suggestion(for: lower) {
                throw QueryError(
                    column: start, message: "unknown field \"\(name)\" — did you mean \"\(suggestion)\"?")
            }
        }
        index = begin
        let text = bare()
        switch text {
        case "and", "AND": return Token(kind: .and, column: start, text: text)
        case "or", "OR": return Token(kind: .or, column: start, text: text)
        case "not", "NOT": return Token(kind: .not, column: start, text: text)
        default: break
        }
        if let flag = QueryFlag(rawValue: text) {
            return Token(kind: .term(.flag(flag)), column: start, text: text)
        }
        let isPrefix = typing && current == nil
        return Token(kind: .term(.text(FreeText(text, isPrefix: isPrefix))), column: start, text: text)
    }

    /// `age<7d`, `age>=2w` …, from the comparison after `age`.
    private mutating func age() throws(QueryError) -> ArticleQuery {
        let opStart = column
        var op = ""
        while let character = current, "<>=".contains(character) {
            op.append(character)
            index += 1
        }
        guard let comparison = QueryComparison(rawValue: op) else {
            throw QueryError(column: opStart, message: "age compares with <, <=, > or >=: age<7d")
        }
        let valueStart = column
        let value = bare()
        let usage = QueryError(column: valueStart, message: "age needs a number and a unit: age<7d")
        guard let unit = value.last, let count = Int64(value.dropLast()), count >= 0 else { throw usage }
        let seconds: Int64
        switch unit {
        case "h": seconds = 3600
        case "d": seconds = 86_400
        case "w": seconds = 7 * 86_400
        case "y": seconds = 365 * 86_400
        default:
            throw QueryError(
                column: valueStart + value.count - 1,
                message: "age's unit is h, d, w or y (hours … years): age<7d")
        }
        let (total, overflow) = count.multipliedReportingOverflow(by: seconds)
        guard !overflow else { throw QueryError(column: valueStart, message: "age is too large") }
        return .age(comparison, seconds: total)
    }

    /// A field's value, from just after its colon.
    private mutating func field(_ name: String, at start: Int) throws(QueryError) -> ArticleQuery {
        let valueStart = column
        let value: String
        var isRegex = false
        if current == "\"" {
            value = try quoted()
            try expectBoundary(after: "the closing quote")
        } else if current == "/", name == "title" || name == "author" {
            value = try regex()
            isRegex = true
        } else {
            value = bare()
        }
        guard !value.isEmpty else {
            let example = name == "after" || name == "before" ? "2026-01-01" : name == "tag" ? "NAME" : "TEXT"
            throw QueryError(column: valueStart, message: "\(name): needs a value: \(name):\(example)")
        }
        switch name {
        case "tag": return .tag(value)
        case "after", "before":
            guard let time = Self.date(value) else {
                throw QueryError(column: valueStart, message: "\(name) needs a date: \(name):2026-01-01")
            }
            return name == "after" ? .after(time) : .before(time)
        default:
            let field = QueryField(rawValue: name) ?? .title
            return .field(field, isRegex ? .regex(value) : .contains(value))
        }
    }

    /// A `/regular expression/`, checked here so that a bad one is a parse error.
    private mutating func regex() throws(QueryError) -> String {
        let start = column
        index += 1
        var pattern = ""
        var closed = false
        while let character = current {
            index += 1
            if character == "\\", let escaped = current {
                pattern += escaped == "/" ? "/" : "\\" + String(escaped)
                index += 1
            } else if character == "/" {
                closed = true
                break
            } else {
                pattern.append(character)
            }
        }
        guard closed else {
            throw QueryError(column: start, message: "unclosed regular expression opened at column \(start)")
        }
        guard !pattern.isEmpty else { throw QueryError(column: start, message: "empty regular expression") }
        if let problem = QueryRegex.problem(pattern) {
            throw QueryError(column: start, message: "bad regular expression: \(problem)")
        }
        try expectBoundary(after: "the regular expression")
        return pattern
    }

    /// `2026-01-01` as seconds since 1970 at UTC midnight; nil unless a real date.
    static func date(_ text: String) -> Int64? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int64(parts[0]), let m = Int64(parts[1]), let d = Int64(parts[2]),
            (1...12).contains(m), d >= 1
        else { return nil }
        let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        let lengths: [Int64] = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard d <= lengths[Int(m - 1)] else { return nil }
        // Days from civil (Howard Hinnant's algorithm).
        let year = m <= 2 ? y - 1 : y
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return (era * 146_097 + dayOfEra - 719_468) * 86_400
    }

    /// The field a misspelt name was probably meant to be (two edits at most).
    static func suggestion(for name: String) -> String? {
        guard name.count >= 3 else { return nil }
        let candidates = (fieldNames + ["age"]).map { ($0, distance(name, $0)) }.filter { $0.1 <= 2 }
        return candidates.min { $0.1 < $1.1 }?.0
    }

    /// Edit distance with transpositions (optimal string alignment).
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
