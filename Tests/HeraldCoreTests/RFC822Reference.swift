import Foundation

@testable import HeraldCore

/// The reference reading of RFC 822 dates, Character by Character: `FeedDate.parseRFC822`
/// reads the bytes, and the fast-path tests hold it to this on thousands of generated dates.
enum RFC822Reference {
    /// RFC 822 Character by Character, as Herald read it before it read the bytes.
    static func parse(_ text: String) -> Date? {
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
                if month == nil, upper.count >= 3, let index = FeedDate.months.firstIndex(of: String(upper.prefix(3))) {
                    month = index + 1
                } else if let zone = FeedDate.namedZones[upper] {
                    offset = zone * 3600
                } else if upper.count == 1, upper != "J" {
                    offset = 0  // military zone: no information (RFC 1123 §5.2.14)
                } else if upper.count >= 3, FeedDate.days.contains(String(upper.prefix(3))) {
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
        guard day <= FeedDate.daysIn(month: month, year: year) else { return nil }
        let days = FeedDate.daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - (offset ?? 0)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }



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


    private static func isDigit(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte >= 0x30 && byte <= 0x39
    }
}
