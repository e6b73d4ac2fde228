/// The literal text that every match of a regular expression (ICU syntax) contains, read
/// conservatively so that it never claims too much: `^the .* river` requires `the ` and
/// ` river`; `colou?r` requires `colo` and `r`; `(a|b)c` requires `c`.
///
/// Groups, classes, `.`, anchors and escapes that stand for classes or assertions end a
/// run; a character made optional by `?`, `*` or `{…}` leaves it. A pattern whose shape is
/// not understood gives nil (nothing known): `|` at its top level, inline flags (`(?x)`
/// changes what a space means), comments, and escapes naming other characters (`\x41`,
/// `\Q…\E`, back references).
enum RegexLiterals {
    /// Escapes (after `\`) that stand for a class or an assertion, never for a letter.
    private static let classEscapes = Set("dDwWsSbBAzZGhHvVRXntrfea".unicodeScalars)

    static func required(_ pattern: String) -> [String]? {
        let scalars = Array(pattern.unicodeScalars)
        var runs: [String] = []
        var run = String.UnicodeScalarView()
        func endRun() {
            if !run.isEmpty { runs.append(String(run)) }
            run = String.UnicodeScalarView()
        }
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            var literal: Unicode.Scalar?
            switch scalar {
            case "\\":
                guard index + 1 < scalars.count else { return nil }
                let escaped = scalars[index + 1]
                if escaped.properties.isAlphabetic || escaped.properties.numericType != nil {
                    guard escaped.isASCII, classEscapes.contains(escaped) else { return nil }
                    endRun()
                } else {
                    literal = escaped
                }
                index += 2
            case "[":
                guard let end = classEnd(scalars, from: index) else { return nil }
                endRun()
                index = end + 1
            case "(":
                guard let end = groupEnd(scalars, from: index) else { return nil }
                endRun()
                index = end + 1
            case "|", ")":
                return nil
            case ".", "^", "$":
                endRun()
                index += 1
            case "*", "+", "?", "{":
                // A quantifier after a group, a class or an anchor: the run has ended.
                guard let end = quantifierEnd(scalars, from: index) else { return nil }
                index = end + 1
            default:
                literal = scalar
                index += 1
            }
            guard let literal else { continue }
            let quantifier: Unicode.Scalar? = index < scalars.count ? scalars[index] : nil
            switch quantifier {
            case "*", "?", "{":
                // Optional: the character may be missing, so the run ends before it.
                endRun()
            case "+":
                run.append(literal)
                endRun()
            default:
                run.append(literal)
                continue
            }
            guard let end = quantifierEnd(scalars, from: index) else { return nil }
            index = end + 1
        }
        endRun()
        return runs
    }

    /// The index of the last scalar of the quantifier at `start` (with a lazy `?` or a
    /// possessive `+` after it).
    private static func quantifierEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var end = start
        if scalars[start] == "{" {
            guard let close = scalars[start...].firstIndex(of: "}") else { return nil }
            end = close
        }
        if end + 1 < scalars.count, scalars[end + 1] == "?" || scalars[end + 1] == "+" { end += 1 }
        return end
    }

    /// The index of the `]` that closes the class opening at `start`; nil for nested sets.
    private static func classEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start + 1
        if index < scalars.count, scalars[index] == "^" { index += 1 }
        // A `]` first in the class is a member.
        if index < scalars.count, scalars[index] == "]" { index += 1 }
        while index < scalars.count {
            switch scalars[index] {
            case "\\": index += 2
            case "[": return nil
            case "]": return index
            default: index += 1
            }
        }
        return nil
    }

    /// The index of the `)` that closes the group opening at `start`; nil for inline flags
    /// and comments.
    private static func groupEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        if start + 1 < scalars.count, scalars[start + 1] == "?" {
            guard start + 2 < scalars.count, [":", "=", "!", ">", "<"].contains(scalars[start + 2]) else {
                return nil
            }
        }
        var depth = 0
        var index = start
        while index < scalars.count {
            switch scalars[index] {
            case "\\":
                index += 2
                continue
            case "[":
                guard let end = classEnd(scalars, from: index) else { return nil }
                index = end
            case "(":
                if index + 1 < scalars.count, scalars[index + 1] == "?", index + 2 < scalars.count,
                    ![":", "=", "!", ">", "<"].contains(scalars[index + 2])
                {
                    return nil
                }
                depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
            index += 1
        }
        return nil
    }
}
