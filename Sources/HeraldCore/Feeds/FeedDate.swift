public import Foundation

/// Dates as feeds write them.
public enum FeedDate {
    /// RFC 3339 / ISO 8601 with or without fractional seconds; nil when it is not one.
    public static func parseRFC3339(_ text: String) -> Date? {
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
