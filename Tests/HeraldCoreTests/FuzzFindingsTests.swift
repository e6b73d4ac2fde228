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
}
