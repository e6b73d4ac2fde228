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
