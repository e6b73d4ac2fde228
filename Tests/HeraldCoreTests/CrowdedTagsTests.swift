import Foundation
import Testing

@testable import HeraldCore

@Suite("Tags with too many attributes")
struct CrowdedTagsTests {
    func offset(_ text: String, limit: Int) -> Int? {
        Array(text.utf8).withUnsafeBytes { CrowdedTags.firstOffset(in: $0, limit: limit) }
    }

    @Test("attributes are counted with and without values, quoted values whole")
    func counting() {
        let tag = #"<p a="1 2 3" b c='x > y' d=e/>"#
        #expect(offset("text " + tag, limit: 4) == nil)
        #expect(offset("text " + tag, limit: 3) == 5)
    }

    @Test("comments, CDATA, declarations, end tags and a lone < are not tags")
    func notTags() {
        let many = (0..<50).map { "a\($0)" }.joined(separator: " ")
        for text in [
            "<!-- <p \(many)> -->", "<![CDATA[ <p \(many)> ]]>", "<!DOCTYPE x \(many)>", "</p \(many)>",
            "<?pi \(many)?>", "1 < 2 \(many) >",
        ] {
            #expect(offset(text, limit: 10) == nil, "\(text.prefix(20))")
        }
        #expect(offset("<![CDATA[x]]><p \(many)>", limit: 10) == 13)
    }

    @Test("a UTF-16 document is read as its ASCII bytes")
    func utf16() throws {
        let many = (0..<50).map { "a\($0)=\"1\"" }.joined(separator: " ")
        let data = try #require("<rss><item \(many)/></rss>".data(using: .utf16LittleEndian))
        #expect(data.withUnsafeBytes { CrowdedTags.firstOffset(in: $0, limit: 10) } == 0)
    }

    @Test("a feed with an element of 10,001 attributes is refused, at once")
    func feedRefused() {
        let attributes = (0...CrowdedTags.limit).map { "a\($0)=\"x\"" }.joined(separator: " ")
        let xml =
            "<rss version=\"2.0\"><channel><title>T</title><item \(attributes)><title>I</title></item></channel></rss>"
        #expect(throws: FeedParseError.notAFeed("an element has more than 10000 attributes")) {
            try XMLFeedParser.parse(Data(xml.utf8))
        }
    }

    @Test("an article's crowded tag ends it there; the text before it is kept")
    func htmlCut() {
        let attributes = (0...CrowdedTags.limit).map { "a\($0)" }.joined(separator: " ")
        let text = HTMLText.process("<p>Kept text.</p><p \(attributes)>gone</p><p>gone too</p>").text
        #expect(text == "Kept text.")
    }
}
