public import HeraldCore

/// Regular expressions tried on the library before they run for real: `herald config check`
/// says which of the config's patterns are too slow on the titles and authors it holds.
extension LibraryStore {
    /// How many of the newest articles `slowPatterns` tries a pattern on: the titles a
    /// reload or a list meets first, within seconds however large the library.
    public nonisolated static let patternTrialArticles = 10_000

    /// The patterns, of those given, found too slow (`RegexBudget`: each in a run of its own)
    /// on the `field` of the newest `patternTrialArticles` articles, in the order given.
    public func slowPatterns(_ patterns: [(field: QueryField, pattern: String)]) throws -> [String] {
        var slow: [String] = []
        for (field, pattern) in patterns where !slow.contains(pattern) {
            let column = field == .author ? "author" : field == .feed ? "NULL" : "title"
            let statement = try db.prepareUncached(
                "SELECT count(*) FROM (SELECT \(column) AS t FROM articles ORDER BY sort_time DESC LIMIT ?2) "
                    + "WHERE t REGEXP ?1")
            try statement.bind(.text(pattern), .integer(Int64(Self.patternTrialArticles)))
            let budget = RegexBudget()
            do {
                _ = try budget.run { try statement.firstRow { $0.int64(0) } }
            } catch  where budget.isTooSlow(pattern) {
                slow.append(pattern)
            }
        }
        return slow
    }
}
