public import Foundation
public import HeraldCore

/// Where a podcast episode goes: `download-path` (a folder, `~/` the home) and
/// `download-filename-format`, with newsboat's `%`-fields filled from the episode.
///
/// A field's value comes from a feed or a server, so it is hostile: it becomes one path
/// component, never a folder or a way out (`/` turns into `-`, controls go, a leading `.` goes,
/// so `..` cannot climb), and it is cut to a length every file system takes. The folder's own
/// text is the user's, taken as written. The file name as a whole is one component too.
public enum EpisodePath {
    public struct Episode: Sendable {
        public var url: String
        public var title: String
        public var feedTitle: String
        public var feedURL: String?
        public var published: Date?
        public var type: String?

        public init(
            url: String, title: String, feedTitle: String, feedURL: String? = nil, published: Date? = nil,
            type: String? = nil
        ) {
            (self.url, self.title, self.feedTitle, self.feedURL, self.published, self.type) =
                (url, title, feedTitle, feedURL, published, type)
        }
    }

    /// The file's absolute path.
    public static func path(
        for episode: Episode, folder: ListFormat, name: ListFormat, home: String = HomeFolder.path,
        timeZone: TimeZone = .current
    ) -> String {
        let value = values(of: episode, timeZone: timeZone)
        var directory = folder.text { component(value($0)) }
        if directory == "~" || directory.hasPrefix("~/") { directory = home + directory.dropFirst() }
        if !directory.hasPrefix("/") { directory = home + "/" + directory }
        var file = component(name.text { component(value($0)) })
        if file.isEmpty { file = "episode" }
        // A name never ends like a download's part (`x.mp3.part` would be another's part).
        if file.lowercased().hasSuffix(".part") { file = String(file.dropLast(5)) + "-part" }
        return URL(fileURLWithPath: directory).appendingPathComponent(file).standardizedFileURL.path
    }

    /// The fields' values (unsanitised).
    static func values(of episode: Episode, timeZone: TimeZone) -> (Character) -> String {
        let address = URL(string: episode.url)
        let fileName = (address?.path).map { ($0 as NSString).lastPathComponent } ?? ""
        var ext = (fileName as NSString).pathExtension
        if ext.isEmpty, let type = episode.type?.lowercased() { ext = extensions[type] ?? "" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let date = episode.published ?? Date()
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let host = URL(string: episode.feedURL ?? "")?.host ?? address?.host ?? ""
        return { letter in
            switch letter {
            case "u": fileName == "/" ? "" : fileName
            case "n", "N": episode.feedTitle
            case "h": host
            case "t": episode.title
            case "e": ext
            case "F": "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day))"
            case "Y": "\(parts.year ?? 0)"
            case "y": two((parts.year ?? 0) % 100)
            case "m": two(parts.month)
            case "b": months[max(0, min(11, (parts.month ?? 1) - 1))]
            case "d": two(parts.day)
            case "H": two(parts.hour)
            case "M": two(parts.minute)
            case "S": two(parts.second)
            default: ""
            }
        }
    }

    static let extensions = [
        "audio/mpeg": "mp3", "audio/mp3": "mp3", "audio/mp4": "m4a", "audio/x-m4a": "m4a", "audio/aac": "aac",
        "audio/ogg": "ogg", "audio/opus": "opus", "audio/flac": "flac", "audio/wav": "wav", "video/mp4": "mp4",
        "video/webm": "webm", "video/quicktime": "mov", "application/pdf": "pdf",
    ]

    /// Text as one file name component: no `/`, no controls or invisible format characters,
    /// no leading dots or spaces (`_` if nothing is left), at most 200 bytes of UTF-8 (cut between characters).
    public static func component(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                continue
            default: break
            }
            kept.append(scalar == "/" || scalar == "\\" ? "-" : scalar)
        }
        var name = String(kept).trimmingCharacters(in: .whitespaces)
        while name.hasPrefix(".") || name.hasPrefix(" ") { name.removeFirst() }
        var cut = ""
        for character in name {
            guard cut.utf8.count + character.utf8.count <= 200 else { break }
            cut.append(character)
        }
        cut = cut.trimmingCharacters(in: .whitespaces)
        // Text that was all dots, slashes or controls is not nothing (nothing would drop a
        // folder of the path, and `%?X?` tests the raw field anyway).
        return cut.isEmpty && !text.isEmpty ? "_" : cut
    }
}

extension EpisodePath {
    /// The episode of an article (its first enclosure that is not a picture) as the queue
    /// takes it, going where the settings say; nil: the article has none.
    public static func request(
        for article: Article, feedURL: String?, settings: Settings, home: String = HomeFolder.path
    ) -> DownloadRequest? {
        guard
            let media = article.enclosures.first(where: { $0.kindLabel != "Image" })
                ?? article.enclosures.first
        else { return nil }
        let episode = Episode(
            url: media.url, title: article.summary.title, feedTitle: article.feedTitle, feedURL: feedURL,
            published: article.summary.published, type: media.type)
        return DownloadRequest(
            url: media.url,
            path: path(for: episode, folder: settings.downloadPath, name: settings.downloadFileName, home: home),
            title: article.summary.title, feedTitle: article.feedTitle,
            size: media.length.flatMap { $0 > 0 ? $0 : nil })
    }
}
