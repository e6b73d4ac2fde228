/// The order of the feed list (`set feed-sort`).
public enum FeedSort: String, Sendable, CaseIterable {
    /// As the feeds were added (the urls file's order).
    case config
    /// By title, as a person sorts (case and digits considered).
    case title
    /// Most unread articles first.
    case unread
}

extension Settings {
    /// How the reader draws: colours, the article's column, dates, which rows lists show,
    /// their order and the cursor.
    static let displaySpecs: [Spec] = [
        Spec(
            name: "colors", kind: .bool, defaultValue: "yes",
            summary:
                "draw in colour (no: attributes only, as on a terminal without colours or with NO_COLOR set)"),
        Spec(
            name: "text-width", kind: .integer(0...1000), defaultValue: "0",
            summary: "an article's text is at most this many columns wide (0: the window's width)"),
        Spec(
            name: "text-align", kind: .choice(["left", "centre"]), defaultValue: "left",
            summary: "where an article narrower than the window (text-width) sits: left or centre"),
        Spec(
            name: "date-format", kind: .dateFormat, defaultValue: "iso",
            summary:
                "dates in the article lists and the article header: iso 2026-11-03, european 03.11.2026, us 11/03/2026, short Nov 03, long Tue 03 Nov 2026, or a pattern of %Y %y %m %d %e %H %M %b %a %j (%S %I %p %B %A %F %R %T too)"
        ),
        Spec(
            name: "datetime-format", kind: .dateFormat, defaultValue: "",
            summary:
                "dates in the article lists (the date column and %D), as newsboat's datetime-format: a pattern such as %b %d (%S %I %p %B %A %F %R %T too); unset: date-format"
        ),
        Spec(
            name: "articlelist-format", kind: .listFormat(.articles), defaultValue: "",
            summary:
                "the article lists' rows, as newsboat's: %i number, %f flags, %n N when unread, %D date, %t title, %a author, %T feed (lists of many feeds); %4i right-aligned, %-17T left-aligned in 17 columns, %> fills to the right edge, %?T?…&…? when %T has text; unset: Herald's row"
        ),
        Spec(
            name: "feedlist-format", kind: .listFormat(.feeds), defaultValue: "",
            summary:
                "the feed list's rows, as newsboat's: %i number, %n N when unread, %u (unread/total), %U unread, %c total, %t title, %T first tag, %l site, %L address, %S ! failed or - disabled; unset: Herald's row"
        ),
        Spec(
            name: "show-read-feeds", kind: .bool, defaultValue: "yes",
            summary: "the feed list shows feeds without unread articles"),
        Spec(
            name: "show-read-articles", kind: .bool, defaultValue: "yes",
            summary:
                "article lists show read articles (no: unread only; an article read stays until the list is opened again)"
        ),
        Spec(
            name: "feed-sort", kind: .choice(FeedSort.allCases.map(\.rawValue)), defaultValue: "config",
            summary: "the feed list's order: config (as added), title, or unread (most unread first)"),
        Spec(
            name: "article-sort", kind: .choice(["newest", "oldest"]), defaultValue: "newest",
            summary: "the article lists' order: newest first, or oldest first (as a book is read)"),
        Spec(
            name: "cursor", kind: .choice(["bar", "arrow"]), defaultValue: "bar",
            summary: "the selected row: a bar across the screen, or arrow (a > alone: monochrome, slow links)"
        ),
    ]

    /// Sets a display setting from its config text; the problem in words when it does not fit.
    mutating func setDisplay(_ spec: Spec, _ text: String) -> String? {
        let word = text.lowercased()
        switch spec.kind {
        case .bool:
            let value: Bool
            switch word {
            case "yes", "true", "on", "1": value = true
            case "no", "false", "off", "0": value = false
            default: return "\(spec.name) is \(spec.kind.expected)"
            }
            if spec.name == "colors" { colors = value }
            if spec.name == "show-read-feeds" { showReadFeeds = value }
            if spec.name == "show-read-articles" { showReadArticles = value }
        case .integer(let range):
            guard let value = Int(text), range.contains(value) else {
                return "\(spec.name) is \(spec.kind.expected)"
            }
            if spec.name == "text-width" { textWidth = value }
        case .choice(let words):
            // British and American spellings alike.
            let value = word == "center" ? "centre" : word
            guard words.contains(value) else { return "\(spec.name) is \(spec.kind.expected)" }
            switch spec.name {
            case "text-align": centreText = value == "centre"
            case "feed-sort": feedSort = FeedSort(rawValue: value) ?? .config
            case "article-sort": oldestFirst = value == "oldest"
            case "cursor": arrowCursor = value == "arrow"
            default: break
            }
        case .dateFormat:
            if spec.name == "datetime-format", text.isEmpty {
                listDateFormat = nil
                return nil
            }
            switch DateFormat.parse(text) {
            case .success(let format) where spec.name == "datetime-format": listDateFormat = format
            case .success(let format): dateFormat = format
            case .failure(let error): return error.message
            }
        case .listFormat(let target):
            guard !text.isEmpty else {
                if target == .articles { articleListFormat = nil } else { feedListFormat = nil }
                return nil
            }
            switch ListFormat.parse(text, for: target) {
            case .success(let format):
                if target == .articles { articleListFormat = format } else { feedListFormat = format }
            case .failure(let error): return "at column \(error.column) of the format: \(error.message)"
            }
        case .command, .folder, .minutes, .text, .secret: break
        }
        return nil
    }

    /// The theme with the display settings in it (the views read them from the theme);
    /// `colors no` is the app's to apply (`ReaderApp.applyDisplaySettings`).
    package func applied(to theme: Theme) -> Theme {
        var theme = theme
        theme.dateFormat = dateFormat
        theme.listDateFormat = listDateFormat
        theme.articleListFormat = articleListFormat
        theme.feedListFormat = feedListFormat
        theme.textWidth = textWidth
        theme.centreText = centreText
        theme.arrowCursor = arrowCursor
        return theme
    }
}
