public import Foundation
import HeraldCore

/// How dates are written in the article lists and the article header (`set date-format`).
///
/// A name (`iso` 2026-11-03, `european` 03.11.2026, `us` 11/03/2026, `short` Nov 03,
/// `long` Tue 03 Nov 2026) or a pattern of strftime's fields: `%Y %y %m %d %e %H %M %S %I
/// %p %b %h %B %a %A %j %F %R %T %%` (month and day names in English). Every field has one
/// width (a full month or day name is padded to the longest, `September`), so the date
/// column keeps its width whatever the date: `width` is the column's. newsboat's
/// `datetime-format` is such a pattern (`%b %d` its default).
public struct DateFormat: Sendable, Hashable {
    /// The pattern, strftime-like.
    public let pattern: String

    public static let names: [(name: String, pattern: String)] = [
        ("iso", "%Y-%m-%d"), ("european", "%d.%m.%Y"), ("us", "%m/%d/%Y"), ("short", "%b %d"),
        ("long", "%a %d %b %Y"),
    ]
    public static let iso = DateFormat(checked: "%Y-%m-%d")

    private init(checked pattern: String) { self.pattern = pattern }

    /// A name or a pattern; the problem in words when it is neither.
    public static func parse(_ text: String) -> Result<DateFormat, DateFormatError> {
        if let named = names.first(where: { $0.name == text.lowercased() }) {
            return .success(DateFormat(checked: named.pattern))
        }
        guard text.contains("%") else {
            return .failure(
                DateFormatError(
                    message:
                        "a date format is one of \(names.map(\.name).joined(separator: ", ")) or a %-pattern")
            )
        }
        var percent = false
        for character in text {
            if percent {
                guard fieldWidth(character) != nil else {
                    return .failure(
                        DateFormatError(
                            message: "`%\(character)` is not a date field (\(fieldList))")
                    )
                }
                percent = false
            } else if character == "%" {
                percent = true
            } else if character.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                return .failure(DateFormatError(message: "a date format cannot hold control characters"))
            }
        }
        if percent { return .failure(DateFormatError(message: "the date format ends in a lone %")) }
        return .success(DateFormat(checked: text))
    }

    /// Columns every date takes.
    public var width: Int {
        var width = 0
        var percent = false
        for character in pattern {
            if percent {
                width += Self.fieldWidth(character) ?? 0
                percent = false
            } else if character == "%" {
                percent = true
            } else {
                width += DisplayWidth.of(character)
            }
        }
        return width
    }

    /// True when the pattern shows the time of day.
    public var hasTime: Bool { ["%H", "%M", "%I", "%R", "%T"].contains { pattern.contains($0) } }

    /// The fields a pattern may hold, as the messages name them.
    static let fieldList = "%Y %y %m %d %e %H %M %S %I %p %b %h %B %a %A %j %F %R %T %%"

    private static func fieldWidth(_ field: Character) -> Int? {
        switch field {
        case "Y": 4
        case "y", "m", "d", "e", "H", "M", "S", "I", "p": 2
        case "b", "h", "a", "j": 3
        // Full names, padded to the longest (`September`, `Wednesday`).
        case "B", "A": 9
        case "F": 10
        case "R": 5
        case "T": 8
        case "%": 1
        default: nil
        }
    }

    private static let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let fullMonths = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]
    private static let fullWeekdays = [
        "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
    ]

    /// The date written in this format, in the calendar's zone.
    public func string(_ date: Date, calendar: Calendar) -> String {
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let dayOfYear = calendar.ordinality(of: .day, in: .year, for: date) ?? 1
        func two(_ n: Int?, pad: Character = "0") -> String {
            let n = n ?? 0
            return n < 10 ? "\(pad)\(n)" : "\(n % 100)"
        }
        var out = ""
        var percent = false
        for character in pattern {
            guard percent else {
                if character == "%" { percent = true } else { out.append(character) }
                continue
            }
            percent = false
            switch character {
            case "Y": out += String(String(c.year ?? 0).suffix(4)).leftPadded(to: 4)
            case "y": out += two((c.year ?? 0) % 100)
            case "m": out += two(c.month)
            case "d": out += two(c.day)
            case "e": out += two(c.day, pad: " ")
            case "H": out += two(c.hour)
            case "M": out += two(c.minute)
            case "S": out += two(c.second)
            case "I": out += two(((c.hour ?? 0) + 11) % 12 + 1)
            case "p": out += (c.hour ?? 0) < 12 ? "AM" : "PM"
            case "F": out += DateFormat.iso.string(date, calendar: calendar)
            case "R": out += two(c.hour) + ":" + two(c.minute)
            case "T": out += two(c.hour) + ":" + two(c.minute) + ":" + two(c.second)
            case "b", "h": out += Self.months[((c.month ?? 1) - 1 + 12) % 12]
            case "B": out += Self.padded(Self.fullMonths[((c.month ?? 1) - 1 + 12) % 12], to: 9)
            case "a": out += Self.weekdays[((c.weekday ?? 1) - 1 + 7) % 7]
            case "A": out += Self.padded(Self.fullWeekdays[((c.weekday ?? 1) - 1 + 7) % 7], to: 9)
            case "j": out += String(dayOfYear).leftPadded(to: 3, with: "0")
            default: out.append("%")
            }
        }
        return out
    }

    private static func padded(_ name: String, to width: Int) -> String {
        name + String(repeating: " ", count: max(0, width - name.count))
    }
}

/// Why a date format was refused.
public struct DateFormatError: Error, Sendable, Equatable {
    public var message: String
}

extension String {
    fileprivate func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
