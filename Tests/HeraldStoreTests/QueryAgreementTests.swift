import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

@Suite("Queries in SQL and in memory")
struct QueryAgreementTests {
    func parse(_ text: String) throws -> ArticleQuery { try ArticleQuery.parse(text) }

    @Test(
        "each kind of term selects the same articles in SQL as in memory",
        arguments: [
            "unread", "read", "starred", "unstarred", "podcast",
            "feed:hacker", "feed:EXAMPLE.COM", "feed:한국", "feed:café", "feed:nowhere",
            "tag:news", "tag:TECH", "tag:korean", "tag:tec",
            "author:ann", "author:ZOË", "author:\"dupont\"", "author:/^zo[eë] /", "author:김",
            "title:swift", "title:\"crème\"", "title:/episode 1[23]/", "title:/^le /", "title:電車",
            "age<10d", "age<=15d", "age>30d", "age>=2w", "age<1y", "age<24h",
            "after:2026-09-10", "before:2026-09-20",
            "swift", "Swift", "cafe", "café", "garden", "\"main actor\"", "\"actor main\"", "e-mail",
            "한국어", "서울역", "KTX에서", "東京", "電車", "fts5", "rust", "ann",
        ])
    func singleTerms(text: String) async throws {
        let library = try await QueryLibrary.make()
        defer { library.library.cleanUp() }
        let query = try parse(text)
        #expect(try await library.found(query) == library.expected(query), "\(text)")
    }

    @Test("terms select what they say: folded words, case-insensitive fields, tags, ages")
    func meanings() async throws {
        let library = try await QueryLibrary.make()
        defer { library.library.cleanUp() }
        func titles(_ text: String) async throws -> Set<String> {
            let ids = try await library.found(parse(text))
            return Set(ids.compactMap { library.fields[$0]?.title })
        }
        #expect(try await titles("cafe") == ["Le Café de Flore", "Crème brûlée at home"])
        #expect(try await titles("author:ZOË") == ["Le Café de Flore"])
        #expect(try await titles("tag:KOREAN podcast").isEmpty)
        #expect(try await titles("tag:korean starred") == ["KTX에서 쓴 코드"])
        #expect(try await titles("age<3d") == ["Bonus: a swift e-mail"])
        #expect(try await titles("title:/^episode 1[23]:/ -read") == ["Episode 12: Swift concurrency"])
        #expect(try await titles("서울역") == ["한국어 공부 일기"])
        #expect(try await titles("\"main actor\"") == ["Episode 12: Swift concurrency"])
    }

    @Test("terms combine with and, or, negation and parentheses as in memory")
    func combinations() async throws {
        let library = try await QueryLibrary.make()
        defer { library.library.cleanUp() }
        for text in [
            "unread swift", "swift -podcast", "swift or café", "(unread or starred) tag:news",
            "-(read or starred)", "not feed:hacker age<30d", "podcast -\"main actor\"",
            "title:/swift/ or author:bob", "garden -read", "한국어 or 東京", "-swift -rust -café",
            "tag:news -tag:tech unread", "(swift or rust) (ann or bob)", "starred and podcast or tag:food",
        ] {
            let query = try parse(text)
            #expect(try await library.found(query) == library.expected(query), "\(text)")
        }
    }

    @Test("generated queries agree in SQL and in memory (seeded, 300 queries)")
    func generated() async throws {
        let library = try await QueryLibrary.make()
        defer { library.library.cleanUp() }
        var generator = QueryGenerator(seed: 0x5EED_CAFE)
        var nonEmpty = 0
        for _ in 0..<300 {
            let text = generator.query(depth: 3)
            let query = try parse(text)
            let expected = library.expected(query)
            if !expected.isEmpty { nonEmpty += 1 }
            #expect(try await library.found(query) == expected, "\(text)")
            let counts = try await library.store.count(
                matching: query, now: Date(timeIntervalSince1970: Double(QueryLibrary.now)))
            #expect(counts.total == expected.count, "\(text)")
            #expect(counts.unread == expected.filter { library.fields[$0]?.isRead == false }.count, "\(text)")
        }
        // The generator makes queries that select something, not only empty ones.
        #expect(nonEmpty > 100)
    }

    @Test("pages of a query follow each other without gaps or repeats, newest first")
    func paging() async throws {
        let library = try await QueryLibrary.make()
        defer { library.library.cleanUp() }
        let query = try parse("-tag:food")
        let seen = try await library.foundInPages(query)
        #expect(seen == library.expected(query))
        #expect(seen.count == 10)
        let backward = try await library.store.articles(
            matching: query, page: .last(limit: 4), now: Date(timeIntervalSince1970: Double(QueryLibrary.now))
        )
        #expect(backward.map(\.id) == Array(seen.suffix(4)))
    }

    @Test("the word being typed completes to the words it begins")
    func prefix() async throws {
        let library = try await QueryLibrary.make()
        defer { library.library.cleanUp() }
        let typing = try ArticleQuery.parse("gard", typing: true)
        let expected = library.expected(typing)
        #expect(!expected.isEmpty)
        #expect(try await library.found(typing) == expected)
        #expect(try await library.found(ArticleQuery.parse("gard")).isEmpty)
        #expect(try await library.found(ArticleQuery.parse("zzzq", typing: true)).isEmpty)
    }

    @Test("bulk read and star changes return the ids they changed, and undo with them")
    func bulkFlags() async throws {
        let library = try await QueryLibrary.make()
        defer { library.library.cleanUp() }
        let store = library.store
        let query = try parse("swift")
        let unreadBefore = try await store.count(matching: .flag(.unread)).total
        let wanted = library.expected(query).filter { library.fields[$0]?.isRead == false }.compactMap {
            Int64($0)
        }
        let changed = try await store.setRead(true, matching: query)
        #expect(changed == wanted.sorted())
        #expect(!changed.isEmpty)
        #expect(try await store.count(matching: .flag(.unread)).total == unreadBefore - changed.count)
        // Again: nothing left to change.
        #expect(try await store.setRead(true, matching: query).isEmpty)
        // The feed list's kept counts follow.
        let unreadInFeeds = try await store.feedSummaries().reduce(0) { $0 + $1.unread }
        #expect(unreadInFeeds == unreadBefore - changed.count)
        #expect(try await store.setRead(false, articleIDs: changed) == changed)
        #expect(try await store.count(matching: .flag(.unread)).total == unreadBefore)
        let starred = try await store.setStarred(true, matching: parse("podcast"))
        #expect(starred.count == 2)
        #expect(try await store.setStarred(false, articleIDs: starred) == starred)
    }

    @Test("typed text reaches SQL only as bound values")
    func injection() async throws {
        let library = try await QueryLibrary.make()
        defer { library.library.cleanUp() }
        for text in [
            "title:\"'; DROP TABLE articles; --\"", "author:\"x') OR 1=1 --\"", "\"a\\\" OR \\\"b\"",
        ] {
            #expect(try await library.found(parse(text)).isEmpty, "\(text)")
        }
        #expect(try await library.store.count(matching: .everything).total == QueryLibrary.entries.count)
    }

    @Test("a cancelled query throws CancellationError")
    func cancellation() async throws {
        let library = try await QueryLibrary.make()
        defer { library.library.cleanUp() }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await library.store.articles(matching: .everything, limit: 10)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}

/// Seeded random query texts over the words, fields and values of `QueryLibrary`.
struct QueryGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        // SplitMix64
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }

    static let terms = [
        "unread", "read", "starred", "unstarred", "podcast", "feed:example", "feed:hacker", "feed:.kr",
        "feed:podcast", "tag:news", "tag:Tech", "tag:food", "tag:korean", "author:ann", "author:dupont",
        "author:bob", "author:/lee$/", "title:swift", "title:episode", "title:/^[a-z]+ /", "title:café",
        "age<10d", "age>20d", "age<=3w", "age>=1w", "after:2026-09-15", "before:2026-10-01", "swift",
        "garden", "café", "cafe", "fts5", "rust", "\"main actor\"", "e-mail", "한국어", "KTX", "東京",
        "concurrency", "mail", "episode",
    ]

    mutating func query(depth: Int) -> String {
        let count = 1 + Int(next() % 3)
        var parts: [String] = []
        for index in 0..<count {
            if index > 0, next() % 3 == 0 { parts.append(pick(["or", "OR", "and"])) }
            var term: String
            if depth > 0, next() % 4 == 0 {
                term = "(" + query(depth: depth - 1) + ")"
            } else {
                term = pick(Self.terms)
            }
            if next() % 4 == 0 { term = pick(["-", "not "]) + term }
            parts.append(term)
        }
        return parts.joined(separator: " ")
    }
}
