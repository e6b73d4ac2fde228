extension ArticleQuery {
    /// Parses the text form of a query (see docs/QUERIES.md).
    ///
    /// With `typing`, a free word that ends the text (no space after it yet) is the word
    /// being typed: it matches every word it begins. An empty text selects every article.
    public static func parse(_ text: String, typing: Bool = false) throws(QueryError) -> ArticleQuery {
        var lexer = QueryLexer(text, typing: typing)
        var parser = QueryParser(tokens: try lexer.tokens(), end: text.count + 1)
        return try parser.parse()
    }
}

/// Recursive descent over the lexer's tokens. Precedence, loosest first: `or`, then
/// terms side by side (and `and`), then `-`/`not`.
///
/// Only a parenthesis recurses, and no deeper than `InputLimits.queryDepth`: the one past
/// it is refused at its column before anything recurses over it, so neither this parser
/// nor any walk over the query it returns (matching, the store's compiler, hashing) can
/// run out of stack. A run of negations is read in a loop and folded (`--a` is `a`).
struct QueryParser {
    typealias Token = QueryLexer.Token
    private let tokens: [Token]
    private var position = 0
    private let end: Int
    /// The parentheses open around the current token.
    private var depth = 0

    init(tokens: [Token], end: Int) {
        self.tokens = tokens
        self.end = end
    }

    private var current: Token? { position < tokens.count ? tokens[position] : nil }

    mutating func parse() throws(QueryError) -> ArticleQuery {
        guard !tokens.isEmpty else { return .everything }
        let query = try parseOr()
        if let token = current {
            // Only a closing parenthesis stops both loops before the end.
            throw QueryError(column: token.column, message: "unmatched closing parenthesis")
        }
        return query
    }

    /// True when the token cannot start a term.
    private func endsTerm(_ token: Token?) -> Bool {
        guard let token else { return true }
        switch token.kind {
        case .close, .or, .and: return true
        default: return false
        }
    }

    /// After an operator: the next token must start a term.
    private func expectTerm(after op: Token) throws(QueryError) {
        guard endsTerm(current) else { return }
        let name = op.text == "-" ? "-" : op.text.lowercased()
        throw QueryError(column: op.column, message: "\(name) needs a term after it")
    }

    private mutating func parseOr() throws(QueryError) -> ArticleQuery {
        var terms = [try parseAnd()]
        while let token = current, token.kind == .or {
            position += 1
            try expectTerm(after: token)
            terms.append(try parseAnd())
        }
        return terms.count == 1
            ? terms[0] : .or(terms.flatMap { if case .or(let inner) = $0 { inner } else { [$0] } })
    }

    private mutating func parseAnd() throws(QueryError) -> ArticleQuery {
        var terms = [try parseUnary()]
        while let token = current {
            switch token.kind {
            case .close, .or: break
            case .and:
                position += 1
                try expectTerm(after: token)
                terms.append(try parseUnary())
                continue
            default:
                terms.append(try parseUnary())
                continue
            }
            break
        }
        return terms.count == 1
            ? terms[0] : .and(terms.flatMap { if case .and(let inner) = $0 { inner } else { [$0] } })
    }

    /// A term after any number of `-`/`not`: negated when they are odd in number.
    private mutating func parseUnary() throws(QueryError) -> ArticleQuery {
        var negated = false
        while let token = current, token.kind == .not {
            position += 1
            try expectTerm(after: token)
            negated.toggle()
        }
        let term = try parsePrimary()
        return negated ? .not(term) : term
    }

    private mutating func parsePrimary() throws(QueryError) -> ArticleQuery {
        guard let token = current else {
            throw QueryError(column: end, message: "the query ends where a term was expected")
        }
        switch token.kind {
        case .term(let query):
            position += 1
            return query
        case .open:
            position += 1
            if let next = current, next.kind == .close {
                throw QueryError(column: token.column, message: "empty parentheses")
            }
            guard depth < InputLimits.queryDepth else {
                throw QueryError(
                    column: token.column,
                    message: "parentheses nested deeper than \(InputLimits.queryDepth)")
            }
            depth += 1
            defer { depth -= 1 }
            let inner = try parseOr()
            guard let close = current, close.kind == .close else {
                throw QueryError(
                    column: token.column, message: "unclosed parenthesis opened at column \(token.column)")
            }
            _ = close
            position += 1
            return inner
        case .close:
            throw QueryError(column: token.column, message: "unmatched closing parenthesis")
        case .or, .and:
            throw QueryError(
                column: token.column, message: "\(token.text.lowercased()) needs a term before it")
        case .not:
            preconditionFailure("parseUnary reads negations")
        }
    }
}
