public import Foundation
import Synchronization

/// A regular expression that ran out of time: Herald stopped it and does not run it again
/// for the rest of the query, reload or list that found it so.
public struct SlowRegexError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public var pattern: String

    public init(pattern: String) { self.pattern = pattern }

    /// `/(a+)+$/ is too slow: …`, and why such a pattern is (the caller says what it left out).
    public var description: String {
        "/\(pattern)/ is too slow: over \(InputLimits.regexMatchTime.milliseconds) ms on one title or author "
            + "(nested repeats such as (a+)+ try every way to split a text)"
    }
}

/// The time regular expressions may take in one run: a query, a reload's filters, the
/// highlights of a session (`InputLimits.regexMatchTime`, `regexSlowMatchesTime`).
///
/// A backtracking pattern such as `(a+)+$` takes time exponential in the length of the text
/// it fails on (13 s for 26 `a` and a `!`). Each match here has a deadline: ICU calls back
/// every 10,000 steps (`.reportProgress`), and the match stops there once past it.
/// A pattern stopped once is too slow for the rest of the run: later matches of it throw at
/// once, so one bad pattern costs one deadline per run, not one per row. Its matches that
/// each take over `InputLimits.regexSlowMatch` are added up too, so a feed of titles made to
/// take just under the deadline costs `regexSlowMatchesTime`, not the deadline times their
/// number. An ordinary match reads the clock twice and is called back at each position it
/// tries (`herald-bench regex` measures the cost).
///
/// The run is the budget bound to `current` (a task-local: the store's SQL function reads
/// it on the thread running the query); outside any, `unscoped`, whose too-slow patterns
/// stay so for the life of the process.
public final class RegexBudget: Sendable {
    private struct State {
        /// The time of each pattern's slow matches so far.
        var slowTime: [String: Duration] = [:]
        /// The patterns found too slow, in the order found.
        var tooSlow: [String] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// The budget of the run under way (nil: `unscoped`).
    @TaskLocal public static var current: RegexBudget?

    /// The budget of matches outside any run.
    public static let unscoped = RegexBudget()

    /// The budget matching is charged to now.
    public static var inForce: RegexBudget { current ?? unscoped }

    /// The patterns found too slow in this run, in the order found.
    public var tooSlow: [String] { state.withLock { $0.tooSlow } }

    public func isTooSlow(_ pattern: String) -> Bool { state.withLock { $0.tooSlow.contains(pattern) } }

    /// Runs `body` with this budget as `current`.
    public func run<T>(_ body: () throws -> T) rethrows -> T {
        try Self.$current.withValue(self, operation: body)
    }

    /// Runs `body` in the run under way, or in a new one when there is none; throws the
    /// first pattern `body` found too slow, whatever `body` threw then (an SQL statement
    /// stopped by the `regexp` function fails with SQLite's error).
    public static func scoped<T>(_ body: () throws -> T) throws -> T {
        let budget = current ?? RegexBudget()
        let before = budget.tooSlow.count
        do {
            return try budget.run(body)
        } catch {
            let found = budget.tooSlow
            if found.count > before { throw SlowRegexError(pattern: found[before]) }
            throw error
        }
    }

    /// Whether `regex` (compiled from `pattern`) finds a match in `text`, within the budget.
    public func firstMatch(_ regex: NSRegularExpression, pattern: String, in text: String) throws(SlowRegexError)
        -> Bool
    {
        if isTooSlow(pattern) { throw SlowRegexError(pattern: pattern) }
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + InputLimits.regexMatchTime
        let progress = MatchProgress()
        regex.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(text.startIndex..., in: text)) {
            result, _, stop in
            if result != nil {
                progress.found = true
                stop.pointee = true
            } else {
                // The clock every 16th call: ICU calls at each position a search starts from,
                // and every 10,000 steps of one match (about 0.3 ms of `(a+)+$`).
                progress.calls &+= 1
                guard progress.calls & 15 == 0, clock.now > deadline else { return }
                progress.timedOut = true
                stop.pointee = true
            }
        }
        let elapsed = start.duration(to: clock.now)
        if progress.timedOut {
            markTooSlow(pattern)
            throw SlowRegexError(pattern: pattern)
        }
        if elapsed > InputLimits.regexSlowMatch, charge(pattern, elapsed) {
            throw SlowRegexError(pattern: pattern)
        }
        return progress.found
    }

    private func markTooSlow(_ pattern: String) {
        state.withLock { state in
            if !state.tooSlow.contains(pattern) { state.tooSlow.append(pattern) }
        }
    }

    /// Adds a slow match's time to the pattern's; true when that makes it too slow.
    private func charge(_ pattern: String, _ elapsed: Duration) -> Bool {
        state.withLock { state in
            let total = state.slowTime[pattern, default: .zero] + elapsed
            state.slowTime[pattern] = total
            guard total > InputLimits.regexSlowMatchesTime else { return false }
            if !state.tooSlow.contains(pattern) { state.tooSlow.append(pattern) }
            return true
        }
    }
}

/// What the match's callback saw (a class: the callback is an escaping closure, called
/// synchronously on this thread only).
private final class MatchProgress {
    var found = false
    var timedOut = false
    var calls = 0
}

extension Duration {
    /// Whole milliseconds, for messages.
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
