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
}
