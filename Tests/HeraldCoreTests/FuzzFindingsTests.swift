import Foundation
import Testing

@testable import HeraldCore

/// Inputs the fuzz targets (Fuzz/, `make fuzz`) found, each kept as the smallest case that
/// failed before its fix.
@Suite("What the fuzzers found")
struct FuzzFindingsTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/xml")

    @Test("a feed declaring entities leaves none of libxml2's memory behind")
    func entityDeclarationsAreFreed() throws {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("entities.xml"))
        _ = try XMLFeedParser.parse(data)  // libxml2's own first-use tables are not the parse's
        let leftOver = try LibXMLAllocations.leftOver { _ = try XMLFeedParser.parse(data) }
        #expect(leftOver == 0)
    }

    @Test("the Links: heading keeps to a width narrower than itself")
    func linksHeadingWraps() {
        let text = RichText(
            blocks: [RichBlock(kind: .paragraph, runs: [RichRun("x")])], links: ["https://b.example"])
        for width in 1...6 {
            for line in RichLayout.lines(text, width: width) {
                #expect(
                    line.spans.reduce(0) { $0 + DisplayWidth.of($1.text) } <= width,
                    "\(line.text) at \(width)")
            }
        }
    }

    @Test("an OPML category's tags lose their control characters, as its titles do")
    func categoryTagsAreSanitised() throws {
        let opml = """
            <opml version="2.0"><body><outline text="T\u{7F}" xmlUrl="https://example.org/f" \
            category="/nat\u{7F}ure,&#x202E;weekly,&#x9B;31m"/></body></opml>
            """
        let feeds = try OPML.parse(Data(opml.utf8))
        #expect(feeds.map(\.title) == ["T"])
        #expect(feeds.map(\.tags) == [["nature", "weekly"]])  // the CSI goes whole
    }
}
