/// A number of minutes as a config line or a command writes it: `30`, `30m`, `90min`, `2h`,
/// `1d` (newsboat's `reload-time` is bare minutes, and both forms are read).
public enum MinutesText {
    /// How the forms are named in messages.
    public static let forms = "minutes (30), or with a unit: 30m, 2h, 1d"

    /// The minutes `text` names, nil when it names none or falls outside `range`.
    public static func parse(_ text: String, in range: ClosedRange<Int>) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 9, let number = Int(digits) else { return nil }
        let unit = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        let scale: Int
        switch unit {
        case "", "m", "min", "mins", "minute", "minutes": scale = 1
        case "h", "hr", "hrs", "hour", "hours": scale = 60
        case "d", "day", "days": scale = 1_440
        default: return nil
        }
        let minutes = number.multipliedReportingOverflow(by: scale)
        guard !minutes.overflow, range.contains(minutes.partialValue) else { return nil }
        return minutes.partialValue
    }

    /// Why `text` is not a number of minutes in `range`, naming the unit when it is one this
    /// does not take (seconds, weeks).
    public static func problem(_ text: String, in range: ClosedRange<Int>) -> String {
        let unit = text.trimmingCharacters(in: .whitespaces).lowercased().drop { $0.isASCII && $0.isNumber }
        if ["s", "sec", "secs", "second", "seconds"].contains(unit.trimmingCharacters(in: .whitespaces)) {
            return "counts minutes, not seconds: \(forms)"
        }
        if ["w", "week", "weeks"].contains(unit.trimmingCharacters(in: .whitespaces)) {
            return "takes minutes, hours or days, not weeks: \(forms)"
        }
        return "\(forms), from \(range.lowerBound) to \(range.upperBound) minutes"
    }
}
