import Foundation
import HeraldCore
import Testing

@testable import HeraldStore

/// The trigram index of titles and authors only narrows `title:`/`author:`: whatever the
/// text's case, accents, normal form or ligatures, the rows it finds hold every match.
@Suite("Title and author index")
struct FieldIndexTests {
    @Test(
        "a regular expression gives the literal text every match holds, or nothing when it cannot tell",
        arguments: [
            ("^the .* river", ["the ", " river"]), ("colou?r", ["colo", "r"]), ("(a|b)cde", ["cde"]),
            ("\\bgarden\\b", ["garden"]), ("gar+den", ["gar", "den"]), ("ab*c", ["a", "c"]),
            ("a{2}bcd", ["bcd"]), ("x*?yz", ["yz"]), ("[abc]def", ["def"]), ("[]x]yz", ["yz"]),
            ("\\.net core", [".net core"]), ("episode 1[23]", ["episode 1"]),
            ("foo(?:bar)?baz", ["foo", "baz"]), ("a\\d+bcd", ["a", "bcd"]),
        ])
    func regexLiterals(pattern: String, expected: [String]) {
        #expect(RegexLiterals.required(pattern) == expected, "\(pattern)")
    }

    @Test(
        "patterns whose literal text cannot be read safely give nothing",
        arguments: [
            "garden|river", "(?i)garden", "(?x)gar den", "a\\x41bcd", "\\Qabc\\E", "(?#c)abc", "[[a]]bcd",
            "abc\\1",
        ])
    func unreadable(pattern: String) {
        #expect(RegexLiterals.required(pattern) == nil, "\(pattern)")
    }

    @Test("runs leave out what a ligature or ß could stand for, and letters SQLite cannot fold")
    func runs() {
        #expect(FieldIndex.runs(regex: "strasse").runs.isEmpty)
        #expect(FieldIndex.runs(regex: "office").runs.isEmpty)
        #expect(FieldIndex.runs(regex: "^the .* river").runs == ["the ", " river"])
        #expect(FieldIndex.runs(regex: "café").runs == ["caf"])
        #expect(FieldIndex.runs(regex: "東京タワー").runs == ["東京タワー"])
        #expect(FieldIndex.runs(containing: "Garden").runs == ["garden"])
        #expect(FieldIndex.runs(containing: "ab").runs.isEmpty)
        #expect(FieldIndex.runs(containing: "Café").runs == ["cafe\u{301}"])
        #expect(FieldIndex.runs(containing: "김").runs == ["김".decomposedStringWithCanonicalMapping])
        // Georgian capitals: SQLite's tables do not fold them.
        #expect(FieldIndex.runs(containing: "ႠႡႢ").runs.isEmpty)
    }

    static let titles: [(title: String, author: String?)] = [
        ("Straße der Sieger", "Zoe\u{308} Dupont"), ("STRASSE ZWEI", "ANN LEE"), ("\u{FB01}nal notes", nil),
        ("Cafe\u{301} society", "Zoë Dupont"), ("\u{212A}elvin scale", "Ann Lee"),
        ("\u{17F}trange long s", nil),
        ("İstanbul nights", "Bob"), ("ΟΔΟΣ ΑΘΗΝΑΣ", "Νίκος"), ("ᲒᲐᲛᲐᲠᲯᲝᲑᲐ ᲡᲐᲥᲐᲠᲗᲕᲔᲚᲝ", nil),
        ("서울역에서".decomposedStringWithCanonicalMapping, "김민수"), ("東京タワーの夜", nil), ("final answer", "Bob"),
        ("The quiet river", "ann"), ("the river; again", nil), ("Semi\u{37E} colon", nil),
    ]

    @Test(
        "title: and author: find in SQL what they find in memory",
        arguments: [
            "title:strasse", "title:/strasse/", "title:/straße/", "title:ß", "title:/final/", "title:/ﬁnal/",
            "title:final", "title:café", "title:cafe", "title:/café/", "title:/cafe/", "title:kelvin",
            "title:/kelvin/", "title:/strange/", "title:strange", "title:istanbul", "title:/istanbul/",
            "title:stanbul", "title:οδος", "title:/οδος/", "title:ΟΔΟΣ", "title:გამარჯობა",
            "title:/გამარჯობა/", "title:서울역", "title:/서울역/", "title:東京", "title:/東京タ/",
            "author:zoë", "author:/zoë/", "author:\"ann lee\"", "author:/^ann/", "author:김민",
            "title:/the .* river/", "title:\"river; again\"", "title:\"semi; colon\"", "title:semi;",
            "title:/^the/ author:ann", "title:river -author:ann", "author:νίκος", "title:/[a-z]+ river/",
        ])
    func agreement(text: String) async throws {
        let library = try TemporaryLibrary()
        defer { library.cleanUp() }
        let store = try await LibraryStore.open(path: library.path)
        let url = "https://fields.example/feed"
        try await store.subscribe(Subscription(url: url, title: "Fields"))
        try await store.upsertArticles(
            feedURL: url,
            items: Self.titles.enumerated().map { index, entry in
                item("f\(index)", entry.title, "", author: entry.author, day: index)
            })
        let query = try ArticleQuery.parse(text)
        let found = try await store.articles(matching: query, limit: 100).map(\.title)
        let inMemory = try Self.titles.reversed().filter { entry in
            try query.matches(
                QueryFields(
                    title: entry.title, author: entry.author, text: "", feedTitle: "Fields", feedURL: url,
                    tags: [],
                    time: 0), now: 0)
        }.map(\.title)
        #expect(found == inMemory, "\(text)")
        // With the candidates looked up while the time index is walked, the same rows.
        await store.setQueryPlanLimits(QueryPlanLimits(probeRows: 0, fewMatches: 0))
        #expect(try await store.articles(matching: query, limit: 100).map(\.title) == inMemory, "\(text)")
    }
}
