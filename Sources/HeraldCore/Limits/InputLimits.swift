/// Every limit Herald holds its inputs to, in one place: each dimension (depth, count, length,
/// time, memory) of each input (a feed, a page, a query, a config file, a newsboat cache,
/// another device's sync files, what is typed). The table in docs/LIMITS.md lists them, and a
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

    /// Parentheses nested in a query: the one past it is refused at its column ("parentheses
    /// nested deeper than 64"), before anything recurses over it. A run of negations (`--a`,
    /// `not -a`) nests nothing: it is read in a loop and folded. Every walk over a query
    /// (matching, the store's compiler, hashing) recurses at most three times per level.
    public static let queryDepth = 64

    // MARK: What is typed

    /// The bytes (UTF-8) of the search prompt's query and of the `:` command line: a paste
    /// past it stops there, said on the status line. About 700 words; a query of them is
    /// already slower to search than to type.
    public static let promptBytes = 4_096

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

extension InputLimits {
    // MARK: Dates (every input)

    /// The dates an article may have, in seconds since 1970: from 1900-01-01 (earlier ones are
    /// placeholders: `FeedDate.earliest`) to the end of 9999 (what a four-digit year can
    /// say). A date outside, a newsboat cache's `pubDate = 9223372036854775807` say, counts as
    /// undated; none is ever converted to an integer unchecked.
    public static let dateSeconds: ClosedRange<Int64> = -2_208_988_800...253_402_300_799

    // MARK: A newsboat cache (`herald import-newsboat`: another program's file)

    /// The longest value (text or blob) read from a newsboat cache, 4 MiB: SQLite refuses to
    /// make a longer one (`SQLITE_LIMIT_LENGTH`) before it is in memory. An article with
    /// one is left out, and the report counts it.
    public static let newsboatCacheValueBytes = 4 << 20

    /// A cached article's title and author, and a feed's title, keep their first 1,000
    /// characters (an ellipsis marks the cut). Addresses (link, enclosure, base, site) keep
    /// `FeedAddress.maximumLength` bytes (4,096): a longer one is dropped, not cut. A longer
    /// guid leaves its article out.
    public static let newsboatCacheTitleCharacters = 1_000

    /// What one feed's articles may hold in all, 128 MiB: each counts the bytes of its values
    /// and `newsboatCacheArticleCost` more. The newest are read first; the older ones past
    /// the budget are left out, and the report counts them. Bounds the memory of an import
    /// (a feed is converted and written whole, in one transaction).
    public static let newsboatCacheFeedBytes = 128 << 20

    /// What an article costs against `newsboatCacheFeedBytes` besides its values: millions
    /// of empty rows cost memory too.
    public static let newsboatCacheArticleCost = 512

    /// SQLite steps (VM instructions) one read of a newsboat cache may take, 500 million
    /// (seconds of work): one past it is stopped with an error. An honest read of a feed's
    /// articles takes a few hundred per article.
    public static let newsboatCacheSteps = 500_000_000
}
