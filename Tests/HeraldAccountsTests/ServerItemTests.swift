import Foundation
import HeraldCore
import Testing

@Suite struct ServerItemTests {
    @Test func hostileValuesAreChecked() {
        let item = ServerItem.make(
            id: "tag:google.com,2005:reader/item/0001", title: "Caf&eacute; <b>\u{1B}[2J</b>",
            link: "javascript:alert(1)", author: "A\nB", published: nil, updated: nil,
            html: "<p>One</p><p>Two</p>",
            enclosures: [Enclosure(url: "file:///etc/passwd"), Enclosure(url: "https://example.org/a.mp3")])
        #expect(item.title.contains("Café"))
        #expect(!item.title.unicodeScalars.contains { $0.value == 0x1B })
        #expect(item.link == nil)
        #expect(item.author?.contains("\n") == false)
        #expect(item.text.contains("One") && item.text.contains("Two"))
        #expect(item.enclosures.map(\.url) == ["https://example.org/a.mp3"])
    }
}
