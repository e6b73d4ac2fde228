import HeraldCore
import Foundation

extension NewsboatFilter {
    /// The Herald query for a tree: `and` is a space, `or` is `or`, and a group that mixes
    /// them is parenthesised whatever the precedence, so the meaning cannot shift. Recurses
    /// once per level of the tree: the parser bounds them (`InputLimits.queryDepth`).
    static func render(_ node: Node, top: Bool = false) throws(Untranslatable) -> String {
        switch node {
        case .comparison(let attribute, let op, let value):
            let term = try term(attribute: attribute, op: op, value: value)
            return top || !term.contains(" ") ? term : "(\(term))"
        case .and(let children):
            return try flattened(children, and: true).map { child throws(Untranslatable) in
                if case .or = child { return "(" + (try render(child, top: true)) + ")" }
                return try render(child)
            }.joined(separator: " ")
        case .or(let children):
            let joined = try flattened(children, and: false).map { child throws(Untranslatable) in
                if case .and = child { return "(" + (try render(child, top: true)) + ")" }
                return try render(child)
            }.joined(separator: " or ")
            return top ? joined : "(\(joined))"
        }
    }

    /// The children, with those of a parenthesised group of the same kind taken in
    /// (`(a and b) and c` is `a b c`).
    private static func flattened(_ children: [Node], and: Bool) -> [Node] {
        var flat: [Node] = []
        var pending = Array(children.reversed())
        while let node = pending.popLast() {
            switch node {
            case .and(let inner) where and: pending += inner.reversed()
            case .or(let inner) where !and: pending += inner.reversed()
            default: flat.append(node)
            }
        }
        return flat
    }

    /// One comparison as a Herald term (or a few, joined by spaces).
    static func term(attribute: String, op: String, value: String) throws(Untranslatable) -> String {
        let positive = ["=", "=~", "#", "<", ">", "<=", ">=", "between"].contains(op)
        let not = positive ? "" : "-"
        switch attribute {
        case "unread":
            guard ["=", "!="].contains(op), let yes = yesNo(value) else {
                throw Untranslatable("unread is compared with = \"yes\" or = \"no\"")
            }
            return yes == positive ? "unread" : "read"
        case "flags":
            // Every newsboat flag becomes Herald's star (see docs/NEWSBOAT.md).
            switch (op, value.isEmpty) {
            case ("#", false), ("!=", true), ("=~", false): return "starred"
            case ("!#", false), ("=", true), ("!~", false): return "unstarred"
            default:
                throw Untranslatable(
                    "flags: Herald has one flag, the star; `flags \(op) \"\(value)\"` does not map")
            }
        case "tags":
            guard op == "#" || op == "!#", !value.isEmpty, !value.contains(where: \.isWhitespace) else {
                throw Untranslatable("tags are matched with # \"TAG\" or !# \"TAG\"")
            }
            return not + "tag:" + quoted(value)
        case "title", "author":
            return not + attribute + ":" + (try regex(op: op, value: value, attribute: attribute))
        case "feedtitle", "rssurl", "feedlink":
            guard ["=", "!=", "=~", "!~"].contains(op) else {
                throw Untranslatable("\(attribute) \(op) does not map (Herald's feed: matches text)")
            }
            guard op.hasSuffix("=") || value.allSatisfy({ !regexSyntax.contains($0) }) else {
                throw Untranslatable(
                    "\(attribute) \(op) \"\(value)\": Herald's feed: matches plain text, not a pattern")
            }
            return not + "feed:" + quoted(value)
        case "age":
            return try age(op: op, value: value)
        case "enclosure_url":
            switch (op, value) {
            case ("!=", ""), ("=~", "."), ("=~", ".*."): return "podcast"
            case ("=", ""), ("!~", "."): return "-podcast"
            default: throw Untranslatable("enclosure_url maps only to having one or not (podcast)")
            }
        case "content", "description":
            throw Untranslatable(
                "\(attribute) \(op): Herald searches article text by words, not by pattern or equality")
        default:
            throw Untranslatable("`\(attribute)` has no Herald equivalent")
        }
    }

    static let regexSyntax = Set("^$.[]()|*+?{}\\")

    /// `/REGEX/` for =~ (case-insensitive in both), `/^TEXT$/` for =.
    private static func regex(op: String, value: String, attribute: String) throws(Untranslatable) -> String {
        let pattern: String
        switch op {
        case "=~", "!~": pattern = value
        case "=", "!=": pattern = "^" + NSRegularExpression.escapedPattern(for: value) + "$"
        default: throw Untranslatable("\(attribute) \(op) does not map")
        }
        guard !pattern.contains("/") else {
            throw Untranslatable("\(attribute) \(op) \"\(value)\": a `/` cannot stand in Herald's /REGEX/")
        }
        guard (try? NSRegularExpression(pattern: pattern)) != nil else {
            throw Untranslatable("\(attribute) \(op) \"\(value)\": not a regular expression Herald reads")
        }
        return "/\(pattern)/"
    }

    private static func age(op: String, value: String) throws(Untranslatable) -> String {
        if op == "between" {
            let parts = value.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let low = Int(parts[0]), let high = Int(parts[1]) else {
                throw Untranslatable("age between needs two numbers of days: age between 1:7")
            }
            return "age>=\(low)d age<=\(high)d"
        }
        guard let days = Int(value), days >= 0 else { throw Untranslatable("age is a number of days") }
        switch op {
        case "<", ">", "<=", ">=": return "age\(op)\(days)d"
        case "=": return "age>=\(days)d age<\(days + 1)d"
        default: throw Untranslatable("age \(op) does not map")
        }
    }

    private static func yesNo(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "yes", "true", "1": true
        case "no", "false", "0": false
        default: nil
        }
    }

    /// A bare word when it is one, else `"quoted"` with `\"` and `\\` escaped.
    public static func quoted(_ text: String) -> String {
        let reserved = ["unread", "read", "starred", "unstarred", "podcast", "and", "or", "not"]
        let plain =
            !text.isEmpty && !reserved.contains(text.lowercased())
            && !text.contains(where: { $0.isWhitespace || "\"()\\#".contains($0) })
        if plain { return text }
        return "\""
            + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            + "\""
    }
}
