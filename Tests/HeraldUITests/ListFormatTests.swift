import Foundation
import HeraldCore
import Testing

@testable import HeraldConfig

/// `articlelist-format` and `feedlist-format`: newsboat's %-fields read once into segments,
/// rows formatted from them in display columns.
@Suite("List formats")
struct ListFormatTests {
    func format(_ text: String, _ target: ListFormat.Target = .articles) throws -> ListFormat {
        try ListFormat.parse(text, for: target).get()
    }

    func row(_ format: ListFormat, width: Int, _ values: [Character: String]) -> String {
        format.render(width: width) { values[$0] ?? "" }.map(\.text).joined()
    }

    @Test("widths pad and cut in display columns: left, right and centred, a CJK character never halved")
    func widths() throws {
        let values: [Character: String] = ["i": "7", "T": "日本語ニュース", "t": "Title"]
        #expect(row(try format("%4i|%-6T|%t"), width: 80, values) == "   7|日本… |Title")
        #expect(row(try format("%-8T|"), width: 80, ["T": "한국"]) == "한국    |")
        #expect(row(try format("%=9t|"), width: 80, values) == "  Title  |")
        let cut = row(try format("%-6T"), width: 80, values)
        #expect(DisplayWidth.of(cut) == 6)
    }

    @Test("newsboat's feed column: a condition shows its branch only when the field has text")
    func conditions() throws {
        let format = try format("%f %?T?;%-5T; ?%t")
        #expect(row(format, width: 80, ["f": "N ", "T": "Feed", "t": "x"]) == "N  ;Feed ; x")
        #expect(row(format, width: 80, ["f": "N ", "T": "  ", "t": "x"]) == "N  x")
        let otherwise = try self.format("%?a?by %a&anonymous?")
        #expect(row(otherwise, width: 80, ["a": "Ann"]) == "by Ann")
        #expect(row(otherwise, width: 80, [:]) == "anonymous")
    }

    @Test("%> sends the rest to the right edge, the gap filled; a long title is cut before it")
    func fill() throws {
        let format = try format("%t%>.%D")
        #expect(row(format, width: 20, ["t": "Short", "D": "Nov 03"]) == "Short.........Nov 03")
        let long = row(format, width: 20, ["t": "A rather long title indeed", "D": "Nov 03"])
        #expect(long == "A rather lon…Nov 03" || long == "A rather long…Nov 03")
        #expect(DisplayWidth.of(long) <= 20 && long.hasSuffix("Nov 03"))
        #expect(row(try self.format("%t%> %D"), width: 12, ["t": "漢字", "D": "x"]) == "漢字       x")
    }

    @Test("a row is cut at the window's edge with …, in display columns")
    func clipped() throws {
        let text = row(try format("%t"), width: 7, ["t": "가나다라마"])
        #expect(text == "가나다…")
        #expect(DisplayWidth.of(text) <= 7)
        #expect(row(try format("%%%t"), width: 80, ["t": "x"]) == "%x")
    }

    @Test("the title is the piece a highlight styles: pieces keep their field")
    func pieces() throws {
        let pieces = try format("%i %t").render(width: 80) { $0 == "i" ? "3" : "Title" }
        #expect(pieces.map(\.field) == ["i", nil, "t"])
        #expect(try format("%?T?%T ?%t %D").fields == ["T", "t", "D"])
    }

    @Test(
        "a field Herald has no data for, or a broken format, is refused at its column with why",
        arguments: [
            ("%4i %f %D %6L  %?T?;%-17T; ?%t", ListFormat.Target.articles, 13, "article's length"),
            ("%e", .articles, 2, "enclosure"),
            ("%4i %d %t", .feeds, 6, "description"),
            ("%x", .articles, 2, "not a field here (%i %f %n %D %t %a %T)"),
            ("%t %", .articles, 4, "lone %"),
            ("%?T?x", .articles, 1, "not closed"),
            ("%?T?%?a?y??", .articles, 5, "inside another"),
            ("%?T", .articles, 1, "%?X?then&else?"),
            ("%>", .articles, 1, "fill character"),
            ("%0t", .articles, 1, "from 1 to 1000"),
        ])
    func refused(_ text: String, _ target: ListFormat.Target, _ column: Int, _ why: String) {
        guard case .failure(let error) = ListFormat.parse(text, for: target) else {
            Issue.record("`\(text)` was read")
            return
        }
        #expect(error.column == column, "\(error)")
        #expect(error.message.contains(why), "\(error.message)")
    }

    @Test("set articlelist-format, feedlist-format and datetime-format: read once, refused with the column")
    func settings() throws {
        let config = ConfigFile.parse(
            """
            set articlelist-format "%4i %f %D  %?T?;%-17T; ?%t"
            set feedlist-format "%4i %n %11u %t"
            set datetime-format "%d %B"
            set articlelist-format "%4i %L %t"
            """, file: "c")
        #expect(config.settings.articleListFormat?.text == "%4i %f %D  %?T?;%-17T; ?%t")
        #expect(config.settings.feedListFormat?.text == "%4i %n %11u %t")
        #expect(config.settings.listDateFormat?.pattern == "%d %B")
        #expect(
            config.diagnostics.map(\.description) == [
                "c:4:24: `%4i %L %t`: at column 6 of the format: `%L` is the article's length: Herald's lists do not read the text"
            ])
        let unset = ConfigFile.parse("set datetime-format \"\"\nset feedlist-format \"\"", file: "c")
        #expect(unset.diagnostics.isEmpty && unset.settings.listDateFormat == nil)
    }

    @Test("datetime-format's strftime fields keep one width: full names padded, %T and %p")
    func dateFields() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = try #require(
            calendar.date(from: DateComponents(year: 2026, month: 5, day: 3, hour: 21, minute: 4, second: 9)))
        let format = try DateFormat.parse("%A %B %d %I:%M:%S %p|%T|%F").get()
        let text = format.string(date, calendar: calendar)
        #expect(text == "Sunday    May       03 09:04:09 PM|21:04:09|2026-05-03")
        #expect(DisplayWidth.of(text) == format.width)
        #expect(format.hasTime)
        guard case .failure(let error) = DateFormat.parse("%Q") else {
            Issue.record("%Q read")
            return
        }
        #expect(error.message.contains("%S"))
    }
}
