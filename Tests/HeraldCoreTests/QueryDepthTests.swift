import HeraldCore
import Testing

/// Deep queries: parentheses past `InputLimits.queryDepth` are refused at their column
/// before anything recurses, runs of negations fold, and the deepest query the parser
/// accepts is walked whole by everything that recurses over a query.
@Suite("Query depth")
struct QueryDepthTests {
    let limit = InputLimits.queryDepth

    func error(_ text: String) -> QueryError? {
        do {
            _ = try ArticleQuery.parse(text)
            return nil
        } catch {
            return error
        }
    }

    func nested(_ depth: Int, _ inner: String = "a") -> String {
        String(repeating: "(", count: depth) + inner + String(repeating: ")", count: depth)
    }

    /// The deepest tree the parser builds: three levels (not, or, and) per parenthesis.
    func deepest() -> String {
        var text = "a"
        for level in 0..<limit { text = "-(w\(level) or v\(level) \(text))" }
        return text
    }

    @Test("parentheses nested 64 deep parse; the 65th is refused at its column")
    func atTheLimit() throws {
        #expect(limit == 64)
        #expect(try ArticleQuery.parse(nested(limit)) == .text(FreeText("a")))
        let refused = try #require(error(nested(limit + 1)))
        #expect(refused.column == limit + 1)
        #expect(refused.message == "parentheses nested deeper than 64")
        // Where the limit is passed, wherever that is in the line.
        #expect(error("unread " + nested(limit + 1))?.column == 7 + limit + 1)
    }

    @Test("20,000 parentheses, closed or not, are refused at the 65th, not a crash")
    func manyParentheses() {
        #expect(
            error(nested(20_000, "title:x"))
                == QueryError(column: 65, message: "parentheses nested deeper than 64"))
        #expect(error(String(repeating: "(", count: 100_000))?.column == 65)
        #expect(error(String(repeating: "(", count: 100_000) + "a")?.column == 65)
    }

    @Test("a run of 30,000 - or not folds into one negation or none, without recursing")
    func negationRuns() throws {
        let dashes = String(repeating: "-", count: 30_000)
        #expect(try ArticleQuery.parse(dashes + "unread") == .flag(.unread))
        #expect(try ArticleQuery.parse("-" + dashes + "unread") == .not(.flag(.unread)))
        let nots = String(repeating: "not ", count: 30_001)
        #expect(try ArticleQuery.parse(nots + "starred") == .not(.flag(.starred)))
        // Alone, the last - has nothing after it: an error at its column, as for one.
        #expect(error(dashes) == QueryError(column: 30_000, message: "- needs a term right after it: -word"))
        // Signs before each parenthesis do not count towards the depth; the parentheses do.
        #expect(error(dashes + nested(limit + 1))?.column == 30_000 + limit + 1)
    }

    @Test("the deepest query the parser accepts is matched, hashed, compared and printed whole")
    func deepestWalks() throws {
        let query = try ArticleQuery.parse(deepest())
        let same = try ArticleQuery.parse(deepest())
        #expect(query == same && query.hashValue == same.hashValue)
        #expect(String(reflecting: query).count > 1000)
        #expect(query.regexPatterns.isEmpty)
        let article = QueryFields(
            title: "w3", author: nil, text: "", feedTitle: "", feedURL: "", tags: [], time: 0)
        // w63 is absent: the outer negation holds unless the inner one does, and so on down.
        _ = try query.matches(article, now: 0)
        #expect(error("-" + deepest()) == nil)
        // One more parenthesis around it: refused at the innermost, the 65th.
        let wrapped = "(" + deepest() + ")"
        let opening = Array(wrapped).indices.filter { Array(wrapped)[$0] == "(" }
        #expect(
            error(wrapped)
                == QueryError(column: opening[limit] + 1, message: "parentheses nested deeper than 64"))
    }
}
