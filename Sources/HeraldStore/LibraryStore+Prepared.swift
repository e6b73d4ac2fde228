public import HeraldCore

/// What a feed's articles hold in the library, by guid (as digests): a reload compares its
/// items with it off the database's thread, and prepares only the new and changed ones.
public struct KnownArticles: Sendable {
    let rows: [String: StoredArticle]
}

/// An item made ready for the library off the database's thread: its columns, and, when it
/// is new or changed, its body packed and its search entries split. Packing (deflate) and
/// splitting took a fifth of the database thread's time in a cold reload; prepared on the
/// parse threads, they run on both cores while the database writes.
public struct PreparedItem: Sendable {
    let item: ParsedItem
    let row: StoredArticle
    /// nil when the item was unchanged as prepared: nothing to write.
    let body: [UInt8]?
    let search: SearchEntry?
}

/// The values the two search indexes take for an article (see `SearchIndex`).
struct SearchEntry: Sendable {
    var title: String
    var author: String?
    var text: String
    var cjkTitle: String
    var cjkText: String
    /// The title and author as the trigram index of `title:`/`author:` holds them.
    var fieldTitle: String
    var fieldAuthor: String?

    init(title: String, author: String?, text: String) {
        self.title = CJKText.withoutIndexed(title)
        self.author = author.map(CJKText.withoutIndexed)
        self.text = CJKText.withoutIndexed(text)
        self.cjkTitle = CJKText.characters(title)
        self.cjkText = CJKText.characters(text)
        self.fieldTitle = FieldIndex.indexed(title)
        self.fieldAuthor = author.map(FieldIndex.indexed)
    }

    init(_ item: ParsedItem) { self.init(title: item.title, author: item.author, text: item.text) }
}

extension LibraryStore {
    /// The digests of this feed's stored articles among `guids`.
    public func knownArticles(feedURL: String, guids: [String]) throws -> KnownArticles {
        let feed = try feedRowID(feedURL)
        return KnownArticles(rows: try storedArticles(feed: feed, guids: guids).mapValues { $0.row })
    }

    /// `knownArticles(feedURL:guids:)` of several feeds at once: one wait for the database,
    /// however many feeds (each call waits behind the writes queued before it).
    public func knownArticles(_ feeds: [(feedURL: String, guids: [String])]) throws -> [KnownArticles] {
        try feeds.map { try knownArticles(feedURL: $0.feedURL, guids: $0.guids) }
    }

    /// Prepares items for `upsertArticles(feedURL:prepared:)`, on any thread.
    public nonisolated static func prepare(_ items: [ParsedItem], known: KnownArticles) -> [PreparedItem] {
        let codec = ArticleBodyCodec()
        return items.map { item in
            let row = StoredArticle(item)
            if known.rows[item.id] == row {
                return PreparedItem(item: item, row: row, body: nil, search: nil)
            }
            let body = codec.pack(text: item.text, html: item.html, crc: row.body.crc)
            // The HTML is in the body now: not kept twice while the item waits to be written.
            var light = item
            light.html = nil
            // A new article waits for the indexer (`DeferredIndexing.swift`): its entries are
            // split then, from the stored row, not here.
            let search = known.rows[item.id] == nil ? nil : SearchEntry(item)
            return PreparedItem(item: light, row: row, body: body, search: search)
        }
    }
}
