import HeraldCore
import HeraldConfig
public import Foundation

/// Where a newsboat setup keeps its files, found as newsboat finds them: a directory named
/// on the command line holds all three; else `~/.newsboat` when it exists; else the XDG
/// places, `urls` and `config` in `$XDG_CONFIG_HOME/newsboat` (`~/.config/newsboat`) and
/// `cache.db` in `$XDG_DATA_HOME/newsboat` (`~/.local/share/newsboat`). newsboat's own
/// options (`-u`, `-c`, `-C`) name one file each over what was found (`overriding`), and its
/// config's `cache-file` names the cache when `-c` does not (`followingCacheFile`).
///
/// Any of the three may be missing: `where` says how each path was chosen, for the report.
public struct NewsboatSetup: Sendable, Equatable {
    public var urls: String
    public var config: String
    public var cache: String
    /// How each path was chosen, in words: `the directory`, `~/.newsboat`, `-u`, …
    public var chosen = Chosen()

    public struct Chosen: Sendable, Equatable {
        public var urls = ""
        public var config = ""
        public var cache = ""
    }

    public init(urls: String, config: String, cache: String) {
        (self.urls, self.config, self.cache) = (urls, config, cache)
    }

    public static func == (a: NewsboatSetup, b: NewsboatSetup) -> Bool {
        (a.urls, a.config, a.cache) == (b.urls, b.config, b.cache)
    }

    public static func locate(
        directory: String?, environment: [String: String],
        exists: (String) -> Bool = {
            FileManager.default.fileExists(atPath: $0)
        }
    ) -> NewsboatSetup {
        if let directory { return inside(directory, chosen: "the directory named") }
        let home = Self.home(environment)
        let dotdir = home + "/.newsboat"
        if exists(dotdir) { return inside(dotdir, chosen: "~/.newsboat") }
        func variable(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let config = (variable("XDG_CONFIG_HOME") ?? home + "/.config") + "/newsboat"
        let data = (variable("XDG_DATA_HOME") ?? home + "/.local/share") + "/newsboat"
        // newsboat takes the XDG places when its config directory is there; a setup that
        // kept only its cache (in the data directory) is looked for there too.
        guard exists(config) || exists(data) else { return inside(dotdir, chosen: "~/.newsboat") }
        var setup = NewsboatSetup(
            urls: config + "/urls", config: config + "/config", cache: data + "/cache.db")
        setup.chosen = Chosen(
            urls: "XDG config directory", config: "XDG config directory", cache: "XDG data directory")
        return setup
    }

    /// The paths newsboat's options name, over those found: `-u`, `-c`, `-C` (`~` expanded,
    /// relative to the working directory, as newsboat takes them).
    public func overriding(
        urls: String?, cache: String?, config: String?, environment: [String: String]
    ) -> NewsboatSetup {
        var setup = self
        if let urls { (setup.urls, setup.chosen.urls) = (Self.path(urls, environment), "-u") }
        if let cache { (setup.cache, setup.chosen.cache) = (Self.path(cache, environment), "-c") }
        if let config { (setup.config, setup.chosen.config) = (Self.path(config, environment), "-C") }
        return setup
    }

    /// The cache the config names (`cache-file PATH`, the last one read; `~` expanded, a
    /// relative path taken from the working directory, as newsboat opens it), over the one
    /// found; `where` is where the line is (`config line 3`).
    public func followingCacheFile(_ value: String, at place: String, environment: [String: String])
        -> NewsboatSetup
    {
        var setup = self
        setup.cache = Self.path(value, environment)
        setup.chosen.cache = "cache-file, \(place)"
        return setup
    }

    /// `~` and `~/…` from HOME; a relative path from the working directory.
    static func path(_ text: String, _ environment: [String: String]) -> String {
        var path = text
        if path == "~" || path.hasPrefix("~/") { path = home(environment) + path.dropFirst() }
        if !path.hasPrefix("/") { path = FileManager.default.currentDirectoryPath + "/" + path }
        return path
    }

    static func home(_ environment: [String: String]) -> String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    }

    private static func inside(_ directory: String, chosen: String) -> NewsboatSetup {
        let base = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        var setup = NewsboatSetup(urls: base + "/urls", config: base + "/config", cache: base + "/cache.db")
        setup.chosen = Chosen(urls: chosen, config: chosen, cache: chosen)
        return setup
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
