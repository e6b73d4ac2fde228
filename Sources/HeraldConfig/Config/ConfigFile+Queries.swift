import HeraldCore

/// The config's queries and filters, in Herald's query language:
///
///     query "Name" EXPR…           a named list of the articles matching EXPR
///     filter EXPR… ACTION          articles matching EXPR are stored read (mark-read), kept
///                                  out of sight (hide), not stored (skip) or removed for good
///                                  (delete)
///
/// The expression is the rest of the line as written (its quotes are the query's own), so
/// a mistake in it is reported at its own column in the line.
extension ConfigFile {
    static func query(
        _ words: [Word], after directive: Word, line: String, into config: inout ReaderConfig,
        diagnose: (Int, String) -> Void
    ) {
        guard words.count >= 2 else {
            return diagnose(
                (words.last ?? directive).end, "query needs a name and an expression: query \"Name\" EXPR…")
        }
        let name = words[0].text
        guard !name.isEmpty else { return diagnose(words[0].column, "a query's name cannot be empty") }
        guard !config.queries.contains(where: { $0.name == name }) else {
            return diagnose(
                words[0].column, "a query named \"\(name)\" is defined above; the line is ignored")
        }
        guard let (query, text) = expression(words[1...], in: line, diagnose: diagnose) else { return }
        config.queries.append(NamedQuery(name: name, query: query, text: text))
    }

    /// A `delete` filter is also noted (`note`): `herald config check` says that it deletes
    /// for good, which the other actions do not.
    static func filter(
        _ words: [Word], after directive: Word, line: String, into config: inout ReaderConfig,
        diagnose: (Int, String) -> Void, note: (Int, String) -> Void
    ) {
        let filter: ConfigDirective
        let expressionColumn: Int
        switch filterDirective(words, after: directive, line: line) {
        case .success(let read): (filter, expressionColumn) = read
        case .failure(let mistake): return diagnose(mistake.column, mistake.message)
        }
        let problems = config.apply(filter)
        for problem in problems {
            if case .expression(let column) = problem.part {
                diagnose(expressionColumn + column - 1, problem.message)
            } else {
                diagnose(expressionColumn, problem.message)
            }
        }
        if problems.isEmpty, case .filter(_, .delete) = filter, let last = words.last {
            note(
                last.column,
                "warning: this filter deletes the articles it matches for good, stored ones too (not "
                    + "starred ones); `hide` keeps them out of sight, `skip` keeps only new ones out")
        }
    }

    /// The filter a `filter` line's words (after `filter`) say, and the column its
    /// expression starts at; or what is wrong with the words, at its column. The expression
    /// is not parsed here: `ReaderConfig.apply` does that, for built filters too.
    static func filterDirective(
        _ words: [Word], after directive: Word, line: String
    ) -> Result<(ConfigDirective, expressionColumn: Int), ConfigMistake> {
        let actions = FilterAction.allCases.map(\.rawValue)
        guard let last = words.last, let first = words.first, words.count >= 2 else {
            return .failure(
                ConfigMistake(
                    column: (words.last ?? directive).end,
                    message:
                        "filter needs an expression and an action: filter EXPR… mark-read|hide|skip|delete"))
        }
        guard let action = FilterAction(rawValue: last.text) else {
            return .failure(
                ConfigMistake(
                    column: last.column,
                    message:
                        "a filter ends with its action (mark-read, hide, skip or delete), not `\(last.text)`"
                        + suggestion(for: last.text, among: actions)))
        }
        return .success((.filter(query: text(of: words.dropLast(), in: line), action: action), first.column))
    }

    /// A word of a line that cannot be read, at its column (as `ConfigDiagnostic` places it).
    struct ConfigMistake: Error {
        var column: Int
        var message: String
    }

    /// The query written over `words` (their text as it stands in the line), parsed; a
    /// parse error is diagnosed at its column in the line.
    private static func expression(
        _ words: ArraySlice<Word>, in line: String, diagnose: (Int, String) -> Void
    ) -> (ArticleQuery, String)? {
        guard let first = words.first else { return nil }
        let text = text(of: words, in: line)
        do {
            return (try ArticleQuery.parse(text), text)
        } catch {
            diagnose(first.column + error.column - 1, "query: \(error.message)")
            return nil
        }
    }

    /// The text of `line` from the first of `words` to the end of the last, as written.
    private static func text(of words: ArraySlice<Word>, in line: String) -> String {
        guard let first = words.first, let last = words.last else { return "" }
        let characters = Array(line)
        let start = first.column - 1
        let end = min(max(last.end - 1, start), characters.count)
        return String(characters[start..<end])
    }

    /// The lines `herald config default` prints about queries and filters.
    static let queriesDefaultText = [
        "#",
        "# Queries (query \"NAME\" EXPR…): a named list of the articles matching EXPR (checked by",
        "#   `herald config check`; `herald list --query EXPR` prints one).",
        "# Filters (filter EXPR… ACTION): new articles matching EXPR are stored read (mark-read);",
        "#   matching articles, stored ones too, are kept out of sight (hide: they show again",
        "#   without the filter); new ones are not stored (skip: they come without it); or they",
        "#   are removed for good (delete: also the stored ones). Starred articles: never hidden",
        "#   or removed. When several match, delete wins over skip over hide over mark-read.",
        "# EXPR: words and \"phrases\" (searched), unread read starred unstarred podcast, feed:TEXT tag:NAME",
        "#   author:TEXT title:TEXT title:/REGEX/ author:/REGEX/ age<7d age>=2w (h d w y) after:2026-01-01",
        "#   before:2026-01-01; terms side by side must all hold, `or` needs either, - negates, ( ) group.",
        "# query \"Unread news\" tag:news unread",
        "# filter title:/sponsored/ mark-read",
    ]
}
