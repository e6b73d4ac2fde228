public import HeraldCore

/// `feed URL KEY VALUE`: a per-feed setting (see `FeedSettingKey`). `title`, `tags` and
/// `user-agent` take the rest of the line (`feed URL title My feed` is `My feed`); the
/// others one word. The URL is checked against the library by whoever opens it
/// (`FeedSettingWarnings`), which the config file alone cannot know.
extension ConfigFile {
    static func feed(
        _ words: [Word], after directive: Word, file: String, line: Int, into config: inout ReaderConfig,
        diagnose: (Int, String) -> Void
    ) {
        guard words.count >= 3 else {
            let keys = FeedSettingKey.allCases.map(\.rawValue).joined(separator: ", ")
            return diagnose(
                (words.last ?? directive).end,
                "feed needs a URL, a setting and a value: feed URL KEY VALUE (\(keys))")
        }
        let (url, name) = (words[0], words[1])
        guard let key = FeedSettingKey(rawValue: name.text) else {
            return diagnose(name.column, unknownFeedSetting(name.text))
        }
        let values = words.dropFirst(2)
        switch key {
        case .title, .tags, .userAgent: break
        default:
            guard values.count == 1 else {
                return diagnose(
                    values[values.startIndex + 1].column,
                    "feed … \(key.rawValue) takes one value (\(key.expected))")
            }
        }
        let text = values.map(\.text).joined(separator: " ")
        switch key.normalize(text) {
        case .success(let value):
            config.feedSettings.append(
                FeedSettingLine(
                    url: url.text, key: key, value: value, file: file, line: line, column: url.column))
        case .failure(let error):
            diagnose(values[values.startIndex].column, "\(error)")
        }
    }
}

extension ConfigFile {
    /// `config default`'s part on `feed` lines: every key, what it takes and does.
    static func feedSettingLines() -> [String] {
        var lines = [
            "#",
            "# A feed's own settings (feed URL KEY VALUE; herald feed set URL KEY VALUE keeps one in the",
            "# library; the config file's wins):",
        ]
        for key in FeedSettingKey.allCases {
            lines.append("#   feed URL \(key.rawValue): \(key.summary) (\(key.expected))")
        }
        return lines
    }

    /// "unknown feed setting `titel` — did you mean `title`? (title, tags, …)"
    public static func unknownFeedSetting(_ name: String) -> String {
        "unknown feed setting `\(name)`"
            + suggestion(for: name, among: FeedSettingKey.allCases.map(\.rawValue))
            + " (" + FeedSettingKey.allCases.map(\.rawValue).joined(separator: ", ") + ")"
    }
}

/// What the config file's `feed` lines mean against a library: a warning for each URL that
/// no feed has (the line does nothing).
public enum FeedSettingWarnings {
    public static func unknownFeeds(_ lines: [FeedSettingLine]) -> [ConfigDiagnostic] {
        lines.map {
            ConfigDiagnostic(
                file: $0.file, line: $0.line, column: $0.column,
                message: "warning: no feed \(TextSanitizer.singleLine($0.url)) in the library; "
                    + "the line does nothing (`herald add URL` first)")
        }
    }
}
