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

    // MARK: RSS 2.0 and iTunes

    @Test("a podcast episode: enclosure, itunes:duration, itunes:image, and itunes:summary as its only body")
    func podcastEpisode() throws {
        let feed = try parseXML("podcast.xml")
        #expect(feed.items.count == 4)
        let episode = feed.items[0]
        #expect(episode.title == "Episode 42: Terminals")
        #expect(
            episode.enclosures == [
                Enclosure(
                    url: "https://cdn.example.org/episodes/ep42.mp3", type: "audio/mpeg", length: 48_000_000,
                    duration: 3733)
            ])
        #expect(
            episode.enclosures.first?.summary
                == "Podcast: https://cdn.example.org/episodes/ep42.mp3 (audio/mpeg, 48 MB, 1:02:13)")
        #expect(episode.image == "https://podcast.example.org/ep42.jpg")
        // Plain text, kept as written (the subtitle ranks lower).
        #expect(episode.text == "We talk about terminals & feed readers.\nThen about 3 < 4.")
        #expect(episode.html == nil)
    }

    @Test("a description beats itunes:summary; a seconds-only duration; a sloppy type trimmed and lowercased")
    func descriptionBeatsSummary() throws {
        let episode = try parseXML("podcast.xml").items[1]
        #expect(episode.text == "The description wins.")
        #expect(episode.html == "<p>The <b>description</b> wins.</p>")
        #expect(
            episode.enclosures == [
                Enclosure(
                    url: "https://cdn.example.org/episodes/ep41.m4a", type: "audio/x-m4a", length: 0,
                    duration: 3723)
            ])
        // The channel's itunes:image is the show's, not the episode's.
        #expect(episode.image == nil)
        #expect(episode.enclosures[0].details == "audio/x-m4a, 1:02:03")
    }

    @Test("itunes:summary holding tags is read as HTML; minutes:seconds durations")
    func summaryAsHTML() throws {
        let episode = try parseXML("podcast.xml").items[2]
        #expect(episode.html == "<p>Show notes with <a href=\"https://notes.example.org/\">a link</a>.</p>")
        #expect(episode.text.hasPrefix("Show notes with a link"))
        #expect(!episode.text.contains("<"))
        #expect(episode.enclosures.map(\.duration) == [3723])
    }

    @Test("itunes:subtitle is the body of last resort; an unreadable duration is none")
    func subtitleOnly() throws {
        let episode = try parseXML("podcast.xml").items[3]
        #expect(episode.text == "Short: 3 < 4.")
        #expect(episode.html == nil)
        #expect(
            episode.enclosures == [
                Enclosure(url: "https://cdn.example.org/episodes/ep39.mp3", type: "audio/mpeg")
            ])
    }

    // MARK: Atom

    @Test("Atom enclosure links: resolved against xml:base, title on one line, a negative length dropped")
    func atomEnclosures() throws {
        let feed = try parseXML("atom-enclosures.xml")
        #expect(feed.items.count == 2)
        let talk = feed.items[0]
        #expect(talk.link == "https://atom.example.org/blog/talk.html")
        #expect(
            talk.enclosures == [
                Enclosure(
                    url: "https://atom.example.org/blog/media/talk.ogg", type: "audio/ogg", length: 1_200_000,
                    title: "The talk (Ogg)"),
                Enclosure(url: "https://cdn.example.org/talk.mp4", type: "video/mp4"),
            ])
        #expect(talk.text == "A talk about feeds.")
        let elsewhere = feed.items[1]
        // The entry's own xml:base; javascript: dropped; "12abc" is no length.
        #expect(elsewhere.enclosures == [Enclosure(url: "https://other.example.net/y/b.mp3")])
    }

    // MARK: Media RSS

    @Test(
        "media:group: every media:content a file, media:title inside one its title, media:description the body"
    )
    func mediaGroup() throws {
        let feed = try parseXML("media-rss.xml", baseURL: "https://media.example.org/feed.xml")
        let video = feed.items[0]
        #expect(video.title == "A video in three renditions")
        #expect(
            video.enclosures == [
                Enclosure(
                    url: "https://media.example.org/v/1-1080.mp4", type: "video/mp4", length: 900_000_000,
                    duration: 600),
                Enclosure(
                    url: "https://media.example.org/v/1-720.mp4", type: "video/mp4", length: 400_000_000,
                    duration: 600, title: "720p"),
                Enclosure(url: "https://media.example.org/v/1.webm", type: "video/webm"),
            ])
        #expect(video.enclosures[0].kindLabel == "Video")
        // The group's thumbnail, not the one of a single rendition met first.
        #expect(video.image == "https://media.example.org/v/1.jpg")
        #expect(video.text == "What the video shows.")
    }

    @Test("the same URL twice is one file with what each says; itunes:image wins over media:thumbnail")
    func sameURLMerged() throws {
        let item = try parseXML("media-rss.xml").items[1]
        // The enclosure says length 0 and no type: media:content fills both, and its duration
        // beats itunes:duration (the file's own).
        #expect(
            item.enclosures == [
                Enclosure(
                    url: "https://cdn.example.org/a.mp3", type: "audio/mpeg", length: 5_000_000, duration: 300
                )
            ])
        #expect(item.image == "https://cdn.example.org/episode.png")
        #expect(item.text == "Body.")
    }

    @Test("Media RSS pictures (an avatar, a photo) are not files to play; the thumbnail is the image")
    func picturesAreNotEnclosures() throws {
        let item = try parseXML("media-rss.xml").items[2]
        #expect(item.enclosures.isEmpty)
        #expect(item.image == "https://media.example.org/photo-thumb.jpg")
        #expect(item.title == "A blog post with pictures")
        #expect(item.text == "Text.")
    }

    @Test("a picture an RSS enclosure also names is kept, merged; an HTML media:description is the body")
    func pictureAlsoEnclosure() throws {
        let item = try parseXML("media-rss.xml").items[3]
        // Either order: the picture first (poster), the enclosure first (cover).
        #expect(
            item.enclosures == [
                Enclosure(url: "https://media.example.org/poster.jpg", type: "image/jpeg", length: 2000),
                Enclosure(url: "https://media.example.org/cover.png", type: "image/png", length: 3000),
            ])
        #expect(item.enclosures[0].kindLabel == "Image")
        #expect(item.html == "<p>A <i>poster</i>.</p>")
        #expect(item.text == "A poster.")
    }

    // MARK: Hostile feeds

    @Test("unsafe and sloppy enclosures: only http(s) URLs survive, relative ones resolved, bad lengths nil")
    func hostileEnclosures() throws {
        let feed = try parseXML("hostile-enclosures.xml", baseURL: "https://h.example.org/feeds/main.xml")
        #expect(
            feed.items[0].enclosures == [
                Enclosure(url: "https://h.example.org/feeds/episodes/relative.mp3", type: "audio/mpeg"),
                Enclosure(url: "https://h.example.org/rooted.mp3", type: "audio/mpeg"),
                Enclosure(url: "https://cdn.example.org/protocol.mp3"),
                Enclosure(url: "HTTPS://Caps.example.org/x.mp3", length: 42),
                Enclosure(url: "https://h.example.org/a%20b.mp3"),
                Enclosure(url: "https://h.example.org/plus.mp3"),
            ])
    }

    @Test("without a feed URL to resolve against, relative enclosures are dropped")
    func relativeWithoutBase() throws {
        let urls = try parseXML("hostile-enclosures.xml").items[0].enclosures.map(\.url)
        #expect(
            urls == [
                "HTTPS://Caps.example.org/x.mp3", "https://h.example.org/a%20b.mp3",
                "https://h.example.org/plus.mp3",
            ])
    }

    @Test("10,000 enclosures in one item are capped, and 10,000 repeats of one URL are one file")
    func enclosuresCapped() throws {
        var xml =
            "<rss version=\"2.0\" xmlns:media=\"http://search.yahoo.com/mrss/\"><channel><title>Many</title>"
        xml += "<item><title>Distinct</title>"
        for index in 0..<10_000 {
            xml +=
                "<enclosure url=\"https://m.example.org/\(index).mp3\" type=\"audio/mpeg\" length=\"\(index)\"/>"
        }
        xml += "</item><item><title>Repeated</title>"
        for index in 0..<10_000 {
            xml += "<media:content url=\"https://m.example.org/same.mp3\" fileSize=\"\(index + 1)\"/>"
        }
        xml += "</item><item><title>Plain</title><description>No media.</description></item></channel></rss>"
        let feed = try XMLFeedParser.parse(Data(xml.utf8))
        let distinct = feed.items[0].enclosures
        #expect(distinct.count == EnclosureList.limit)
        #expect(EnclosureList.limit == 64)
        #expect(distinct.first?.url == "https://m.example.org/0.mp3")
        #expect(
            distinct.last == Enclosure(url: "https://m.example.org/63.mp3", type: "audio/mpeg", length: 63))
        #expect(feed.items[1].enclosures == [Enclosure(url: "https://m.example.org/same.mp3", length: 1)])
        #expect(feed.items[2].enclosures.isEmpty)
        #expect(feed.items[2].image == nil)
    }

    // MARK: JSON Feed

    @Test("JSON Feed attachments: merged by URL, resolved against the feed, unsafe and broken ones skipped")
    func jsonAttachments() throws {
        let feed = try parseJSON("jsonfeed-media/attachments.json")
        #expect(feed.items.count == 3)
        let episode = feed.items[0]
        #expect(
            episode.enclosures == [
                Enclosure(
                    url: "https://json.example.org/ep1.mp3", type: "audio/mpeg", length: 48_000_000,
                    duration: 3733,
                    title: "MP3 version"),
                Enclosure(
                    url: "https://json.example.org/feeds/ep1.m4a", type: "audio/mp4", length: 1000,
                    duration: 3733),
                Enclosure(url: "https://json.example.org/odd.mp3"),
                Enclosure(url: "https://json.example.org/half.mp3"),
            ])
        #expect(episode.image == "https://json.example.org/ep1.jpg")
        #expect(episode.text == "Notes.")
    }

    @Test("JSON Feed: banner_image when image is unsafe, the summary still the body, odd values no failure")
    func jsonImageFallback() throws {
        let items = try parseJSON("jsonfeed-media/attachments.json").items
        #expect(items[1].image == "https://json.example.org/banner2.jpg")
        #expect(items[1].enclosures.isEmpty)
        #expect(items[1].text == "Only a summary.")
        #expect(items[2].image == nil)
        #expect(items[2].enclosures.isEmpty)
    }

    @Test("JSON Feed: 10,000 attachments in one item are capped")
    func jsonAttachmentsCapped() throws {
        let attachments = (0..<10_000).map { "{\"url\": \"https://j.example.org/\($0).mp3\"}" }
        let json = """
            {"version": "https://jsonfeed.org/version/1.1", "title": "Many",
             "items": [{"id": "1", "content_text": "x", "attachments": [\(attachments.joined(separator: ","))]}]}
            """
        let enclosures = try JSONFeedParser.parse(Data(json.utf8)).items[0].enclosures
        #expect(enclosures.count == 64)
        #expect(enclosures.last?.url == "https://j.example.org/63.mp3")
    }

    @Test("a directory of JSON feeds gives articles their enclosures and image")
    func directoryArticles() async throws {
        let repository = try await FeedDirectory.load(Self.fixtures.appendingPathComponent("jsonfeed-media"))
        let feedID = try #require(await repository.feedSummaries().first?.id)
        let summaries = try await repository.articles(inFeed: feedID, page: .first(limit: 10))
        let episode = try #require(summaries.first(where: { $0.title == "Episode one" }))
        let article = try await repository.article(id: episode.id)
        #expect(article.enclosures.count == 4)
        #expect(article.enclosures.first?.url == "https://json.example.org/ep1.mp3")
        #expect(article.image == "https://json.example.org/ep1.jpg")
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

    @Test("feed values checked: lengths are non-negative integers, types lowercased, URLs http(s) only")
    func checkedValues() {
        #expect(EnclosureList.length("123") == 123)
        #expect(EnclosureList.length(" 0 ") == 0)
        #expect(EnclosureList.length("-1") == nil)
        #expect(EnclosureList.length("+1") == nil)
        #expect(EnclosureList.length("1e6") == nil)
        #expect(EnclosureList.length("") == nil)
        #expect(EnclosureList.length("99999999999999999999") == nil)
        #expect(EnclosureList.type(" Audio/MPEG ") == "audio/mpeg")
        #expect(EnclosureList.type(" \t") == nil)
        #expect(
            EnclosureList.url("\u{A0}https://x.example/a.mp3\u{A0}", base: nil) == "https://x.example/a.mp3")
        #expect(EnclosureList.url("vbscript:x", base: "https://x.example/") == nil)
        #expect(EnclosureList.url("https://x.example/\u{1B}[2J", base: nil) == nil)
        #expect(EnclosureList.url(String(repeating: "a", count: 9000), base: "https://x.example/") == nil)
        #expect(
            EnclosureList.title(String(repeating: "t", count: 600))?.count == EnclosureList.maxTitleCharacters
                + 1)
    }
}
