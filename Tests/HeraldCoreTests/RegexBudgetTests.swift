import Foundation
import HeraldCore
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
        // One deadline and the slow matches before it, not 13 s or more (a loaded machine
        // stretches this; the old code took 13 s to minutes).
        #expect(elapsed < .seconds(5), "\(elapsed)")
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
            for text in texts {
                let expected = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
                #expect(
                    try budget.firstMatch(regex, pattern: pattern, in: text) == expected,
                    "/\(pattern)/ on \(text.prefix(20))")
            }
        }
        #expect(budget.tooSlow.isEmpty)
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

    @Test(
        "matches of a few milliseconds each add up: the pattern is stopped after about half a second of them")
    func slowMatchesAddUp() throws {
        // A title on which `(a+)+$` takes a few ms: found by growing it on this machine.
        let pattern = "(a+)+$"
        let regex = try NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
        let clock = ContinuousClock()
        var title = ""
        for length in 10...30 {
            title = String(repeating: "a", count: length) + "!"
            let took = try clock.measure {
                _ = try RegexBudget().firstMatch(regex, pattern: pattern, in: title)
            }
            if took > .milliseconds(3) { break }
        }
        let budget = RegexBudget()
        var matches = 0
        let elapsed = clock.measure {
            while matches < 10_000, (try? budget.firstMatch(regex, pattern: pattern, in: title)) != nil {
                matches += 1
            }
        }
        #expect(budget.isTooSlow(pattern), "\(matches) matches")
        #expect(elapsed < .seconds(3), "\(elapsed) for \(matches) matches")
    }
}
