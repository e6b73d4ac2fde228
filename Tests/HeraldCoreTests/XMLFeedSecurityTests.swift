import Foundation
import Testing

@testable import HeraldCore

/// No test here bounds wall time (a shared machine and the sanitizers make any bound flaky):
/// the error each one expects (the entity loop, the text cap) is the proof that the parser
/// stopped before the expansion.
@Suite("XML feeds: hostile documents")
struct XMLFeedSecurityTests {
    /// Parses, and returns everything the result or the error says, as one string.
    func outcome(_ xml: String) -> (feed: ParsedFeed?, everything: String) {
        do {
            let feed = try XMLFeedParser.parse(Data(xml.utf8))
            return (feed, String(describing: feed))
        } catch {
            return (nil, error.description)
        }
    }

    func withSecretFile(_ body: (URL, String) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("herald-xxe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = "SECRET-\(UUID().uuidString)"
        let file = directory.appendingPathComponent("secret.txt")
        try Data(secret.utf8).write(to: file)
        let dtd = directory.appendingPathComponent("evil.dtd")
        try Data("<!ENTITY leak \"\(secret)\">".utf8).write(to: dtd)
        try body(directory, secret)
    }

    @Test("an external entity pointing at a local file is never read")
    func externalEntity() throws {
        try withSecretFile { directory, secret in
            let path = directory.appendingPathComponent("secret.txt").path
            let xml = """
                <?xml version="1.0"?>
                <!DOCTYPE rss [<!ENTITY xxe SYSTEM "file://\(path)">]>
                <rss version="2.0"><channel><title>T &xxe; T</title>
                <item><title>I &xxe;</title><description>D &xxe;</description><guid>g&xxe;</guid>
                <link>http://example.com/&xxe;</link></item></channel></rss>
                """
            let (feed, everything) = outcome(xml)
            #expect(!everything.contains(secret))
            // External entities expand to nothing; the rest of the document is read.
            #expect(feed?.title == "T T")
            #expect(feed?.items.first?.title == "I")
            #expect(feed?.items.first?.text == "D")
            #expect(feed?.items.first?.link == "http://example.com/")
        }
    }

    @Test("external parameter entities and external DTDs are not loaded")
    func externalDTD() throws {
        try withSecretFile { directory, secret in
            let dtd = directory.appendingPathComponent("evil.dtd").path
            for xml in [
                """
                <?xml version="1.0"?>
                <!DOCTYPE rss [<!ENTITY % ext SYSTEM "file://\(dtd)"> %ext;]>
                <rss version="2.0"><channel><title>P &leak;</title></channel></rss>
                """,
                """
                <?xml version="1.0"?>
                <!DOCTYPE rss SYSTEM "file://\(dtd)">
                <rss version="2.0"><channel><title>S &leak;</title></channel></rss>
                """,
            ] {
                let (_, everything) = outcome(xml)
                #expect(!everything.contains(secret))
            }
        }
    }

    @Test("billion laughs ends quickly with an error or bounded text")
    func billionLaughs() throws {
        var dtd = "<!ENTITY lol0 \"lollollollollollollollollollol\">\n"
        for level in 1...10 {
            let previous = String(repeating: "&lol\(level - 1);", count: 10)
            dtd += "<!ENTITY lol\(level) \"\(previous)\">\n"
        }
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [\(dtd)]>
            <rss version="2.0"><channel><title>x</title><item><title>&lol10;</title><guid>1</guid></item></channel></rss>
            """
        let result = outcome(xml)
        // libxml2 (options 0, no HUGE) refuses the amplification.
        #expect(result.feed == nil)
        #expect(result.everything.hasSuffix("parse error at line 14: Detected an entity reference loop"))
    }

    @Test("billion laughs in an attribute value is refused too")
    func billionLaughsInAttribute() throws {
        var dtd = "<!ENTITY lol0 \"lollollollollollollollollollol\">"
        for level in 1...10 {
            dtd += "<!ENTITY lol\(level) \"\(String(repeating: "&lol\(level - 1);", count: 10))\">"
        }
        let xml = """
            <!DOCTYPE feed [\(dtd)]>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>x</title><entry><link href="&lol10;"/><id>1</id></entry></feed>
            """
        let result = outcome(xml)
        #expect(result.feed == nil)
        #expect(result.everything.hasSuffix("parse error at line 2: Detected an entity reference loop"))
    }

    @Test("quadratic blowup in an attribute value stays as large as the document")
    func quadraticBlowupInAttribute() throws {
        let big = String(repeating: "a", count: 50_000)
        let references = String(repeating: "&big;", count: 50_000)
        let xml = """
            <!DOCTYPE feed [<!ENTITY big "\(big)">]>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>x</title><entry><link href="\(references)"/><id>1</id></entry></feed>
            """
        let result = outcome(xml)
        // Custom entities in attributes are not expanded (libxml2 leaves the references).
        #expect(result.everything.utf8.count < xml.utf8.count + 10_000)
    }

    @Test("quadratic blowup stops at the text cap with an error")
    func quadraticBlowup() throws {
        let big = String(repeating: "a", count: 50_000)
        let references = String(repeating: "&big;", count: 50_000)  // 2.5 GB once expanded
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY big "\(big)">]>
            <rss version="2.0"><channel><title>q</title><item><description>\(references)</description></item></channel></rss>
            """
        var thrown: FeedParseError?
        do throws(FeedParseError) { _ = try XMLFeedParser.parse(Data(xml.utf8)) } catch { thrown = error }
        #expect(thrown == .notAFeed("too much text: more than 33554432 bytes of character data"))
    }

    @Test("an undeclared entity stays text, the feed read with an error naming it")
    func undeclaredEntity() throws {
        let feed = try XMLFeedParser.parse(
            Data("<rss version=\"2.0\">\n<channel><title>&bogus;</title></channel></rss>".utf8))
        #expect(feed.title == "&bogus;")
        #expect(feed.warnings == ["parse error at line 2: Entity 'bogus' not defined"])
    }

    @Test("billion laughs is refused in a broken document too (no recovery past an entity loop)")
    func billionLaughsWhenBroken() throws {
        var dtd = "<!ENTITY lol0 \"lollollollollollollollollollol\">\n"
        for level in 1...10 {
            dtd += "<!ENTITY lol\(level) \"\(String(repeating: "&lol\(level - 1);", count: 10))\">\n"
        }
        for body in ["Salt & pepper &lol10;", "<b>open &lol10;", "&lol10; &bogus;"] {
            let xml = """
                <?xml version="1.0"?>
                <!DOCTYPE rss [\(dtd)]>
                <rss version="2.0"><channel><title>x</title><item><title>\(body)</title><guid>1</guid></item></channel></rss>
                """
            let result = outcome(xml)
            #expect(result.feed == nil)
            #expect(result.everything.hasSuffix("Detected an entity reference loop"), "\(result.everything)")
        }
    }

    @Test("a broken document's external entities are never read, its text still capped")
    func brokenAndHostile() throws {
        try withSecretFile { directory, secret in
            let path = directory.appendingPathComponent("secret.txt").path
            let xml = """
                <?xml version="1.0"?>
                <!DOCTYPE rss [<!ENTITY xxe SYSTEM "file://\(path)">]>
                <rss version="2.0"><channel><title>T & &xxe; T</title>
                <item><title>I &xxe;</title><description>D &xxe;<br></description><guid>g&xxe;</guid></item></channel></rss>
                """
            let (feed, everything) = outcome(xml)
            #expect(!everything.contains(secret))
            #expect(feed?.title == "T & T")
            #expect(feed?.readWithErrors == true)
        }
        let big = String(repeating: "a", count: 50_000)
        let references = String(repeating: "&big;", count: 50_000)
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [<!ENTITY big "\(big)">]>
            <rss version="2.0"><channel><title>q & q</title><item><description>\(references)</description></item></channel></rss>
            """
        var thrown: FeedParseError?
        do throws(FeedParseError) { _ = try XMLFeedParser.parse(Data(xml.utf8)) } catch { thrown = error }
        #expect(thrown == .notAFeed("too much text: more than 33554432 bytes of character data"))
    }

    @Test("the character-data cap also holds for plain text")
    func capOnPlainText() throws {
        let xml = "<rss><channel><title>\(String(repeating: "x", count: 5000))</title></channel></rss>"
        #expect(throws: FeedParseError.notAFeed("too much text: more than 1000 bytes of character data")) {
            try XMLFeedParser.parse(Data(xml.utf8), baseURL: nil, httpCharset: nil, maxTextBytes: 1000)
        }
        #expect(
            try XMLFeedParser.parse(Data(xml.utf8), baseURL: nil, httpCharset: nil, maxTextBytes: 6000).title
                .count == 5000)
    }

    @Test("an entity that refers to itself is an error, not a hang")
    func entityLoop() throws {
        let xml = """
            <!DOCTYPE rss [<!ENTITY a "&b;"><!ENTITY b "&a;">]>
            <rss version="2.0"><channel><title>&a;</title></channel></rss>
            """
        let (feed, everything) = outcome(xml)
        #expect(feed == nil)
        #expect(everything.hasSuffix("parse error at line 2: Detected an entity reference loop"))
    }
}
