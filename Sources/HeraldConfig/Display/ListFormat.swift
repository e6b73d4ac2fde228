import HeraldCore

/// A row format of the article list or the feed list (`set articlelist-format`, `set
/// feedlist-format`), newsboat's format strings: text with `%`-fields.
///
///     %t            a field (which letters: `ListFormat.Target.fields`)
///     %4i  %-17T    padded or cut to 4 (right-aligned) or 17 (left-aligned) display columns
///     %=10t         centred in 10 columns
///     %>-           what follows goes to the right edge, the gap filled with `-`
///     %?T?[%T] &?   `[%T] ` when the feed title has text other than spaces, else what
///                   follows `&` (nothing here); the branches are formats without `%?`
///     %%            a percent sign
///
/// Read once, when the config is read (`parse`), into segments; a row is formatted from them
/// (`render`) with the row's values, so a frame reads no format text. Widths are display
/// columns: a CJK character takes 2, and is never cut in half.
public struct ListFormat: Sendable, Equatable, CustomStringConvertible {
    /// Which list a format is for: the fields each knows.
    public enum Target: Sendable, Equatable {
        case articles, feeds
        /// `download-path` and `download-filename-format`: a podcast episode's file.
        case download

        /// The fields Herald has data for, with what each shows.
        public var fields: [(letter: Character, meaning: String)] {
            switch self {
            case .articles:
                [
                    ("i", "the row's number"), ("f", "flags: N unread, * starred"),
                    ("n", "N when unread"), ("D", "the date (datetime-format, else date-format)"),
                    ("t", "the title"), ("a", "the author"),
                    ("T", "the feed's title in lists of many feeds (empty in a feed's own)"),
                ]
            case .feeds:
                [
                    ("i", "the feed's number"), ("n", "N when it has unread articles"),
                    ("u", "(unread/total)"), ("U", "unread"), ("c", "total"), ("t", "the title"),
                    ("T", "the first tag"), ("l", "the site's link"), ("L", "the feed's address"),
                    ("S", "! last reload failed, - disabled"),
                ]
            case .download:
                [
                    ("u", "the file name of the episode's address"), ("n", "the feed's title"),
                    ("N", "the feed's title"), ("h", "the host of the feed's address"),
                    ("t", "the episode's title"), ("e", "the file's extension"),
                    ("F", "the publication date, yyyy-mm-dd"), ("Y", "its year"), ("y", "its year (yy)"),
                    ("m", "its month (01-12)"), ("b", "its month (Jan)"), ("d", "its day"),
                    ("H", "its hour"), ("M", "its minute"), ("S", "its second"),
                ]
            }
        }

        /// Why a field of newsboat's is refused: what Herald does not have.
        func refusal(_ letter: Character) -> String? {
            switch (self, letter) {
            case (.articles, "L"): "the article's length: Herald's lists do not read the text"
            case (.articles, "e"): "the enclosure's URL: Herald's lists do not read enclosures"
            case (.articles, "d"): "the deleted flag: Herald does not keep deleted articles"
            case (.articles, "F"): "newsboat's flag letters: Herald has a star (`%f` shows it)"
            case (.feeds, "d"): "the feed's description: Herald does not keep it"
            default: nil
            }
        }
    }

    /// How a field is fitted to a width.
    enum Alignment: Sendable, Equatable { case left, right, centre }

    indirect enum Segment: Sendable, Equatable {
        case literal(String)
        case field(Character, width: Int?, alignment: Alignment)
        /// `%>c`: the rest goes to the right edge.
        case fill(Character)
        /// `%?X?then&else?`
        case conditional(Character, then: [Segment], otherwise: [Segment])
    }

    /// The format as written in the config.
    public let text: String
    let segments: [Segment]

    public var description: String { text }

    /// A piece of a formatted row: text, and the field it shows (nil: literal text, fill).
    public struct Piece: Sendable, Equatable {
        public var text: String
        public var field: Character?
    }

    /// The format, or what is wrong with it, with its column (1-based, in characters).
    public static func parse(_ text: String, for target: Target) -> Result<ListFormat, ListFormatError> {
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return .failure(ListFormatError(column: 1, message: "a format cannot hold control characters"))
        }
        var reader = Reader(characters: Array(text), target: target)
        do {
            let segments = try reader.segments(until: [])
            return .success(ListFormat(text: text, segments: segments))
        } catch {
            return .failure(error)
        }
    }

    /// The letters of the fields the format shows (conditions included).
    public var fields: Set<Character> {
        func letters(_ segments: [Segment]) -> Set<Character> {
            segments.reduce(into: []) { found, segment in
                switch segment {
                case .field(let letter, _, _): found.insert(letter)
                case .conditional(let letter, let then, let otherwise):
                    found.insert(letter)
                    found.formUnion(letters(then))
                    found.formUnion(letters(otherwise))
                case .literal, .fill: break
                }
            }
        }
        return letters(segments)
    }

    /// A row formatted to `width` display columns: `value` gives each field's text (one line,
    /// already sanitised). Text after `%>` ends at the right edge; what does not fit is cut
    /// at the edge with `…` (the text before `%>` first, so the right part stays).
    public func render(width: Int, value: (Character) -> String) -> [Piece] {
        var left: [Piece] = []
        var right: [Piece] = []
        var fill: Character?
        func evaluate(_ segments: [Segment]) {
            for segment in segments {
                switch segment {
                case .literal(let text):
                    append(Piece(text: text, field: nil))
                case .field(let letter, let width, let alignment):
                    append(Piece(text: Self.fit(value(letter), width: width, alignment), field: letter))
                case .fill(let character):
                    if fill == nil {
                        fill = character
                    } else {
                        append(Piece(text: String(character), field: nil))
                    }
                case .conditional(let letter, let then, let otherwise):
                    let shown = value(letter).contains { !$0.isWhitespace }
                    evaluate(shown ? then : otherwise)
                }
            }
        }
        func append(_ piece: Piece) {
            guard !piece.text.isEmpty else { return }
            if fill == nil { left.append(piece) } else { right.append(piece) }
        }
        evaluate(segments)
        guard let fill else { return Self.clip(left, to: width) }
        let rightWidth = right.reduce(0) { $0 + DisplayWidth.of($1.text) }
        let room = max(0, width - rightWidth)
        var pieces = Self.clip(left, to: room)
        let used = pieces.reduce(0) { $0 + DisplayWidth.of($1.text) }
        let gap = room - used
        if gap > 0 {
            // A wide fill character fills by its width; a column it cannot fill stays blank.
            let each = max(DisplayWidth.of(fill), 1)
            let text =
                String(repeating: String(fill), count: gap / each) + String(repeating: " ", count: gap % each)
            pieces.append(Piece(text: text, field: nil))
        }
        return Self.clip(pieces + right, to: width)
    }

    /// The text with the fields' values, unclipped (a file name: `download-path`,
    /// `download-filename-format`, which have no `%>`).
    public func text(value: (Character) -> String) -> String {
        func evaluate(_ segments: [Segment]) -> String {
            segments.reduce(into: "") { text, segment in
                switch segment {
                case .literal(let literal): text += literal
                case .field(let letter, let width, let alignment): text += Self.fit(value(letter), width: width, alignment)
                case .fill(let character): text.append(character)
                case .conditional(let letter, let then, let otherwise):
                    text += evaluate(value(letter).contains { !$0.isWhitespace } ? then : otherwise)
                }
            }
        }
        return evaluate(segments)
    }

    /// `text` fitted to `width` columns: cut (with `…`) or padded on the side the alignment
    /// leaves free; as it is when no width is asked for.
    static func fit(_ text: String, width: Int?, _ alignment: Alignment) -> String {
        guard let width else { return text }
        let cut = TextLayout.truncate(text, toWidth: width)
        let pad = max(0, width - DisplayWidth.of(cut))
        switch alignment {
        case .left: return cut + String(repeating: " ", count: pad)
        case .right: return String(repeating: " ", count: pad) + cut
        case .centre:
            return String(repeating: " ", count: pad / 2) + cut + String(repeating: " ", count: pad - pad / 2)
        }
    }

    /// The pieces that fit in `width` columns, the one at the edge cut with `…`.
    static func clip(_ pieces: [Piece], to width: Int) -> [Piece] {
        var out: [Piece] = []
        var used = 0
        for piece in pieces {
            let pieceWidth = DisplayWidth.of(piece.text)
            if used + pieceWidth <= width {
                out.append(piece)
                used += pieceWidth
                continue
            }
            let rest = width - used
            if rest > 0 {
                out.append(Piece(text: TextLayout.truncate(piece.text, toWidth: rest), field: piece.field))
            }
            break
        }
        return out
    }

    /// Reads a format's characters into segments.
    private struct Reader {
        let characters: [Character]
        let target: Target
        var index = 0

        init(characters: [Character], target: Target) {
            self.characters = characters
            self.target = target
        }

        /// Segments up to (not past) one of `ends` (`?` and `&` inside a conditional), or to
        /// the end of the text.
        mutating func segments(until ends: Set<Character>) throws(ListFormatError) -> [Segment] {
            var segments: [Segment] = []
            var literal = ""
            func flush() {
                if !literal.isEmpty { segments.append(.literal(literal)) }
                literal = ""
            }
            while index < characters.count {
                let character = characters[index]
                if ends.contains(character) { break }
                index += 1
                guard character == "%" else {
                    literal.append(character)
                    continue
                }
                let start = index  // the column of the `%`
                guard index < characters.count else {
                    throw ListFormatError(column: start, message: "the format ends in a lone %")
                }
                switch characters[index] {
                case "%":
                    index += 1
                    literal.append("%")
                case ">" where target == .download:
                    throw ListFormatError(column: start, message: "a file name has no right edge for `%>`")
                case ">":
                    index += 1
                    guard index < characters.count else {
                        throw ListFormatError(
                            column: start, message: "`%>` needs a fill character after it (`%> `)")
                    }
                    flush()
                    segments.append(.fill(characters[index]))
                    index += 1
                case "?":
                    guard ends.isEmpty else {
                        throw ListFormatError(column: start, message: "a `%?` cannot stand inside another")
                    }
                    flush()
                    segments.append(try conditional(at: start))
                default:
                    flush()
                    segments.append(try field(at: start))
                }
            }
            flush()
            return segments
        }

        /// `%?X?then&else?`, the reader just past the `%`.
        private mutating func conditional(at start: Int) throws(ListFormatError) -> Segment {
            index += 1  // the `?`
            guard index + 1 < characters.count, characters[index + 1] == "?" else {
                throw ListFormatError(
                    column: start,
                    message: "a condition is `%?X?then&else?` (X a field letter; `&else` optional)")
            }
            let letter = characters[index]
            try check(letter, at: index + 1)
            index += 2
            let then = try segments(until: ["?", "&"])
            var otherwise: [Segment] = []
            if index < characters.count, characters[index] == "&" {
                index += 1
                otherwise = try segments(until: ["?"])
            }
            guard index < characters.count, characters[index] == "?" else {
                throw ListFormatError(
                    column: start, message: "the condition `%?\(letter)?…` is not closed by a `?`")
            }
            index += 1
            return .conditional(letter, then: then, otherwise: otherwise)
        }

        /// `%[-|=][N]X`, the reader just past the `%`.
        private mutating func field(at start: Int) throws(ListFormatError) -> Segment {
            var alignment = Alignment.right
            if characters[index] == "-" {
                alignment = .left
                index += 1
            } else if characters[index] == "=" {
                alignment = .centre
                index += 1
            }
            var digits = ""
            while index < characters.count, characters[index].isASCII, characters[index].isNumber {
                digits.append(characters[index])
                index += 1
            }
            guard index < characters.count else {
                throw ListFormatError(column: start, message: "the format ends inside a field (`%\(digits)`)")
            }
            let letter = characters[index]
            try check(letter, at: index + 1)
            index += 1
            guard !digits.isEmpty else { return .field(letter, width: nil, alignment: alignment) }
            guard let width = Int(digits), (1...1000).contains(width) else {
                throw ListFormatError(column: start, message: "a field's width is from 1 to 1000 columns")
            }
            return .field(letter, width: width, alignment: alignment)
        }

        /// Refuses a letter the list has no field for, saying why.
        private func check(_ letter: Character, at column: Int) throws(ListFormatError) {
            guard !target.fields.contains(where: { $0.letter == letter }) else { return }
            if let why = target.refusal(letter) {
                throw ListFormatError(column: column, message: "`%\(letter)` is \(why)")
            }
            let known = target.fields.map { "%\($0.letter)" }.joined(separator: " ")
            throw ListFormatError(column: column, message: "`%\(letter)` is not a field here (\(known))")
        }
    }
}

/// Why a list format was refused, and where in it (1-based column of the format's text).
public struct ListFormatError: Error, Sendable, Equatable {
    public var column: Int
    public var message: String
}
