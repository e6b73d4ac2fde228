public import HeraldCore
/// newsboat's `urls` file: one feed per line, then its tags; a tag starting with `~` is a
/// title; `"quoted tags"` may hold spaces; `#` starts a comment.
///
///     https://example.org/feed.xml tech "open source" ~"Example Blog"
public enum NewsboatURLs {
    public static func parse(_ text: String) -> [Subscription] {
        parseListed(text).map(\.subscription).filter { !isNewsboatOnly($0.url) }
    }

    /// Every entry with its line number (from 1), newsboat's own `query:`, `filter:` and
    /// `exec:` entries included, for an import to say which lines it left out and why.
    public static func parseListed(_ text: String) -> [ListedSubscription] {
        var found: [ListedSubscription] = []
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .enumerated()
        {
            let words = tokenize(String(rawLine))
            guard let url = words.first, !url.hasPrefix("#") else { continue }
            var subscription = Subscription(url: url)
            for word in words.dropFirst() {
                if word.hasPrefix("#") { break }
                if word.hasPrefix("~") {
                    subscription.title = TextSanitizer.singleLine(String(word.dropFirst()))
                } else if word != "!" && !subscription.tags.contains(word) {
                    subscription.tags.append(TextSanitizer.singleLine(word))
                }
            }
            found.append(ListedSubscription(subscription: subscription, line: index + 1))
        }
        return found
    }

    /// newsboat's query, filter and exec feeds: not feeds Herald can read.
    public static func isNewsboatOnly(_ url: String) -> Bool {
        url.hasPrefix("query:") || url.hasPrefix("filter:") || url.hasPrefix("exec:")
    }

    /// Splits on spaces, keeping `"quoted words"` (and `~"quoted titles"`) whole. Inside
    /// quotes, as newsboat reads them, `\"` is a quote and `\\` a backslash (an `exec:`
    /// command may quote its own arguments: `"exec:feed \"my list\""`).
    static func tokenize(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        var started = false
        var escaped = false
        for character in line {
            if escaped {
                if character != "\"" && character != "\\" { current.append("\\") }
                current.append(character)
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
                started = true
            } else if character.isWhitespace && !quoted {
                if started { words.append(current) }
                current = ""
                started = false
            } else {
                current.append(character)
                started = true
            }
        }
        if escaped { current.append("\\") }
        if started { words.append(current) }
        return words
    }
}
