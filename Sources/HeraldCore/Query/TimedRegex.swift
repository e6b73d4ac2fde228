import Foundation

/// A regular expression (ICU syntax, case-insensitive) compiled to be matched within a
/// `RegexBudget`, with what the budget needs to know of its shape.
public struct TimedRegex: Sendable {
    /// The pattern as written.
    public let pattern: String
    let regex: NSRegularExpression
    /// At most one repetition, on no group, and no back reference: its work on a text of n
    /// characters is at most about n² steps (each start position tries the one loop once),
    /// never the exponential or n³ of nested or successive repetitions (`RegexShape`).
    let isLinearPerStart: Bool

    /// Compiles `pattern`; throws NSRegularExpression's error when it does not compile.
    public init(_ pattern: String) throws {
        self.pattern = pattern
        regex = try NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
        isLinearPerStart = RegexShape.hasAtMostOneRepetition(pattern)
    }
}

/// What a pattern's text says of how long it can run, read conservatively: anything not
/// understood counts as a repetition.
enum RegexShape {
    /// Whether the pattern has at most one quantifier (`*`, `+`, `?`, `{…}`, lazy or
    /// possessive), not on a group, and no back reference, free-spacing flag or `\Q…\E`
    /// (which would hide what is what). Quantifiers inside `[…]` are characters there.
    static func hasAtMostOneRepetition(_ pattern: String) -> Bool {
        let scalars = Array(pattern.unicodeScalars)
        var quantifiers = 0
        var index = 0
        // The scalar before, and whether it ended a quantifier (then `?` or `+` is its
        // lazy or possessive mark, not another one).
        var previous: Unicode.Scalar?
        var afterQuantifier = false
        while index < scalars.count {
            let scalar = scalars[index]
            var isQuantifier = false
            switch scalar {
            case "\\":
                guard index + 1 < scalars.count else { return false }
                let escaped = scalars[index + 1]
                // Back references, named ones, and quoting.
                if ("1"..."9").contains(escaped) || escaped == "k" || escaped == "Q" { return false }
                index += 1
                // `\p{L}`, `\x{41}`, `\N{…}`: braces that are no quantifier.
                if "pPxN".unicodeScalars.contains(escaped), index + 1 < scalars.count,
                    scalars[index + 1] == "{"
                {
                    guard let close = scalars[index...].firstIndex(of: "}") else { return false }
                    index = close
                }
                // An escaped character is an atom, whatever it is (`\)` closes no group).
                (previous, afterQuantifier) = ("a", false)
                index += 1
                continue
            case "[":
                guard let end = classEnd(scalars, from: index) else { return false }
                index = end
            case "(":
                // Inline flags with `x` make spaces and `#` comments mean something else.
                var flag = index + 2
                if flag - 1 < scalars.count, scalars[flag - 1] == "?" {
                    while flag < scalars.count, scalars[flag].properties.isAlphabetic || scalars[flag] == "-"
                    {
                        if scalars[flag] == "x" { return false }
                        flag += 1
                    }
                }
            case "?" where previous == "(", "?" where afterQuantifier, "+" where afterQuantifier:
                break
            case "*", "+", "?", "{":
                if previous == ")" { return false }
                quantifiers += 1
                guard quantifiers <= 1 else { return false }
                if scalar == "{" {
                    guard let close = scalars[index...].firstIndex(of: "}") else { return false }
                    index = close
                }
                isQuantifier = true
            default:
                break
            }
            previous = scalars[index]
            afterQuantifier = isQuantifier
            index += 1
        }
        return true
    }

    /// The index of the `]` closing the class opened at `start` (nested classes, escapes).
    private static func classEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var depth = 0
        var index = start
        while index < scalars.count {
            switch scalars[index] {
            case "\\": index += 1
            case "[": depth += 1
            case "]":
                // A `]` first in a class is a member.
                let first =
                    scalars[index - 1] == "[" || (scalars[index - 1] == "^" && scalars[index - 2] == "[")
                if first { break }
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
            index += 1
        }
        return nil
    }
}
