import Foundation
import Testing

@testable import HeraldCore

@Suite("Enclosures: podcasts and media in feeds")
struct EnclosureParsingTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    func parseXML(_ name: String, baseURL: String? = nil) throws -> ParsedFeed {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("xml/" + name))
        return try XMLFeedParser.parse(data, baseURL: baseURL)
    }

    func parseJSON(_ name: String) throws -> ParsedFeed {
        try JSONFeedParser.parse(Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
    }

    // MARK: The model's own readings

    @Test("details and summary say what is known: type, size, running time")
    func detailsAndSummary() {
        let episode = Enclosure(
            url: "https://x/e.mp3", type: "audio/mpeg", length: 48_000_000, duration: 3733)
        #expect(episode.details == "audio/mpeg, 48 MB, 1:02:13")
        #expect(episode.summary == "Podcast: https://x/e.mp3 (audio/mpeg, 48 MB, 1:02:13)")
        let bare = Enclosure(url: "https://x/file.bin", length: 0, duration: 0)
        #expect(bare.details == "")
        #expect(bare.summary == "Media: https://x/file.bin")
        #expect(Enclosure(url: "https://x/v.webm?token=1").summary == "Video: https://x/v.webm?token=1")
        #expect(Enclosure(url: "https://x/a.MP3?x=.txt").kindLabel == "Podcast")
        #expect(
            Enclosure(url: "https://x/p", type: "image/png", length: 3_400).summary
                == "Image: https://x/p (image/png, 3.4 KB)")
    }

    @Test("sizes in powers of 1000 with one decimal below 10")
    func sizes() {
        #expect(Enclosure.size(0) == "0 B")
        #expect(Enclosure.size(812) == "812 B")
        #expect(Enclosure.size(999) == "999 B")
        #expect(Enclosure.size(1000) == "1 KB")
        #expect(Enclosure.size(3_400) == "3.4 KB")
        #expect(Enclosure.size(48_000_000) == "48 MB")
        #expect(Enclosure.size(15_600_000) == "16 MB")
        #expect(Enclosure.size(1_234_000_000) == "1.2 GB")
        #expect(Enclosure.size(5_000_000_000_000_000) == "5000 TB")
    }

    @Test("durations as h:mm:ss or m:ss")
    func durations() {
        #expect(Enclosure.duration(0) == "0:00")
        #expect(Enclosure.duration(59) == "0:59")
        #expect(Enclosure.duration(2525) == "42:05")
        #expect(Enclosure.duration(3600) == "1:00:00")
        #expect(Enclosure.duration(3733) == "1:02:13")
        #expect(Enclosure.duration(36_000 + 59) == "10:00:59")
    }

    @Test("itunes:duration readings: seconds, m:ss, h:mm:ss; anything else nil")
    func parseDuration() {
        #expect(Enclosure.parseDuration("3723") == 3723)
        #expect(Enclosure.parseDuration("62:03") == 3723)
        #expect(Enclosure.parseDuration("1:02:03") == 3723)
        #expect(Enclosure.parseDuration(" 1:02:03\n") == 3723)
        #expect(Enclosure.parseDuration("600.5") == 600)
        #expect(Enclosure.parseDuration("0") == 0)
        #expect(Enclosure.parseDuration("") == nil)
        #expect(Enclosure.parseDuration("forty minutes") == nil)
        #expect(Enclosure.parseDuration("1:02:03:04") == nil)
        #expect(Enclosure.parseDuration("1::03") == nil)
        #expect(Enclosure.parseDuration("-5") == nil)
        #expect(Enclosure.parseDuration("99999999999") == nil)
    }

    @Test("the byte reading of durations agrees with the Character-level one, or leaves the text to it")
    func parseDurationFastPath() {
        let alphabet = Array("0123456789:. \t+-a\u{A0}")
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var samples = [
            "3723", " 62:03 ", "1:02:03.5", "1.", ".5", "1.2.3", "1.:5", "0000000001", "1: 02", "+5",
        ]
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(state >> 60) % 9
            var text = ""
            for shift in 0..<length {
                text.append(alphabet[Int((state >> UInt64(shift * 6)) & 0x3F) % alphabet.count])
            }
            samples.append(text)
        }
        var fast = 0
        for text in samples {
            let reference = Enclosure.parseDurationSlowly(text)
            if let seconds = Enclosure.parseDurationBytes(text.utf8) {
                fast += 1
                #expect(seconds == reference, "\(text.debugDescription)")
            }
            #expect(Enclosure.parseDuration(text) == reference, "\(text.debugDescription)")
        }
        // The byte reading takes the usual shapes itself.
        #expect(fast > 1000)
        #expect(Enclosure.parseDurationBytes(" 1:02:03\n".utf8) == 3723)
        #expect(Enclosure.parseDurationBytes("600.5".utf8) == 600)
    }

}
