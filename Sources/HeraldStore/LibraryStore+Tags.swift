/// A feed tag with its counts: what `herald tags` prints.
public struct TagSummary: Sendable, Hashable {
    public var name: String
    /// How many feeds carry the tag.
    public var feeds: Int
    /// The articles of those feeds, and how many of them are unread.
    public var total: Int
    public var unread: Int

    public init(name: String, feeds: Int, total: Int, unread: Int) {
        self.name = name
        self.feeds = feeds
        self.total = total
        self.unread = unread
    }
}

extension LibraryStore {
    /// Every tag with its feed, article and unread counts, sorted by name (case ignored,
    /// then exactly). The counts come from the feeds' kept counts: no article is read.
    public func tagSummaries() throws -> [TagSummary] {
        let statement = try db.prepare("SELECT tags, total_count, unread_count FROM feeds WHERE tags != ''")
        var byName: [String: TagSummary] = [:]
        while try statement.step() {
            let (total, unread) = (Int(statement.int64(1)), Int(statement.int64(2)))
            // A tag listed twice on one feed (stored before tags were cleaned) counts once.
            for tag in Set(Self.splitTags(statement.text(0) ?? "")) {
                var summary = byName[tag] ?? TagSummary(name: tag, feeds: 0, total: 0, unread: 0)
                summary.feeds += 1
                summary.total += total
                summary.unread += unread
                byName[tag] = summary
            }
        }
        return byName.values.sorted { a, b in
            let (x, y) = (a.name.lowercased(), b.name.lowercased())
            return x != y ? x < y : a.name < b.name
        }
    }
}
