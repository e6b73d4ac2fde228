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
        let actions = FilterAction.allCases.map(\.rawValue)
        guard let last = words.last, words.count >= 2 else {
            return diagnose(
                (words.last ?? directive).end,
                "filter needs an expression and an action: filter EXPR… mark-read|hide|skip|delete")
        }
        guard let action = FilterAction(rawValue: last.text) else {
            return diagnose(
                last.column,
                "a filter ends with its action (mark-read, hide, skip or delete), not `\(last.text)`"
                    + suggestion(for: last.text, among: actions))
        }
        guard let (query, _) = expression(words.dropLast(), in: line, diagnose: diagnose) else { return }
        config.filters.append(QueryFilter(query: query, action: action))
        if action == .delete {
            note(
                last.column,
                "warning: this filter deletes the articles it matches for good, stored ones too (not "
                    + "starred ones); `hide` keeps them out of sight, `skip` keeps only new ones out")
        }
    }

    /// The query written over `words` (their text as it stands in the line), parsed; a
    /// parse error is diagnosed at its column in the line.
    private static func expression(
        _ words: ArraySlice<Word>, in line: String, diagnose: (Int, String) -> Void
    ) -> (ArticleQuery, String)? {
        guard let first = words.first, let last = words.last else { return nil }
        let characters = Array(line)
        let start = first.column - 1
        let end = min(max(last.end - 1, start), characters.count)
        let text = String(characters[start..<end])
        do {
            return (try ArticleQuery.parse(text), text)
        } catch {
            diagnose(first.column + error.column - 1, "query: \(error.message)")
            return nil
        }
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
