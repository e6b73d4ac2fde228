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

    /// Parentheses and negations nested in a query: a deeper one is refused at its column,
    /// before anything recurses over it.
    public static let queryDepth = 64

    // MARK: What is typed

    /// The bytes (UTF-8) of the search prompt's query and of the `:` command line: a paste
    /// past it stops there, said on the status line. About 700 words; a query of them is
    /// already slower to search than to type.
    public static let promptBytes = 4_096
}
