import Testing

@testable import HeraldCore
@testable import HeraldNewsboat

@Suite("Which addresses may become a subscription")
struct FeedAddressTests {
    @Test(
        "http and https from anywhere; file: only when typed",
        arguments: [FeedAddress.Origin.listed, .discovered])
    func fileOnlyTyped(_ origin: FeedAddress.Origin) throws {
        #expect(
            try FeedAddress.check(" https://example.org/feed ", from: origin) == "https://example.org/feed")
        #expect(try FeedAddress.check("HTTP://example.org/feed", from: origin) == "HTTP://example.org/feed")
        #expect(throws: FeedAddress.Refusal.self) {
            try FeedAddress.check("file:///etc/passwd", from: origin)
        }
        #expect(try FeedAddress.check("file:///home/me/feed.xml", from: .typed) == "file:///home/me/feed.xml")
    }

    @Test(
        "other schemes, non-URLs, controls, spaces and hostless addresses are refused, typed or not",
        arguments: [
            "javascript:alert(1)", "data:text/xml,<rss/>", "ftp://example.org/feed", "this", "", "   ",
            "http:///feed", "https://example.org/\u{1b}[31m", "https://example.org/a b",
            "https://e.org/\u{202E}x",
            "query:Unread:unread = \"yes\"", "https://example.org/" + String(repeating: "a", count: 5000),
        ])
    func refused(_ address: String) {
        for origin in [FeedAddress.Origin.typed, .listed, .discovered] {
            #expect(throws: FeedAddress.Refusal.self, "\(origin): \(address.prefix(40))") {
                try FeedAddress.check(address, from: origin)
            }
        }
    }

    @Test("a refusal says why")
    func reasons() {
        #expect(throws: FeedAddress.Refusal("javascript: is not a feed's scheme (only http and https are)")) {
            try FeedAddress.check("javascript:alert(1)", from: .listed)
        }
        #expect(throws: FeedAddress.Refusal("a file: address may only be typed, not come from a web page")) {
            try FeedAddress.check("file:///etc/passwd", from: .discovered)
        }
    }

    @Test("a urls file's entries keep their line numbers, blank and comment lines counted")
    func listedLines() {
        let listed = NewsboatURLs.parseListed("# mine\n\nhttps://a.example/feed tech\r\nquery:x:y\nthis\n")
        #expect(listed.map(\.line) == [3, 4, 5])
        #expect(listed.map(\.subscription.url) == ["https://a.example/feed", "query:x:y", "this"])
        #expect(
            NewsboatURLs.parse("https://a.example/feed\nquery:x:y").map(\.url) == ["https://a.example/feed"])
    }
}
