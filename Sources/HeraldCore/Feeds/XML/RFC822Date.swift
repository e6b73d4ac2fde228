public import Foundation

extension FeedDate {
    /// RFC 822 / RFC 2822 dates as RSS feeds write them, leniently: the day name is optional
    /// and never checked; seconds and zone are optional (no zone = UTC); two-digit years
    /// (< 50 → 20xx, else 19xx); zones as ±hhmm (or ±hh:mm), GMT/UT/UTC/Z, the US zones
    /// (EST…PDT), a few common others, and military letters — which RFC 1123 says carry no
    /// information, so they count as UTC. Nil when it is not such a date.
    public static func parseRFC822(_ text: String) -> Date? {
        // Dates are ASCII: read them from the bytes. Other text takes the Character-level reading.
        if text.utf8.withContiguousStorageIfAvailable(RFC822Bytes.isPlainASCII) ?? false {
            return text.utf8.withContiguousStorageIfAvailable(RFC822Bytes.parse) ?? nil
        }
        return parseRFC822Characters(text)
    }

    /// `parseRFC822` Character by Character: the reference the byte reading must agree with.
    static func parseRFC822Characters(_ text: String) -> Date? {
        var day: Int?
        var month: Int?
        var year: Int?
        var time: (Int, Int, Int)?
        var offset: Int?  // seconds east of UTC
        // CR LF is one Character, a separator like CR and LF alone.
        let tokens = text.split(whereSeparator: {
            $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n"
        })
        for raw in tokens {
            let token = String(raw)
            if time == nil, token.utf8.contains(UInt8(ascii: ":")), isDigit(token.utf8.first) {
                guard let parsed = parseTime(token) else { return nil }
                time = parsed
            } else if let first = token.first, first == "+" || first == "-" {
                guard time != nil || year != nil, let zone = parseNumericZone(token) else { return nil }
                offset = zone
            } else if token.utf8.allSatisfy({ isDigit($0) }) {
                guard let value = Int(token) else { return nil }
                if day == nil, token.count <= 2, (1...31).contains(value) {
                    day = value
                } else if year == nil {
                    switch token.count {
                    case 2: year = value < 50 ? 2000 + value : 1900 + value
                    case 3: year = 1900 + value
                    case 4: year = value
                    default: return nil
                    }
                } else {
                    return nil
                }
            } else if token.utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) {
                let upper = token.uppercased()
                if month == nil, upper.count >= 3, let index = months.firstIndex(of: String(upper.prefix(3))) {
                    month = index + 1
                } else if let zone = namedZones[upper] {
                    offset = zone * 3600
                } else if upper.count == 1, upper != "J" {
                    offset = 0  // military zone: no information (RFC 1123 §5.2.14)
                } else if upper.count >= 3, days.contains(String(upper.prefix(3))) {
                    continue  // day names are not checked
                } else if time != nil {
                    offset = 0  // an unknown zone name after the time
                } else {
                    return nil
                }
            } else {
                return nil
            }
        }
        guard let day, let month, let year else { return nil }
        let (hour, minute, second) = time ?? (0, 0, 0)
        guard day <= daysIn(month: month, year: year) else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - (offset ?? 0)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// RFC 3339 first for text that starts with a year, else RFC 822; then the other one.
    static func parseAny(_ text: String) -> Date? {
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

    private static func parseTime(_ token: String) -> (Int, Int, Int)? {
        let parts = token.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        guard let hour = Int(parts[0]), let minute = Int(parts[1]) else { return nil }
        var second = 0
        if parts.count == 3 {
            // "05" or "05.123": fractions are dropped.
            guard let whole = Int(parts[2].prefix(while: { $0 != "." })) else { return nil }
            second = whole
        }
        guard (0...24).contains(hour), (0...59).contains(minute), (0...60).contains(second) else { return nil }
        return (hour, minute, min(second, 59))
    }

    private static func parseNumericZone(_ token: String) -> Int? {
        let sign = token.first == "-" ? -1 : 1
        let digits = token.dropFirst().filter { $0 != ":" }
        guard digits.utf8.allSatisfy({ isDigit($0) }) else { return nil }
        let hours: Int
        let minutes: Int
        switch digits.count {
        case 4:
            hours = Int(digits.prefix(2))!
            minutes = Int(digits.suffix(2))!
        case 1, 2:
            hours = Int(digits)!
            minutes = 0
        default: return nil
        }
        guard hours <= 14, minutes < 60 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }

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
