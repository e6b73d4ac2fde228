import HeraldCore
import Foundation

/// newsboat's filter language (query feeds, `ignore-article`, `highlight-article`)
/// translated into Herald's query language, where the two mean the same:
///
///     unread = "yes" and tags # "tech"      →  unread tag:tech
///     title =~ "rust|swift" or age < 3      →  (title:/rust|swift/ or age<3d)
///
/// What has no Herald equivalent (`content =~` a pattern, `feedindex`, `date`…) is refused
/// with the reason, never dropped: a filter that silently matched more or less than it did
/// in newsboat would be worse than none.
public enum NewsboatFilter {
    /// Why an expression could not be carried over, in words for the import's report.
    public struct Untranslatable: Error, Equatable, Sendable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
        init(_ reason: String) { self.reason = reason }
    }

    /// The Herald query for a newsboat filter expression.
    public static func translate(_ expression: String) throws(Untranslatable) -> String {
        var parser = Parser(tokens: try tokenize(expression))
        let tree = try parser.parseOr()
        if let extra = parser.peek {
            throw Untranslatable("unexpected \(extra.shown) in the expression")
        }
        return try render(tree, top: true)
    }

    // MARK: Tokens

    enum Token: Equatable {
        case word(String)
        case string(String)
        case op(String)
        case open, close

        var shown: String {
            switch self {
            case .word(let w): "`\(w)`"
            case .string(let s): "\"\(s)\""
            case .op(let o): "`\(o)`"
            case .open: "`(`"
            case .close: "`)`"
            }
        }
    }

    static let operators = ["==", "!=", "=~", "!~", "<=", ">=", "!#", "=", "<", ">", "#"]

    static func tokenize(_ text: String) throws(Untranslatable) -> [Token] {
        var tokens: [Token] = []
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character.isWhitespace {
                index += 1
            } else if character == "(" || character == ")" {
                tokens.append(character == "(" ? .open : .close)
                index += 1
            } else if character == "\"" {
                var value = ""
                index += 1
                var closed = false
                while index < characters.count {
                    let c = characters[index]
                    if c == "\\", index + 1 < characters.count {
                        value.append(characters[index + 1])
                        index += 2
                        continue
                    }
                    index += 1
                    if c == "\"" {
                        closed = true
                        break
                    }
                    value.append(c)
                }
                guard closed else { throw Untranslatable("a quote is not closed") }
                tokens.append(.string(value))
            } else if let op = operators.first(where: { matches($0, characters, at: index) }) {
                tokens.append(.op(op == "==" ? "=" : op))
                index += op.count
            } else {
                var word = ""
                while index < characters.count {
                    let c = characters[index]
                    if c.isWhitespace || "()\"=!<>#~".contains(c) { break }
                    word.append(c)
                    index += 1
                }
                guard !word.isEmpty else { throw Untranslatable("unexpected `\(character)`") }
                tokens.append(.word(word))
            }
        }
        return tokens
    }

    private static func matches(_ op: String, _ characters: [Character], at index: Int) -> Bool {
        let wanted = Array(op)
        guard index + wanted.count <= characters.count else { return false }
        return Array(characters[index..<index + wanted.count]) == wanted
    }

    // MARK: Tree

    /// A chain of `and`s (or of `or`s) is one node with every term, however long: only a
    /// parenthesis nests.
    indirect enum Node: Equatable {
        case comparison(attribute: String, op: String, value: String)
        case and([Node])
        case or([Node])
    }

    /// Recursive descent, recursing only into parentheses, and no deeper than
    /// `InputLimits.queryDepth`: a deeper one is refused before it recurses.
    struct Parser {
        var tokens: [Token]
        var position = 0
        /// The parentheses open around the current token.
        var depth = 0

        var peek: Token? { position < tokens.count ? tokens[position] : nil }

        mutating func next() -> Token? {
            defer { position += 1 }
            return peek
        }

        /// `or` binds loosest, then `and`; parentheses group.
        mutating func parseOr() throws(Untranslatable) -> Node {
            var nodes = [try parseAnd()]
            while peek == .word("or") {
                position += 1
                nodes.append(try parseAnd())
            }
            return nodes.count == 1 ? nodes[0] : .or(nodes)
        }

        mutating func parseAnd() throws(Untranslatable) -> Node {
            var nodes = [try parseTerm()]
            while peek == .word("and") {
                position += 1
                nodes.append(try parseTerm())
            }
            return nodes.count == 1 ? nodes[0] : .and(nodes)
        }

        mutating func parseTerm() throws(Untranslatable) -> Node {
            switch next() {
            case .open:
                guard depth < InputLimits.queryDepth else {
                    throw Untranslatable("parentheses nested deeper than \(InputLimits.queryDepth)")
                }
                depth += 1
                defer { depth -= 1 }
                let inner = try parseOr()
                guard next() == .close else { throw Untranslatable("a parenthesis is not closed") }
                return inner
            case .word(let attribute):
                let op: String
                switch next() {
                case .op(let symbol): op = symbol
                case .word("between"): op = "between"
                default:
                    throw Untranslatable(
                        "`\(attribute)` needs an operator and a value (attribute = \"value\")")
                }
                let value: String
                switch next() {
                case .string(let text): value = text
                case .word(let text): value = text
                default: throw Untranslatable("`\(attribute) \(op)` needs a value")
                }
                return .comparison(attribute: attribute, op: op, value: value)
            case let other?:
                throw Untranslatable("unexpected \(other.shown)")
            case nil:
                throw Untranslatable("the expression ends too early")
            }
        }
    }
}
