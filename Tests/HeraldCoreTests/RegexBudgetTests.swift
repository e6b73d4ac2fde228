import Foundation
@testable import HeraldCore
import Testing

/// Regular expressions within their time (`RegexBudget`): patterns that backtrack without
/// end on titles of 20–32 `a` and a `!` are stopped and not run again in their run, while
/// ordinary patterns match as before.
@Suite("Regular expressions within a time budget")
struct RegexBudgetTests {
    /// `aaaaaaaaaaaaaaaaaaaa!` … 32 `a`: each `a` doubles what these patterns try.
    static let titles = (20...32).map { String(repeating: "a", count: $0) + "!" }
    static let slowPatterns = [#"(\w+\s?)+$"#, "((a+)+)+$", "(a+)+$"]

    func fields(_ title: String) -> QueryFields {
        QueryFields(title: title, author: nil, text: "", feedTitle: "", feedURL: "", tags: [], time: 0)
    }

    @Test(
        "a pattern that backtracks without end is stopped on its first slow title, then refused at once",
        arguments: slowPatterns)
    func slowPatternInAQuery(pattern: String) throws {
        let query = try ArticleQuery.parse("title:/\(pattern)/")
        let budget = RegexBudget()
        let clock = ContinuousClock()
        var refused: [SlowRegexError] = []
        let elapsed = clock.measure {
            budget.run {
                for title in Self.titles {
                    do throws(SlowRegexError) {
                        _ = try query.matches(fields(title), now: 0)
                    } catch {
                        refused.append(error)
                    }
                }
            }
        }
        #expect(refused.first == SlowRegexError(pattern: pattern))
        // Once too slow, every later title is refused without running the pattern.
        #expect(refused.count >= Self.titles.count - 8, "\(refused.count) refused")
        #expect(budget.tooSlow == [pattern])
        // One deadline of processor time and the slow matches before it: far below this wall
        // time, however loaded the machine; the old code took 13 s to minutes.
        #expect(elapsed < .seconds(30), "\(elapsed)")
        // Another run starts afresh: the pattern is tried (and stopped) again.
        #expect(!RegexBudget().isTooSlow(pattern))
    }

    @Test("the message names the pattern and the limit")
    func message() {
        #expect(
            "\(SlowRegexError(pattern: "(a+)+$"))"
                == "/(a+)+$/ is too slow: over 50 ms on one title or author (nested repeats such as (a+)+ try every way to split a text)"
        )
    }

    @Test("ordinary patterns find what NSRegularExpression finds, case ignored")
    func ordinaryPatterns() throws {
        let texts = [
            "The River", "the  garden", "Ünïcode café", "", String(repeating: "ab ", count: 2000), "a!",
        ]
        let patterns = ["river", "^the .*n$", "caf[eé]", "^$", #"\bab\b"#, "(a+)+$", "é$", #"\d"#]
        let budget = RegexBudget()
        for pattern in patterns {
            let regex = try NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
            let timed = try TimedRegex(pattern)
            for text in texts {
                let expected = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
                #expect(
                    try budget.firstMatch(timed, in: text) == expected,
                    "/\(pattern)/ on \(text.prefix(20))")
            }
        }
        #expect(budget.tooSlow.isEmpty)
    }

    @Test(
        "a pattern of one repetition, on no group, runs untimed on short texts; any other is timed",
        arguments: [
            ("river", true), ("^the .* river", true), ("colou?r", true), ("(garden|river)$", true),
            (#"\d+\. the"#, true), ("[aeiou]{3}", true), (#"\p{L}+"#, true), ("a+?b", true), ("a++b", true),
            ("[+*?{]x*", true), (#"\(a\)+"#, true), ("(?i)ab*", true), ("(?<name>ab)c*", true),
            ("(a+)+$", false), (#"(\w+\s?)+$"#, false), ("((a+)+)+$", false), ("^[a-z]+ [a-z]+", false),
            ("(a|a)*$", false), ("(ab)+", false), ("(ab){2}", false), (#"(a)\1"#, false),
            (#"(?<n>a)\k<n>"#, false),
            ("(?x)a b*", false), (#"\Qa+\E"#, false), ("a*b*", false), (".*.*x", false), ("a?a?aa", false),
        ])
    func shapes(pattern: String, untimed: Bool) throws {
        #expect(try TimedRegex(pattern).isLinearPerStart == untimed, "\(pattern)")
    }

    @Test("a filter whose pattern is too slow is left out, not taken as no match under a negation")
    func filters() throws {
        let filters = [
            QueryFilter(query: try ArticleQuery.parse("-title:/(a+)+$/"), action: .delete),
            QueryFilter(query: try ArticleQuery.parse("title:/a{25}/"), action: .markRead),
        ]
        let budget = RegexBudget()
        let actions = budget.run { Self.titles.map { filters.action(for: fields($0), now: 0) } }
        #expect(!actions.contains(.delete))
        #expect(actions.filter { $0 == .markRead }.count == 8, "the other filter still acts")
        #expect(budget.tooSlow == ["(a+)+$"])
    }

    @Test("matches of 10 ms each add up: the pattern is stopped after about half a second of them")
    func slowMatchesAddUp() throws {
        // A title on which `(a+)+$` takes 10 ms of the processor or more (what the budget
        // counts, however loaded the machine): found by growing it.
        let pattern = "(a+)+$"
        let regex = try TimedRegex(pattern)
        func processorTime() -> Duration {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
        }
        // The least of three tries at each length: a spike (a page fault, the sanitizer's first
        // touch of its shadow memory) only ever adds time, and once stopped the growth at a
        // title whose matches take under a millisecond (an ASan run, 1,000 matches, not slow).
        var title = ""
        for length in 10...30 {
            title = String(repeating: "a", count: length) + "!"
            var least = Duration.seconds(1_000)
            for _ in 0..<3 {
                let start = processorTime()
                _ = try RegexBudget().firstMatch(regex, in: title)
                least = min(least, processorTime() - start)
            }
            if least > .milliseconds(10) { break }
        }
        let budget = RegexBudget()
        var matches = 0
        while matches < 1_000, (try? budget.firstMatch(regex, in: title)) != nil {
            matches += 1
        }
        // Each under the deadline, and together past 500 ms of processor time: about 50.
        #expect(budget.isTooSlow(pattern))
        #expect(matches < 200, "\(matches) matches of \(title.count) characters")
    }
}
