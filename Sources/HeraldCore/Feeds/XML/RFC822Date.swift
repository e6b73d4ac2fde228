public import Foundation

extension FeedDate {
    /// RFC 822 / RFC 2822 dates as RSS feeds write them, leniently: the day name is optional
    /// and never checked; seconds and zone are optional (no zone = UTC); two-digit years
    /// (< 50 → 20xx, else 19xx); zones as ±hhmm (or ±hh:mm), GMT/UT/UTC/Z, the US zones
    /// (EST…PDT), a few common others, and military letters — which RFC 1123 says carry no
    /// information, so they count as UTC. Nil when it is not such a date.
    public static func parseRFC822(_ text: String) -> Date? {
        // Dates are ASCII: read from the bytes. Unicode spaces (a no-break space between the
        // parts) separate like a space; any other non-ASCII character means it is no date.
        var text = text
        if !text.utf8.allSatisfy({ $0 < 0x80 }) {
            text = String(
                String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.isWhitespace ? " " : $0 }))
            guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        }
        return plausible(text.withUTF8(RFC822Bytes.parse))
    }

    /// RFC 3339 first for text that starts with a year, else RFC 822; then the other one:
    /// what an RSS, RDF or Atom date element is read with. (Public for the fuzz target.)
    public static func parseAny(_ text: String) -> Date? {
        let trimmed = XMLFeedText.trimmed(text)
        guard !trimmed.isEmpty else { return nil }
        let looksISO = trimmed.utf8.prefix(4).allSatisfy { isDigit($0) }
        if looksISO {
            return parseRFC3339(trimmed) ?? parseRFC3339Loosely(trimmed) ?? parseRFC822(trimmed)
        }
        return parseRFC822(trimmed) ?? parseRFC3339(trimmed)
    }

    /// Dates feeds write "almost" in RFC 3339: a date alone, or no zone (taken as UTC).
    private static func parseRFC3339Loosely(_ text: String) -> Date? {
        if text.count == 10 { return parseRFC3339(text + "T00:00:00Z") }
        if text.count == 19 || text.count == 16 {
            return parseRFC3339(text + (text.count == 16 ? ":00Z" : "Z"))
        }
        return nil
    }

    private static func isDigit(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte >= 0x30 && byte <= 0x39
    }

    static let months = [
        "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC",
    ]
    static let days: Set<String> = ["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"]
    static let namedZones: [String: Int] = [
        "GMT": 0, "UT": 0, "UTC": 0, "Z": 0,
        "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
        "AST": -4, "ADT": -3, "BST": 1, "CET": 1, "CEST": 2, "MET": 1, "MEST": 2, "EET": 2,
        "EEST": 3, "JST": 9, "KST": 9,
    ]

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
