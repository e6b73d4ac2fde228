import Foundation
import Testing

@testable import HeraldCore

/// The byte-level date readings must answer exactly as the readings they speed up.
@Suite("Feed dates: fast readings agree with the reference readings")
struct FeedDateFastPathTests {
    /// SplitMix64: the same cases on every run.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    static let tokens = [
        "Tue", "Tuesday", "tue", "03", "3", "31", "32", "0", "00", "Jun", "June", "jun", "Foo", "2003", "99",
        "199", "20030", "09:39:21", "09:39", "9:39:21.5", "24:00:00", "09:+5:00", "09:-5", "25:00",
        "09:39:61",
        "09:39:60", "GMT", "UT", "EST", "edt", "Kst", "Z", "A", "j", "J", "XYZ", "+0000", "-0530", "+05:30",
        "+9", "-12", "+99999", "+1500", "-", "+", "1:2:3:4", "a1", "00000000000000000000001",
        "09:000000000000000000005", "99999999999999999999", "12:99999999999999999999", "Feb", "29", "2020",
        "2100", "1.5",
    ]
    static let slots = [
        ["", "Tue", "Tuesday", "tue", "Foo"], ["03", "3", "31", "29", "32", "0"],
        ["Jun", "June", "feb", "FEB", "Foo"],
        ["2003", "03", "99", "2020", "2100", "199", "20030"],
        ["09:39:21", "09:39", "9:39:21.5", "24:00:00", "25:00", "09:39:60", ""],
        ["GMT", "UT", "EST", "edt", "Z", "A", "J", "XYZ", "+0000", "-0530", "+05:30", "+9", "+99999", ""],
    ]
    static let separators = [" ", ", ", ",", "\t", "\n", "  ", "\r", " ,", "\r\n", ",\r\n "]

    @Test("RFC 822 read from the bytes agrees with the Character-level reading")
    func rfc822BytesAgree() {
        var generator = Generator(state: 822)
        var dated = 0
        for _ in 0..<20_000 {
            // Mostly date-shaped (a day name, day, month, year, time, zone), often disturbed: a
            // slot from the whole pool, a slot dropped, slots swapped.
            var slots = Self.slots.map { $0[generator.next($0.count)] }
            for _ in 0..<generator.next(3) {
                slots[generator.next(slots.count)] = Self.tokens[generator.next(Self.tokens.count)]
            }
            if generator.next(4) == 0 { slots.remove(at: generator.next(slots.count)) }
            if generator.next(4) == 0 {
                slots.swapAt(generator.next(slots.count), generator.next(slots.count))
            }
            var text = ""
            for (index, slot) in slots.enumerated() where !slot.isEmpty {
                if index > 0 { text += Self.separators[generator.next(Self.separators.count)] }
                text += slot
            }
            let fast = FeedDate.parseRFC822(text)
            #expect(fast == RFC822Reference.parse(text), "\(text.debugDescription)")
            if fast != nil { dated += 1 }
        }
        #expect(dated > 1_000)
    }

    @Test(
        "RFC 822 text with other non-ASCII characters is no date, as in the reference reading",
        arguments: [
            "Tue, 03 Jun 2003 09:39:21 GMT\u{301}",
            "Tué, 03 Jun 2003 09:39:21",
            "03 Jun 2003 09:39:21 +\u{301}0900",
        ])
    func rfc822NotASCII(text: String) {
        #expect(FeedDate.parseRFC822(text) == RFC822Reference.parse(text))
    }

    @Test("Unicode spaces between the parts of an RFC 822 date separate them like spaces")
    func rfc822UnicodeSpaces() {
        let expected = FeedDate.parseRFC3339("2003-06-03T09:39:21Z")
        #expect(FeedDate.parseRFC822("Tue,\u{A0}03\u{A0}Jun 2003\u{2009}09:39:21 GMT") == expected)
        #expect(FeedDate.parseRFC822("Tue,\u{A0}03 Jun 2003 09:39:21 GMT\u{3000}") == expected)
    }

    @Test(
        "a CR LF between the parts of an RFC 822 date separates them as LF does",
        arguments: [
            "Tue, 03 Jun 2003 09:39:21\r\nGMT", "Tue,\r\n03 Jun 2003 09:39:21 GMT",
            "Tue, 03 Jun 2003\r\n 09:39:21 GMT",
        ])
    func rfc822CRLF(text: String) {
        let expected = FeedDate.parseRFC3339("2003-06-03T09:39:21Z")
        #expect(FeedDate.parseRFC822(text) == expected)
        #expect(RFC822Reference.parse(text) == expected)
        #expect(FeedDate.parseAny(text) == expected)
    }

    @Test("the common RFC 3339 form read from the bytes agrees with Foundation")
    func rfc3339BytesAgree() {
        var generator = Generator(state: 3339)
        var fastAnswers = 0
        let years = [1899, 1900, 1970, 1999, 2000, 2003, 2024, 2100, 2400, 9999]
        let zones = [
            "Z", "+00:00", "-00:00", "+09:00", "-05:30", "+14:59", "-14:00", "+15:00", "+0900", "+09", "z",
        ]
        let fractions = ["", ".0", ".000", ".000000000", ".0000000000", ".5", ".120", "."]
        for _ in 0..<6_000 {
            let text =
                String(
                    format: "%04d-%02d-%02dT%02d:%02d:%02d", years[generator.next(years.count)],
                    generator.next(14),
                    [1, 28, 29, 30, 31, 32][generator.next(6)], generator.next(25), generator.next(61),
                    generator.next(61)) + fractions[generator.next(fractions.count)]
                + zones[generator.next(zones.count)]
            let reference = FeedDate.plausible(FeedDate.parseISO8601(text))
            #expect(FeedDate.parseRFC3339(text) == reference, "\(text)")
            let fast = text.utf8.withContiguousStorageIfAvailable(FeedDate.parseCanonicalRFC3339) ?? nil
            if let fast {
                fastAnswers += 1
                #expect(fast == reference, "\(text)")
            }
        }
        #expect(fastAnswers > 1000)
    }

    @Test(
        "RFC 3339 forms left to Foundation still parse",
        arguments: [
            ("2026-01-02T03:04:05.123Z", true), ("2026-02-30T03:04:05Z", true),
            ("2026-01-02T24:00:00Z", true),
            (" 2026-01-02T03:04:05Z", true), ("2026-01-02T03:04:05+0900", true),
            ("1500-01-01T00:00:00Z", false),  // before 1900: a placeholder, not a date
            ("2026-01-02 03:04:05Z", false), ("2026-01-02T03:04Z", false),
        ])
    func rfc3339Fallback(text: String, parses: Bool) {
        #expect(text.utf8.withContiguousStorageIfAvailable(FeedDate.parseCanonicalRFC3339) ?? nil == nil)
        #expect((FeedDate.parseRFC3339(text) != nil) == parses)
        #expect(FeedDate.parseRFC3339(text) == FeedDate.plausible(FeedDate.parseISO8601(text)))
    }

    @Test(
        "dates before 1900 are placeholders (year 0000, Go's 0001-01-01): the article is undated",
        arguments: [
            "0000-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "0000-00-00T00:00:00Z", "1899-12-31T23:59:59Z",
            "0001-01-01T00:00:00.000+09:00", "Mon, 01 Jan 0001 00:00:00 GMT",
            "Sat, 01 Jan 0000 00:00:00 +0000",
        ])
    func placeholderDates(_ text: String) {
        #expect(FeedDate.parseRFC3339(text) == nil)
        #expect(FeedDate.parseRFC822(text) == nil)
        #expect(FeedDate.parseAny(text) == nil)
    }

    @Test("the first second of 1900 is still a date")
    func earliest() {
        #expect(FeedDate.parseAny("1900-01-01T00:00:00Z") == FeedDate.earliest)
        #expect(FeedDate.parseAny("Mon, 01 Jan 1900 00:00:00 GMT") == FeedDate.earliest)
    }
}
