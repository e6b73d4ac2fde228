public import Foundation

/// Dates as feeds write them.
public enum FeedDate {
    /// RFC 3339 / ISO 8601 with or without fractional seconds; nil when it is not one.
    public static func parseRFC3339(_ text: String) -> Date? {
        if let date = text.utf8.withContiguousStorageIfAvailable(parseCanonicalRFC3339) ?? nil { return date }
        return plausible(parseISO8601(text))
    }

    /// 1900-01-01T00:00:00Z. Earlier dates are placeholders, not publication dates: year 0000
    /// (which Foundation reads as 0000-01-03, proleptic Julian), or 0001-01-01, the zero
    /// date of Go's feed generators. Such an article counts as undated (it sorts by when it
    /// was first seen).
    public static let earliest = Date(timeIntervalSince1970: -2_208_988_800)

    /// `date` in whole seconds since 1970, nil outside `InputLimits.dateSeconds` (or not a
    /// number): the one conversion of a date to an integer, which a date from anywhere (a
    /// newsboat cache's `pubDate`) cannot make trap.
    public static func seconds(_ date: Date) -> Int64? {
        let value = date.timeIntervalSince1970.rounded(.towardZero)
        guard value.isFinite, let seconds = Int64(exactly: value), InputLimits.dateSeconds.contains(seconds)
        else { return nil }
        return seconds
    }

    /// The date when it is from 1900 on.
    static func plausible(_ date: Date?) -> Date? {
        guard let date, date >= earliest else { return nil }
        return date
    }

    /// The common form, `YYYY-MM-DDTHH:MM:SS[.000](Z|±HH:MM)`, read from the bytes: a valid
    /// calendar date from 1900 on, no fraction other than zeros. Anything else is nil and left
    /// to Foundation (`parseISO8601`), with which this agrees where it answers. (Foundation
    /// takes microseconds a date: a real cost in a parse of thousands of items.)
    static func parseCanonicalRFC3339(_ b: UnsafeBufferPointer<UInt8>) -> Date? {
        guard b.count >= 20 else { return nil }
        func number(_ from: Int, _ digits: Int) -> Int? {
            var value = 0
            for index in from..<from + digits {
                let digit = Int(b[index]) &- 0x30
                guard digit >= 0, digit <= 9 else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
            b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            year >= 1900, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }
        var index = 19
        if b[index] == UInt8(ascii: ".") {
            // Only zeros: Foundation's rounding of other fractions is not reproduced here.
            index += 1
            let digits = index
            while index < b.count, b[index] == UInt8(ascii: "0") { index += 1 }
            guard index > digits, index - digits <= 9, index < b.count else { return nil }
        }
        let offset: Int
        if b[index] == UInt8(ascii: "Z"), index + 1 == b.count {
            offset = 0
        } else if b[index] == UInt8(ascii: "+") || b[index] == UInt8(ascii: "-"), index + 6 == b.count,
            b[index + 3] == UInt8(ascii: ":"), let hours = number(index + 1, 2),
            let minutes = number(index + 4, 2),
            hours <= 14, minutes <= 59
        {
            offset = (hours * 3600 + minutes * 60) * (b[index] == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// RFC 3339 / ISO 8601 by Foundation's parser.
    static func parseISO8601(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let date = try? Date(trimmed, strategy: Date.ISO8601FormatStyle()) { return date }
        return try? Date(
            trimmed, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

/// Stable identities for items that carry neither id nor link.
public enum StableID {
    /// FNV-1a over title and date: the same item gets the same id on every fetch.
    public static func hash(title: String, date: Date?) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let key = title + "\u{1F}" + (date.map { String($0.timeIntervalSince1970) } ?? "")
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return "hash:" + String(hash, radix: 16)
    }
}
