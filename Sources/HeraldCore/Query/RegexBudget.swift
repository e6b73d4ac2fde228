import Foundation
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
/// it fails on (13 s for 26 `a` and a `!`). Each match here has a deadline in processor time
/// (`MatchTimer`: time spent waiting for a core does not count): ICU calls back every
/// 10,000 steps (`.reportProgress`), and the match stops there once past it. A pattern
/// stopped once is too slow for the rest of the run: later matches of it throw at once, so
/// one bad pattern costs one deadline per run, not one per row. Its matches that each take
/// over `InputLimits.regexSlowMatch` are added up too, so a feed of titles made to take just
/// under the deadline costs `regexSlowMatchesTime`, not the deadline times their number.
///
/// Timing a match costs a callback at each position it tries (twice the match on a title).
/// A pattern with a single repetition (`colou?r`, `^the .* river`, `(garden|river)$`) on a
/// title or author of up to 500 characters cannot run long, so it runs untimed, as before
/// the budget: `herald-bench regex` measures both.
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
    /// How many patterns are too slow: while none, a match asks no lock.
    private let slowCount = Atomic<Int>(0)

    public init() {}

    /// The budget of the run under way (nil: `unscoped`).
    @TaskLocal public static var current: RegexBudget?

    /// The budget of matches outside any run.
    public static let unscoped = RegexBudget()

    /// The budget matching is charged to now.
    public static var inForce: RegexBudget { current ?? unscoped }

    /// The patterns found too slow in this run, in the order found.
    public var tooSlow: [String] { state.withLock { $0.tooSlow } }

    public func isTooSlow(_ pattern: String) -> Bool {
        slowCount.load(ordering: .acquiring) > 0 && state.withLock { $0.tooSlow.contains(pattern) }
    }

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

    /// Whether `regex` finds a match in `text`, within the budget.
    ///
    /// A pattern with at most one repetition (`TimedRegex.isLinearPerStart`) on a text of
    /// at most `untimedLength` UTF-16 units runs as it always did, untimed: at most about
    /// 500² steps, 10 ms. Other matches are timed (`MatchTimer`), which costs ICU's
    /// callback at each position tried (about 1 µs on a title of 70 characters).
    public func firstMatch(_ regex: TimedRegex, in text: String) throws(SlowRegexError) -> Bool {
        let pattern = regex.pattern
        if isTooSlow(pattern) { throw SlowRegexError(pattern: pattern) }
        let range = NSRange(text.startIndex..., in: text)
        if regex.isLinearPerStart, range.length <= Self.untimedLength {
            return regex.regex.firstMatch(in: text, range: range) != nil
        }
        var found = false
        try timedSearch(regex, in: text, range: range) { _ in
            found = true
            return true
        }
        return found
    }

    /// Every stretch of `text` that `regex` matches (empty matches left out), within the
    /// budget: timed as `firstMatch` is, the time of the whole search charged to the pattern.
    public func matches(_ regex: TimedRegex, in text: String) throws(SlowRegexError) -> [Range<String.Index>]
    {
        let pattern = regex.pattern
        if isTooSlow(pattern) { throw SlowRegexError(pattern: pattern) }
        let range = NSRange(text.startIndex..., in: text)
        var found: [Range<String.Index>] = []
        func keep(_ result: NSTextCheckingResult) {
            guard result.range.length > 0, let match = Range(result.range, in: text) else { return }
            found.append(match)
        }
        if regex.isLinearPerStart, range.length <= Self.untimedLength {
            for result in regex.regex.matches(in: text, range: range) { keep(result) }
            return found
        }
        try timedSearch(regex, in: text, range: range) { result in
            keep(result)
            return false
        }
        return found
    }

    /// A timed search (`MatchTimer`): each match goes to `each`, which says whether to stop
    /// there; past the deadline the pattern is too slow, and the search's processor time is
    /// charged to it.
    private func timedSearch(
        _ regex: TimedRegex, in text: String, range: NSRange, _ each: (NSTextCheckingResult) -> Bool
    ) throws(SlowRegexError) {
        let pattern = regex.pattern
        let match = MatchTimer()
        withoutActuallyEscaping(each) { each in
            regex.regex.enumerateMatches(in: text, options: [.reportProgress], range: range) {
                result, _, stop in
                if let result {
                    if each(result) { stop.pointee = true }
                } else {
                    // The clock every 16th call: ICU calls at each position a search starts
                    // from, and every 10,000 steps of one match (about 0.3 ms of `(a+)+$`).
                    match.calls &+= 1
                    guard match.calls & 15 == 0, match.isPastDeadline() else { return }
                    match.timedOut = true
                    stop.pointee = true
                }
            }
        }
        if match.timedOut {
            markTooSlow(pattern)
            throw SlowRegexError(pattern: pattern)
        }
        if let spent = match.processorTime(), spent > InputLimits.regexSlowMatch, charge(pattern, spent) {
            throw SlowRegexError(pattern: pattern)
        }
    }

    /// The longest text a pattern of one repetition is matched on untimed: not a limit on
    /// any input, the bound below which such a match cannot take long.
    static let untimedLength = 500

    private func markTooSlow(_ pattern: String) {
        state.withLock { state in
            guard !state.tooSlow.contains(pattern) else { return }
            state.tooSlow.append(pattern)
            slowCount.add(1, ordering: .releasing)
        }
    }

    /// Adds a slow match's time to the pattern's; true when that makes it too slow.
    private func charge(_ pattern: String, _ elapsed: Duration) -> Bool {
        let total = state.withLock { state in
            state.slowTime[pattern, default: .zero] += elapsed
            return state.slowTime[pattern, default: .zero]
        }
        guard total > InputLimits.regexSlowMatchesTime else { return false }
        markTooSlow(pattern)
        return true
    }
}

/// One match under way: what its callback saw, and how long it has run.
///
/// Time is the processor's, not the wall clock's: on a loaded machine (or a container whose
/// share of the processors is used up) a thread waits whole scheduler ticks for a core, and
/// a match of microseconds can take 4 or 100 ms of wall time. Nothing is read before the
/// 16th callback, so a match of a short title reads no clock at all. At the 16th the
/// thread's processor time is read once (a system call, 0.8 µs measured here) and is where
/// the match's time starts; after it, the wall clock (30 ns a read) is read at every 16th
/// callback, and the processor time again only once a millisecond of wall time has gone by.
/// Taking the start at the 16th callback, not at the first millisecond, matters when the
/// callbacks are far apart (ICU calls every 10,000 steps, 0.3 ms of `(a+)+$`, slower under a
/// sanitizer): a match of 20 such callbacks must still be charged. A class: the callback is
/// an escaping closure, called synchronously on this thread only.
private final class MatchTimer {
    // Unchecked exclusivity: ICU calls back at each position a search starts from, and the
    // run-time check of each access to a class's property cost 0.6 µs on a title of 70
    // characters (a match takes 1.2 without the callbacks). Safe: only the callback and
    // `timedSearch` touch these, one after the other on one thread, never overlapping.
    @exclusivity(unchecked) var timedOut = false
    @exclusivity(unchecked) var calls = 0
    private let clock = ContinuousClock()
    /// The wall clock at the 16th callback, then at the last read of the processor time.
    private var lastRead: ContinuousClock.Instant?
    /// The thread's processor time at the 16th callback (nil before).
    private var processorStart: Duration?

    /// Whether the match has used more than `InputLimits.regexMatchTime` of the processor
    /// since its 16th callback (the few before it are the deadline's slack).
    func isPastDeadline() -> Bool {
        let now = clock.now
        guard let lastRead, let processorStart else {
            lastRead = now
            processorStart = Self.threadTime()
            return false
        }
        guard now - lastRead >= .milliseconds(1) else { return false }
        self.lastRead = now
        return Self.threadTime() - processorStart > InputLimits.regexMatchTime
    }

    /// The processor time the match used from its 16th callback; nil when it had fewer.
    func processorTime() -> Duration? {
        processorStart.map { Self.threadTime() - $0 }
    }

    private static func threadTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}

extension Duration {
    /// Whole milliseconds, for messages.
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
