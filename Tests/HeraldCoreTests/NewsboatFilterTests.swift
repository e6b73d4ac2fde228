import Foundation
import Testing

@testable import HeraldCore
@testable import HeraldNewsboat

/// newsboat's filter expressions (query feeds, ignore-article) in Herald's query language.
@Suite("newsboat filter expressions translated")
struct NewsboatFilterTests {
    @Test(
        "expressions that mean the same in Herald are translated",
        arguments: [
            ("unread = \"yes\"", "unread"),
            ("unread != \"yes\"", "read"),
            ("unread = \"no\"", "read"),
            ("flags # \"s\"", "starred"),
            ("flags !# \"s\"", "unstarred"),
            ("tags # \"tech\"", "tag:tech"),
            ("tags !# \"open source\"", "tags are matched"),
            ("tags !# \"tech\"", "-tag:tech"),
            ("title =~ \"rust|swift\"", "title:/rust|swift/"),
            ("author !~ \"bot\"", "-author:/bot/"),
            ("title = \"Hello (world)\"", "title:/^Hello \\(world\\)$/"),
            ("age < 7", "age<7d"),
            ("age >= 30", "age>=30d"),
            ("age between 1:7", "age>=1d age<=7d"),
            ("feedtitle =~ \"Daily\"", "feed:Daily"),
            ("rssurl = \"https://a.example/feed\"", "feed:https://a.example/feed"),
            ("enclosure_url != \"\"", "podcast"),
            ("unread = \"yes\" and tags # \"tech\"", "unread tag:tech"),
            ("unread = \"yes\" or flags # \"s\"", "unread or starred"),
            ("( unread = \"yes\" or age < 2 ) and tags # \"news\"", "(unread or age<2d) tag:news"),
            ("unread = \"yes\" and tags # \"a\" or tags # \"b\"", "(unread tag:a) or tag:b"),
            ("tags # \"read\"", "tag:\"read\""),
            ("age between 1:7 or unread = \"yes\"", "(age>=1d age<=7d) or unread"),
        ])
    func translates(newsboat: String, herald: String) throws {
        if herald.hasPrefix("tags are") {
            #expect(throws: NewsboatFilter.Untranslatable.self) { try NewsboatFilter.translate(newsboat) }
        } else {
            #expect(try NewsboatFilter.translate(newsboat) == herald)
        }
    }

    @Test(
        "expressions Herald cannot express are refused with the reason",
        arguments: [
            ("content =~ \"linux\"", "by words"),
            ("feedindex = 3", "no Herald equivalent"),
            ("title =~ \"a/b\"", "`/`"),
            ("title =~ \"(unclosed\"", "regular expression"),
            ("feedtitle =~ \"^News\"", "plain text"),
            ("flags # \"\"", "one flag"),
            ("age between 7", "two numbers"),
            ("unread = \"maybe\"", "\"yes\""),
            ("( unread = \"yes\"", "parenthesis"),
            ("title =~ \"open", "quote"),
            ("title", "operator"),
            ("unread = \"yes\" tags # \"x\"", "unexpected"),
        ])
    func refuses(newsboat: String, reason: String) {
        do {
            let translated = try NewsboatFilter.translate(newsboat)
            Issue.record("\(newsboat) became \(translated)")
        } catch {
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    @Test("deep parentheses are refused past 64 and 100,000 and-ed terms translate, not a crash")
    func deepExpressions() throws {
        let term = "unread = \"yes\""
        func nested(_ depth: Int) -> String {
            String(repeating: "( ", count: depth) + term + String(repeating: " )", count: depth)
        }
        #expect(try NewsboatFilter.translate(nested(InputLimits.queryDepth)) == "unread")
        for depth in [InputLimits.queryDepth + 1, 20_000] {
            #expect(throws: NewsboatFilter.Untranslatable("parentheses nested deeper than 64")) {
                try NewsboatFilter.translate(nested(depth))
            }
        }
        let chain = Array(repeating: "title =~ \"x\"", count: 100_000)
        #expect(try NewsboatFilter.translate(chain.joined(separator: " and ")).count == 100_000 * 10 - 1)
        #expect(
            try NewsboatFilter.translate(chain.joined(separator: " or "))
                == Array(repeating: "title:/x/", count: 100_000).joined(separator: " or "))
    }

    @Test("query lines of urls become Herald query lines; hidden feeds are found")
    func urlExtras() throws {
        let extras = NewsboatURLExtras.parse(
            """
            https://a.example/feed tech
            "query:Unread tech:unread = \\"yes\\" and tags # \\"tech\\""
            https://b.example/feed ! secret
            "query:Body:content =~ \\"x\\""
            """)
        #expect(extras.hidden.map(\.line) == [3])
        #expect(extras.hidden.map(\.url) == ["https://b.example/feed"])
        #expect(extras.queries.map(\.name) == ["Unread tech", "Body"])
        #expect(try extras.queries[0].translation.get() == "query \"Unread tech\" unread tag:tech")
        #expect(throws: NewsboatFilter.Untranslatable.self) { try extras.queries[1].translation.get() }
    }

    @Test("the newsboat directory is found as newsboat finds it")
    func locates() {
        let home = ["HOME": "/h"]
        #expect(NewsboatSetup.locate(directory: "/d/", environment: home).cache == "/d/cache.db")
        let dotdir = NewsboatSetup.locate(directory: nil, environment: home) { $0 == "/h/.newsboat" }
        #expect(
            dotdir
                == NewsboatSetup(
                    urls: "/h/.newsboat/urls", config: "/h/.newsboat/config", cache: "/h/.newsboat/cache.db"))
        let xdg = NewsboatSetup.locate(
            directory: nil, environment: ["HOME": "/h", "XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d"]
        ) { $0 == "/c/newsboat" }
        #expect(
            xdg
                == NewsboatSetup(
                    urls: "/c/newsboat/urls", config: "/c/newsboat/config", cache: "/d/newsboat/cache.db"))
        let defaults = NewsboatSetup.locate(directory: nil, environment: home) { $0 == "/h/.config/newsboat" }
        #expect(defaults.cache == "/h/.local/share/newsboat/cache.db")
        let nothing = NewsboatSetup.locate(directory: nil, environment: home) { _ in false }
        #expect(nothing.urls == "/h/.newsboat/urls")
    }

    @Test("an item without a guid keeps the identity Herald's parser gives it; flags become the star")
    func cachedItems() {
        let made = NewsboatCachedItem(
            guid: "https://a.example/2Tue, 01 Dec 2026 10:00:00 +0000", title: "Two", author: "",
            link: "https://a.example/2", feedURL: "https://a.example/feed", published: 1_796_119_200,
            content: "<p>Hello <b>world</b></p>", unread: true, flags: "")
        #expect(made.parsedItem.id == "https://a.example/2")
        #expect(made.parsedItem.text.contains("Hello world"))
        #expect(made.parsedItem.author == nil)
        #expect(!made.isFlagged)
        var real = made
        real.guid = "https://a.example/2-not-a-date"
        real.flags = "X"
        #expect(real.parsedItem.id == real.guid)
        #expect(real.isFlagged)
        var podcast = made
        podcast.enclosureURL = "javascript:alert(1)"
        #expect(podcast.parsedItem.enclosures.isEmpty, "checked as the parsers check enclosures")
        podcast.enclosureURL = "https://a.example/ep.mp3"
        podcast.enclosureType = "audio/mpeg"
        #expect(podcast.parsedItem.enclosures.map(\.url) == ["https://a.example/ep.mp3"])
    }
}
