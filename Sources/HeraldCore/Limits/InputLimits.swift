/// Every limit Herald holds its inputs to, in one place: each dimension (depth, count, length,
/// time, memory) of each input (a feed, a page, a query, a config file, a newsboat cache,
/// another device's sync files, what is typed). The README's limits table lists them, and a
/// test checks that it says what this file does.
///
/// Limits that live where the input is read (the fetcher's byte budget in HeraldFetch, which
/// does not link this module; the sync files' names and records in HeraldSync) refer here in
/// their comments, and the table names them too.
public enum InputLimits {
    // MARK: Feeds (RSS, RDF, Atom, JSON Feed)

    /// Items read from one feed document. Past it the parse stops and the feed counts as read
    /// with errors: its first items are kept (feeds list the newest first), the rest is never
    /// parsed. An empty `<item/>` is 7 bytes of a body and
    /// hundreds of bytes of memory once parsed and prepared (8 feeds of 2M peaked at 6.1 GiB),
    /// so the body's 16 MB cap alone does not bound a reload: this does, whatever the items
    /// hold. Real feeds have a few thousand at most (newsboat's `max-items` is usually 50–500).
    public static let itemsPerFeed = 10_000

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
