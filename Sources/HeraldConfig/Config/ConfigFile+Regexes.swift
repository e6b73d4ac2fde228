public import HeraldCore

/// A regular expression the config file runs: a `highlight`'s, or a `title:/…/` or
/// `author:/…/` of a `query` or `filter` line, with where it is written. `herald config
/// check` tries each on the library's titles or authors, as the reader would run it.
public struct ConfigRegex: Sendable, Hashable {
    public var line: Int
    public var column: Int
    /// `highlight`, `query` or `filter`.
    public var directive: String
    /// What it is matched against (a highlight: titles).
    public var field: QueryField
    public var pattern: String
    /// The file the line is in (the config, or a file it includes).
    public var file = ""
}

extension ConfigFile {
    /// The regular expressions of a `highlight`, `query` or `filter` line just read, from
    /// what it added to `config` since it held `before` of each (highlights, queries,
    /// filters). A query's pattern is placed at its text in the line when found there.
    static func regexes(
        added before: (highlights: Int, textHighlights: Int, queries: Int, filters: Int),
        to config: ReaderConfig,
        file: String, line: String, number: Int, directive: Word
    ) -> [ConfigRegex] {
        var found: [ConfigRegex] = []
        // A text highlight is tried on titles too: the library's bodies are too big to try.
        var patterns = config.highlights.dropFirst(before.highlights).map(\.pattern)
        for text in config.textHighlights.dropFirst(before.textHighlights)
        where !patterns.contains(text.pattern) {
            patterns.append(text.pattern)
        }
        for pattern in patterns {
            found.append(
                ConfigRegex(
                    line: number, column: column(of: pattern, in: line, or: directive.end + 1),
                    directive: directive.text, field: .title, pattern: pattern, file: file))
        }
        let queries =
            config.queries.dropFirst(before.queries).map(\.query)
            + config.filters.dropFirst(before.filters).map(\.query)
        for query in queries {
            for (field, pattern) in query.regexTerms {
                found.append(
                    ConfigRegex(
                        line: number, column: column(of: pattern, in: line, or: directive.end + 1),
                        directive: directive.text, field: field, pattern: pattern, file: file))
            }
        }
        return found
    }

    /// The 1-based column where `text` first stands in `line`, else `fallback`.
    private static func column(of text: String, in line: String, or fallback: Int) -> Int {
        guard let range = line.range(of: text) else { return fallback }
        return line.distance(from: line.startIndex, to: range.lowerBound) + 1
    }
}

extension ConfigRegex {
    /// What `herald config check` says of the pattern when it is too slow on the `field` of
    /// the newest `articles` articles: a mistake to fix (the reader would turn such a
    /// highlight off, leave such a filter out, and fail such a query).
    public func tooSlow(file: String, articles: Int) -> ConfigDiagnostic {
        ConfigDiagnostic(
            file: self.file.isEmpty ? file : self.file, line: line, column: column,
            message: "\(directive): \(SlowRegexError(pattern: pattern)), on a \(field.rawValue) of the "
                + "newest \(articles) articles in the library")
    }
}
