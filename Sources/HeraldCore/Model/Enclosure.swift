import Foundation

/// A media file attached to an article: a podcast episode's audio, a video, a document.
///
/// Read from RSS `<enclosure>`, Atom `<link rel="enclosure">`, JSON Feed `attachments` and
/// Media RSS `media:content`; the duration may come from `itunes:duration`.
public struct Enclosure: Sendable, Hashable, Codable {
    /// Where the file is (absolute; from the feed, so hostile until checked).
    public var url: String
    /// The MIME type the feed gives (`audio/mpeg`), if any.
    public var type: String?
    /// The size in bytes the feed gives, if any (feeds often say 0 or lie).
    public var length: Int64?
    /// The running time in seconds, if the feed gives it.
    public var duration: Int?
    /// A title for the file (JSON Feed attachments, `media:title`), if any.
    public var title: String?

    public init(
        url: String, type: String? = nil, length: Int64? = nil, duration: Int? = nil, title: String? = nil
    ) {
        self.url = url
        self.type = type
        self.length = length
        self.duration = duration
        self.title = title
    }

    /// What the file is, for a label: `Podcast` for audio, `Video`, `Image`, else `Media`.
    public var kindLabel: String {
        let type = (type ?? "").lowercased()
        if type.hasPrefix("audio/") { return "Podcast" }
        if type.hasPrefix("video/") { return "Video" }
        if type.hasPrefix("image/") { return "Image" }
        let path = url.lowercased().split(separator: "?").first.map(String.init) ?? ""
        for (suffixes, label) in [
            ([".mp3", ".m4a", ".ogg", ".opus", ".aac", ".flac", ".wav"], "Podcast"),
            ([".mp4", ".m4v", ".webm", ".mkv", ".mov"], "Video"),
        ] where suffixes.contains(where: path.hasSuffix) {
            return label
        }
        return "Media"
    }

    /// `audio/mpeg, 48 MB, 1:02:13`: what is known of the file, or "" when nothing is.
    public var details: String {
        var parts: [String] = []
        if let type, !type.isEmpty { parts.append(type) }
        if let length, length > 0 { parts.append(Self.size(length)) }
        if let duration, duration > 0 { parts.append(Self.duration(duration)) }
        return parts.joined(separator: ", ")
    }

    /// `Podcast: URL (audio/mpeg, 48 MB, 1:02:13)`.
    public var summary: String {
        let details = self.details
        return "\(kindLabel): \(url)" + (details.isEmpty ? "" : " (\(details))")
    }

    /// Bytes in the units people read: `812 B`, `3.4 KB`, `48 MB`, `1.2 GB` (powers of 1000,
    /// as players and podcast sites show them).
    public static func size(_ bytes: Int64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        if unit == 0 { return "\(bytes) B" }
        let shown = value < 10 ? (value * 10).rounded() / 10 : value.rounded()
        let text = shown == shown.rounded() ? String(Int(shown)) : String(shown)
        return "\(text) \(units[unit])"
    }

    /// `1:02:13`, `42:05`, `0:59`.
    public static func duration(_ seconds: Int) -> String {
        let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    /// Reads `itunes:duration`: `3723`, `62:03`, `1:02:03` (nil for anything else).
    public static func parseDuration(_ text: String) -> Int? {
        if let seconds = parseDurationBytes(text.utf8) { return seconds }
        return parseDurationSlowly(text)
    }

    /// `parseDuration` by a byte scan for the usual shapes (ASCII digits, `:`, a fraction of a
    /// second), nil when unsure: one per enclosure and item, Foundation's trimming was most of
    /// the cost of a podcast item.
    static func parseDurationBytes(_ utf8: String.UTF8View) -> Int? {
        var total = 0
        var part = 0
        var digits = 0
        var parts = 1
        var inFraction = false
        var started = false
        var trailing = false
        for byte in utf8 {
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D:
                if started { trailing = true }
            case _ where trailing: return nil
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                started = true
                if inFraction { continue }
                digits += 1
                guard digits <= 9 else { return nil }
                part = part * 10 + Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "."):
                guard digits > 0 else { return nil }
                inFraction = true
            case UInt8(ascii: ":"):
                guard digits > 0, parts < 3 else { return nil }
                total = total * 60 + part
                (part, digits, parts, inFraction, started) = (0, 0, parts + 1, false, true)
            default: return nil
            }
        }
        guard digits > 0 else { return nil }
        return total * 60 + part
    }

    static func parseDurationSlowly(_ text: String) -> Int? {
        let parts = text.trimmingCharacters(in: .whitespacesAndNewlines).split(
            separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0
        for part in parts {
            guard let n = Int(part.split(separator: ".").first ?? ""), n >= 0, n < 1_000_000_000 else {
                return nil
            }
            total = total * 60 + n
        }
        return total
    }
}
