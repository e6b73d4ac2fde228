import Foundation

/// `FeedDate.parseRFC822` on the UTF-8 bytes of ASCII text, token by token, without creating
/// a String per token. (A Character-level reading in the tests, `RFC822Reference`, is what
/// it is held to.)
enum RFC822Bytes {
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var fields = Fields()
        var start = 0
        for index in 0...bytes.count {
            guard index == bytes.count || isSeparator(bytes[index]) else { continue }
            if index > start {
                guard fields.take(UnsafeBufferPointer(rebasing: bytes[start..<index])) else { return nil }
            }
            start = index + 1
        }
        return fields.date
    }

    static func isSeparator(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == UInt8(ascii: ",") || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    /// What the tokens have said so far.
    struct Fields {
        var day: Int?
        var month: Int?
        var year: Int?
        var time: (Int, Int, Int)?
        var offset: Int?  // seconds east of UTC

        /// Reads one token; false when it spoils the date.
        mutating func take(_ token: UnsafeBufferPointer<UInt8>) -> Bool {
            let first = token[0]
            if time == nil, token.contains(UInt8(ascii: ":")), isDigit(first) {
                guard let parsed = RFC822Bytes.time(token) else { return false }
                time = parsed
            } else if first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
                guard time != nil || year != nil, let zone = numericZone(token) else { return false }
                offset = zone
            } else if token.allSatisfy(isDigit) {
                guard let value = integer(token[...]) else { return false }
                if day == nil, token.count <= 2, (1...31).contains(value) {
                    day = value
                } else if year == nil {
                    switch token.count {
                    case 2: year = value < 50 ? 2000 + value : 1900 + value
                    case 3: year = 1900 + value
                    case 4: year = value
                    default: return false
                    }
                } else {
                    return false
                }
            } else if token.allSatisfy(isLetter) {
                let upper = String(decoding: token.lazy.map { $0 & ~0x20 }, as: UTF8.self)
                let head = upper.count >= 3 ? String(upper.prefix(3)) : nil
                if month == nil, let head, let index = FeedDate.months.firstIndex(of: head) {
                    month = index + 1
                } else if let zone = FeedDate.namedZones[upper] {
                    offset = zone * 3600
                } else if upper.count == 1, upper != "J" {
                    offset = 0  // military zone: no information (RFC 1123 §5.2.14)
                } else if let head, FeedDate.days.contains(head) {
                    // day names are not checked
                } else if time != nil {
                    offset = 0  // an unknown zone name after the time
                } else {
                    return false
                }
            } else {
                return false
            }
            return true
        }

        var date: Date? {
            guard let day, let month, let year else { return nil }
            let (hour, minute, second) = time ?? (0, 0, 0)
            guard day <= FeedDate.daysIn(month: month, year: year) else { return nil }
            let days = FeedDate.daysFromCivil(year: year, month: month, day: day)
            let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - (offset ?? 0)
            return Date(timeIntervalSince1970: TimeInterval(seconds))
        }
    }

    /// `Int(String)` on ASCII bytes: an optional sign, then digits only; nil on overflow.
    static func integer(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        var digits = bytes
        var negative = false
        if let sign = digits.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard isDigit(byte) else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let digit = Int(byte - 0x30)
            let (next, overflow2) =
                negative
                ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            guard !overflow1, !overflow2 else { return nil }
            value = next
        }
        return value
    }

    /// "hh:mm" or "hh:mm:ss" (seconds may carry a fraction, dropped).
    static func time(_ token: UnsafeBufferPointer<UInt8>) -> (Int, Int, Int)? {
        let parts = token.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        guard let hour = integer(parts[0]), let minute = integer(parts[1]) else { return nil }
        var second = 0
        if parts.count == 3 {
            guard let whole = integer(parts[2].prefix(while: { $0 != UInt8(ascii: ".") })) else { return nil }
            second = whole
        }
        guard (0...24).contains(hour), (0...59).contains(minute), (0...60).contains(second) else {
            return nil
        }
        return (hour, minute, min(second, 59))
    }

    /// "+hhmm", "-hh:mm", "+h", "-hh": seconds east of UTC.
    static func numericZone(_ token: UnsafeBufferPointer<UInt8>) -> Int? {
        let sign = token[0] == UInt8(ascii: "-") ? -1 : 1
        var digits: [Int] = []
        for byte in token.dropFirst() where byte != UInt8(ascii: ":") {
            guard isDigit(byte) else { return nil }
            digits.append(Int(byte - 0x30))
        }
        let hours: Int
        let minutes: Int
        switch digits.count {
        case 4:
            hours = digits[0] * 10 + digits[1]
            minutes = digits[2] * 10 + digits[3]
        case 1: (hours, minutes) = (digits[0], 0)
        case 2: (hours, minutes) = (digits[0] * 10 + digits[1], 0)
        default: return nil
        }
        guard hours <= 14, minutes < 60 else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }
}
