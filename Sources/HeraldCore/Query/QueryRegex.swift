import Foundation
import Synchronization

/// The regular expressions of `title:/…/` and `author:/…/`: ICU syntax, case-insensitive,
/// compiled once per pattern and kept (a query runs its pattern on every row it looks at),
/// matched within the time of the run under way (`RegexBudget`).
public enum QueryRegex {
    private static let cache = Mutex<[String: TimedRegex]>([:])

    /// The compiled pattern; nil when it does not compile.
    static func compiled(_ pattern: String) -> TimedRegex? {
        if let found = cache.withLock({ $0[pattern] }) { return found }
        guard let regex = try? TimedRegex(pattern) else { return nil }
        cache.withLock { cache in
            // A bound on memory: patterns come from what users type.
            if cache.count > 256 { cache.removeAll() }
            cache[pattern] = regex
        }
        return regex
    }

    /// Why the pattern does not compile, or nil when it does.
    static func problem(_ pattern: String) -> String? {
        do {
            _ = try NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
            return nil
        } catch {
            return "it does not compile (ICU syntax)"
        }
    }

    /// Whether the pattern is found in `text`; throws when the pattern is too slow for the
    /// run under way.
    public static func matches(_ pattern: String, _ text: String) throws(SlowRegexError) -> Bool {
        guard let regex = compiled(pattern) else { return false }
        return try RegexBudget.inForce.firstMatch(regex, in: text)
    }
}
