import Foundation
import HeraldCore
import Testing

/// The limits table (docs/LIMITS.md) says what `InputLimits` holds: a row for each limit declared
/// there, with its number.
@Suite("InputLimits and docs/LIMITS.md")
struct InputLimitsDocumentedTests {
    /// The rows of the table under "Limits: what a feed, a server or a file can cost", by
    /// their first cell.
    func rows() throws -> [String: String] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/LIMITS.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let heading = try #require(text.range(of: "\n## The limits\n"))
        var rows: [String: String] = [:]
        for line in text[heading.upperBound...].split(separator: "\n").drop(while: { !$0.hasPrefix("|") })
            .prefix(while: { $0.hasPrefix("|") })
        {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            if cells.count == 2 { rows[cells[0]] = cells[1] }
        }
        return rows
    }

    @Test("the table has the items of a feed and the prompts' length, with their numbers")
    func itemsAndPrompts() throws {
        let rows = try rows()
        func thousands(_ n: Int) -> String {
            n.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US")))
        }
        let items = try #require(rows["a feed's items"])
        #expect(items.hasPrefix("\(thousands(InputLimits.itemsPerFeed)) per document"))
        let prompt = try #require(rows["a prompt (`/`, `:`)"])
        #expect(prompt.hasPrefix("\(thousands(InputLimits.promptBytes)) bytes of text"))
    }

    @Test("the table has the query's depth and the regular expressions' time, with their numbers")
    func limitsInTheTable() throws {
        let rows = try rows()
        let depth = try #require(rows["a query's depth"])
        #expect(depth.hasPrefix("\(InputLimits.queryDepth) nested parentheses"))
        #expect(depth.contains("the \(InputLimits.queryDepth + 1)th is an error at its column"))
        let regex = try #require(rows["a regular expression's time"])
        func ms(_ duration: Duration) -> String {
            "\(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000) ms"
        }
        #expect(
            regex.hasPrefix("\(ms(InputLimits.regexMatchTime)) of processor time for one title or author"))
        #expect(
            regex.contains(
                "past \(ms(InputLimits.regexSlowMatchesTime)) of matches over \(ms(InputLimits.regexSlowMatch)) each"
            ))
    }
}
