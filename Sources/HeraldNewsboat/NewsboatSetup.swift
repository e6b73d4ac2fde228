import HeraldCore
import HeraldConfig
public import Foundation

/// Where a newsboat setup keeps its files, found as newsboat finds them: a directory named
/// on the command line holds all three; else `~/.newsboat` when it exists; else the XDG
/// places, `urls` and `config` in `$XDG_CONFIG_HOME/newsboat` (`~/.config/newsboat`) and
/// `cache.db` in `$XDG_DATA_HOME/newsboat` (`~/.local/share/newsboat`).
public struct NewsboatSetup: Sendable, Equatable {
    public var urls: String
    public var config: String
    public var cache: String

    public init(urls: String, config: String, cache: String) {
        (self.urls, self.config, self.cache) = (urls, config, cache)
    }

    public static func locate(
        directory: String?, environment: [String: String],
        exists: (String) -> Bool = {
            FileManager.default.fileExists(atPath: $0)
        }
    ) -> NewsboatSetup {
        if let directory { return inside(directory) }
        func variable(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let home = variable("HOME") ?? NSHomeDirectory()
        let dotdir = home + "/.newsboat"
        if exists(dotdir) { return inside(dotdir) }
        let config = (variable("XDG_CONFIG_HOME") ?? home + "/.config") + "/newsboat"
        let data = (variable("XDG_DATA_HOME") ?? home + "/.local/share") + "/newsboat"
        guard exists(config) else { return inside(dotdir) }
        return NewsboatSetup(urls: config + "/urls", config: config + "/config", cache: data + "/cache.db")
    }

    private static func inside(_ directory: String) -> NewsboatSetup {
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return NewsboatSetup(urls: base + "/urls", config: base + "/config", cache: base + "/cache.db")
    }
}

/// The lines of a `urls` file that are not plain feeds: query feeds (translated to Herald's
/// `query` lines where they can be) and feeds hidden with the `!` tag.
public struct NewsboatURLExtras: Sendable, Equatable {
    /// A `"query:Name:expression"` line.
    public struct Query: Sendable, Hashable {
        public var line: Int
        public var name: String
        public var expression: String
        /// `query "Name" "EXPR"` for Herald's config, or why not.
        public var translation: Result<String, NewsboatFilter.Untranslatable>

        public static func == (a: Query, b: Query) -> Bool { a.line == b.line && a.name == b.name }
        public func hash(into hasher: inout Hasher) { hasher.combine(line) }
    }

    public var queries: [Query] = []
    /// Feeds newsboat hides from its feed list (`!`): Herald shows every feed.
    public var hidden: [(line: Int, url: String)] = []

    public static func == (a: NewsboatURLExtras, b: NewsboatURLExtras) -> Bool {
        a.queries == b.queries && a.hidden.map(\.line) == b.hidden.map(\.line)
    }

    public static func parse(_ text: String) -> NewsboatURLExtras {
        var extras = NewsboatURLExtras()
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
            .enumerated()
        {
            guard let words = NewsboatConfig.words(String(raw)), let first = words.first else { continue }
            if first.hasPrefix("query:") {
                let rest = first.dropFirst("query:".count)
                guard let colon = rest.firstIndex(of: ":") else { continue }
                let name = TextSanitizer.singleLine(String(rest[..<colon]))
                let expression = String(rest[rest.index(after: colon)...])
                let translation = Result { () throws(NewsboatFilter.Untranslatable) -> String in
                    let query = try NewsboatFilter.translate(expression)
                    // The expression as written: its quotes are its own.
                    return "query \(ConfigFile.word(name)) \(query)"
                }
                extras.queries.append(
                    Query(line: index + 1, name: name, expression: expression, translation: translation))
            } else if words.dropFirst().contains("!") {
                extras.hidden.append((index + 1, TextSanitizer.singleLine(first)))
            }
        }
        return extras
    }
}
