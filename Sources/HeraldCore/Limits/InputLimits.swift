/// Every limit Herald holds its inputs to, in one place: each dimension (depth, count, length,
/// time, memory) of each input (a feed, a page, a query, a config file, a newsboat cache,
/// another device's sync files, what is typed). The README's limits table lists them, and a
/// test checks that it says what this file does.
///
/// Limits that live where the input is read (the fetcher's byte budget in HeraldFetch, which
/// does not link this module; the sync files' names and records in HeraldSync) refer here in
/// their comments, and the table names them too.
public enum InputLimits {
    // MARK: Queries (search, query feeds, filters, `:mark-read`, `--query`)

    /// Parentheses nested in a query: the one past it is refused at its column ("parentheses
    /// nested deeper than 64"), before anything recurses over it. A run of negations (`--a`,
    /// `not -a`) nests nothing: it is read in a loop and folded. Every walk over a query
    /// (matching, the store's compiler, hashing) recurses at most three times per level.
    public static let queryDepth = 64

    // MARK: Regular expressions (`title:/…/`, `author:/…/` in queries and filters, `highlight`)

    /// One match of a pattern against one title or author, in processor time (waiting for a
    /// core on a loaded machine does not count). A match past it is stopped, and the pattern
    /// is too slow for the rest of its run (`RegexBudget`): a query fails with an error
    /// naming it, a reload leaves the filter out and says so, a `highlight` is off for the
    /// session with a message; `herald config check` tries the config's patterns on the
    /// library's titles. An ordinary pattern takes microseconds on a title.
    public static let regexMatchTime: Duration = .milliseconds(50)

    /// The matches of one pattern in one run that each take over `regexSlowMatch`, added up:
    /// past it the pattern is too slow too, so titles made to take just under
    /// `regexMatchTime` each cost this much in all, not that times their number.
    public static let regexSlowMatchesTime: Duration = .milliseconds(500)

    /// A match that uses more of the processor than this (after its first millisecond)
    /// counts towards `regexSlowMatchesTime`.
    public static let regexSlowMatch: Duration = .milliseconds(1)
}
