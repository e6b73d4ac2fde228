/// A per-feed setting's name: what `feed URL KEY VALUE` (config) and `herald feed set URL KEY
/// VALUE` (library) accept.
public enum FeedSettingKey: String, Sendable, CaseIterable, Hashable {
    /// A title shown everywhere instead of the feed's own.
    case title
    /// The feed's tags, replacing the ones it has (comma- or space-separated).
    case tags
    /// Minutes: a reload of every feed skips this one until that long after its last try.
    case reloadInterval = "reload-interval"
    /// Keep at most this many articles of the feed (starred ones always stay).
    case keepArticles = "keep-articles"
    /// Keep the feed's articles this many days (starred ones always stay).
    case keepDays = "keep-days"
    /// Not reloaded; shown as disabled in the feed list.
    case disabled
    /// The User-Agent header sent when fetching the feed.
    case userAgent = "user-agent"
    /// Whether a reload fetches the web pages of the feed's new articles for their whole text.
    case fullArticle = "full-article"

    /// What the value must be, in words.
    public var expected: String {
        switch self {
        case .title: "a title"
        case .tags: "tags separated by commas or spaces"
        case .reloadInterval: "minutes from 0 to 525600 (0: no interval), or 30m, 2h, 1d"
        case .keepArticles: "a number of articles from 0 to 1000000 (0: all)"
        case .keepDays: "a number of days from 0 to 36500 (0: forever)"
        case .disabled: "yes or no"
        case .userAgent: "a line of text, no control characters"
        case .fullArticle: "yes, auto or no"
        }
    }

    /// What the setting does, for `herald --help`, the man page and docs/CONFIG.md.
    public var summary: String {
        switch self {
        case .title: "the title shown everywhere instead of the feed's own"
        case .tags: "the feed's tags, replacing its own"
        case .reloadInterval: "minutes between reloads of this feed (an explicit reload of it always fetches)"
        case .keepArticles: "keep the feed's newest N articles (and every starred one)"
        case .keepDays: "keep the feed's articles N days (starred ones always)"
        case .disabled: "yes: not reloaded (r on it still does), marked - in the feed list"
        case .userAgent: "the User-Agent sent when fetching this feed"
        case .fullArticle:
            "yes: fetch the web page of each new article for its whole text; auto: when the feed's text is short or ends in a read-more link"
        }
    }

    /// The value as stored (canonical), or the problem in words.
    public func normalize(_ text: String) -> Result<String, FeedSettingError> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let bad = FeedSettingError(key: self, value: text)
        switch self {
        case .title:
            let line = TextSanitizer.singleLine(trimmed).trimmingCharacters(in: .whitespaces)
            return line.isEmpty ? .failure(bad) : .success(line)
        case .tags:
            let tags = Self.splitTags(trimmed)
            return .success(tags.joined(separator: ", "))
        case .reloadInterval:
            return MinutesText.parse(trimmed, in: 0...525_600).map { .success(String($0)) } ?? .failure(bad)
        case .keepArticles: return Self.number(trimmed, 0...1_000_000, bad)
        case .keepDays: return Self.number(trimmed, 0...36_500, bad)
        case .disabled:
            switch trimmed.lowercased() {
            case "yes", "true", "on", "1": return .success("yes")
            case "no", "false", "off", "0": return .success("no")
            default: return .failure(bad)
            }
        case .userAgent:
            // Sent as an HTTP header: a CR or LF would start another header.
            if trimmed.isEmpty || trimmed.count > 512
                || trimmed.unicodeScalars.contains(where: {
                    $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
                })
            {
                return .failure(bad)
            }
            return .success(trimmed)
        case .fullArticle:
            return FullArticleMode(setting: trimmed).map { .success($0.rawValue) } ?? .failure(bad)
        }
    }

    private static func number(_ text: String, _ range: ClosedRange<Int>, _ bad: FeedSettingError)
        -> Result<String, FeedSettingError>
    {
        guard let value = Int(text), range.contains(value) else { return .failure(bad) }
        return .success(String(value))
    }

    /// `a, b c` → `["a", "b", "c"]`: commas and spaces separate, each tag once.
    public static func splitTags(_ text: String) -> [String] {
        var tags: [String] = []
        for word in text.split(whereSeparator: { $0 == "," || $0.isWhitespace }) {
            let tag = TextSanitizer.singleLine(String(word))
            if !tag.isEmpty, !tags.contains(tag) { tags.append(tag) }
        }
        return tags
    }
}

/// A value a per-feed setting does not take.
public struct FeedSettingError: Error, Sendable, Hashable, CustomStringConvertible {
    public var key: FeedSettingKey
    public var value: String

    public init(key: FeedSettingKey, value: String) {
        self.key = key
        self.value = value
    }

    public var description: String { "`\(value)` is not a \(key.rawValue) value (\(key.expected))" }
}

/// Where a feed's setting comes from: the config file wins over the library.
public enum FeedSettingSource: String, Sendable, Hashable {
    case config
    case library
}

/// A feed's settings in force, each key once (the config file's over the library's).
public struct FeedSettings: Sendable, Hashable {
    public var values: [FeedSettingKey: String]

    public init(values: [FeedSettingKey: String] = [:]) { self.values = values }

    public subscript(key: FeedSettingKey) -> String? { values[key] }

    public var disabled: Bool { values[.disabled] == "yes" }
    /// Minutes between reloads; nil when none (0 counts as none).
    public var reloadInterval: Int? {
        values[.reloadInterval].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil }
    }
    public var keepArticles: Int? { values[.keepArticles].flatMap(Int.init) }
    public var keepDays: Int? { values[.keepDays].flatMap(Int.init) }
    public var userAgent: String? { values[.userAgent] }
    /// nil: the feed has none of its own (the config's `full-article` applies).
    public var fullArticle: FullArticleMode? { values[.fullArticle].flatMap(FullArticleMode.init(setting:)) }
}

/// One `feed URL KEY VALUE` line of the config file (the value already normalised).
public struct FeedSettingLine: Sendable, Hashable {
    public var url: String
    public var key: FeedSettingKey
    public var value: String
    /// Where it was written, for a warning when the URL is not subscribed.
    public var file: String
    public var line: Int
    public var column: Int

    public init(url: String, key: FeedSettingKey, value: String, file: String, line: Int, column: Int) {
        (self.url, self.key, self.value) = (url, key, value)
        (self.file, self.line, self.column) = (file, line, column)
    }
}
