import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

/// A library of varied articles, and the same articles as `QueryFields` for the in-memory
/// evaluator: what the store's SQL and `ArticleQuery.matches` must agree on.
struct QueryLibrary {
    let store: LibraryStore
    let library: TemporaryLibrary
    /// Article id → its fields.
    let fields: [String: QueryFields]
    /// The newest first, as the lists order them.
    let order: [String]
    static let now: Int64 = 1_790_000_000 + 40 * 86_400

    struct Entry {
        var feed: Int
        var title: String
        var text: String
        var author: String?
        var day: Int
        var podcast = false
        var read = false
        var starred = false
    }

    static let feeds: [(url: String, title: String, tags: [String])] = [
        ("https://news.example.org/rss", "Hacker Nachrichten", ["Tech", "news"]),
        ("https://cafe.example.com/feed.json", "Le Café", ["food"]),
        ("https://kr.example.kr/atom", "한국 뉴스", ["news", "Korean"]),
        ("https://pod.example.net/podcast.xml", "Swift Talk Podcast", []),
    ]

    static let entries: [Entry] = [
        Entry(
            feed: 0, title: "Swift 6 released", text: "The Swift team shipped strict concurrency.",
            author: "Ann Lee", day: 1),
        Entry(
            feed: 0, title: "Rust and Swift compared", text: "Ownership, borrowing and e-mail threads.",
            author: "Bob", day: 3, read: true),
        Entry(
            feed: 0, title: "Why SQLite is everywhere", text: "A small fast database; FTS5 search.",
            author: nil, day: 5, starred: true),
        Entry(
            feed: 0, title: "GARDENING with code", text: "Tomatoes and beans grew well this year.",
            author: "ann lee", day: 8, read: true, starred: true),
        Entry(
            feed: 1, title: "Le Café de Flore", text: "Un café noir, s'il vous plaît.", author: "Zoë Dupont",
            day: 10),
        Entry(
            feed: 1, title: "Crème brûlée at home", text: "Sugar, cream and a torch; café after.",
            author: "Zoe Dupont", day: 13, read: true),
        Entry(
            feed: 1, title: "Bread (sourdough) notes", text: "Flour water salt; the garden herbs.",
            author: "Chef", day: 17),
        Entry(feed: 2, title: "한국어 공부 일기", text: "오늘은 한국어를 배우고 서울역에서 친구를 만났다.", author: "김민수", day: 20),
        Entry(feed: 2, title: "KTX에서 쓴 코드", text: "부산행 KTX에서 코드를 썼다.", author: "이수진", day: 22, starred: true),
        Entry(feed: 2, title: "東京の電車", text: "東京駅から新幹線に乗って大阪へ行きました。", author: nil, day: 25, read: true),
        Entry(
            feed: 3, title: "Episode 12: Swift concurrency", text: "Actors, tasks and the main actor.",
            author: "Ann Lee", day: 27, podcast: true),
        Entry(
            feed: 3, title: "Episode 13: SQLite on Linux", text: "WAL mode, FTS5 and the garden of indexes.",
            author: "Bob", day: 33, podcast: true, read: true),
        Entry(
            feed: 3, title: "Bonus: a swift e-mail", text: "Listener mail about Rust.", author: nil, day: 38,
            podcast: true, starred: true),
    ]

    static func make() async throws -> QueryLibrary {
        let library = try TemporaryLibrary()
        let store = try await LibraryStore.open(path: library.path)
        for feed in feeds {
            try await store.subscribe(Subscription(url: feed.url, title: feed.title, tags: feed.tags))
        }
        for (index, entry) in entries.enumerated() {
            let enclosures =
                entry.podcast
                ? [Enclosure(url: "https://pod.example.net/\(index).mp3", type: "audio/mpeg")] : []
            try await store.upsertArticles(
                feedURL: feeds[entry.feed].url,
                items: [
                    ParsedItem(
                        id: "e\(index)", title: entry.title, author: entry.author,
                        published: Date(timeIntervalSince1970: 1_790_000_000 + Double(entry.day) * 86_400),
                        text: entry.text, enclosures: enclosures)
                ])
        }
        var fields: [String: QueryFields] = [:]
        var order: [String] = []
        try await store.forEachArticle(matching: ArticleFilter()) { page in
            for listing in page {
                let index = try #require(entries.firstIndex { $0.title == listing.summary.title })
                let entry = entries[index]
                let feed = feeds[entry.feed]
                order.append(listing.summary.id)
                fields[listing.summary.id] = QueryFields(
                    title: entry.title, author: entry.author, text: entry.text, feedTitle: feed.title,
                    feedURL: feed.url, tags: feed.tags, isRead: entry.read, isStarred: entry.starred,
                    hasEnclosure: entry.podcast, time: listing.summary.sortTime)
            }
        }
        for (id, field) in fields {
            if field.isRead { try await store.setRead(true, articleID: id) }
            if field.isStarred { try await store.setStarred(true, articleID: id) }
        }
        return QueryLibrary(store: store, library: library, fields: fields, order: order)
    }

    /// The ids matching in memory, in list order.
    func expected(_ query: ArticleQuery) -> [String] {
        order.filter { fields[$0]!.matches(query, now: Self.now) }
    }

    func found(_ query: ArticleQuery, limit: Int = 100) async throws -> [String] {
        try await store.articles(
            matching: query, limit: limit, now: Date(timeIntervalSince1970: Double(Self.now))
        ).map(\.id)
    }

    /// Every article matching `query`, read in keyset pages of `size` rows (each page after
    /// the last row of the one before).
    func foundInPages(_ query: ArticleQuery, size: Int = 3) async throws -> [String] {
        var seen: [String] = []
        var last: ArticleSortKey?
        while true {
            let page = try await store.articles(
                matching: query, after: last, limit: size, now: Date(timeIntervalSince1970: Double(Self.now)))
            seen += page.map(\.id)
            guard let tail = page.last, page.count == size else { return seen }
            last = tail.sortKey
        }
    }
}

extension QueryFields {
    /// In memory, as filters match (the test queries have no slow pattern).
    func matches(_ query: ArticleQuery, now: Int64) -> Bool { (try? query.matches(self, now: now)) == true }
}
