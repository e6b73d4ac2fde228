import Foundation
import Testing

@testable import HeraldCore

/// The extractor on hand-written pages of the common templates (`Fixtures/pages`): each test
/// names sentences of the article that must be in its text and strings of the page around it
/// (navigation, share bars, related stories, comments, banners, footers) that must not.
@Suite("Article extraction")
struct ArticleExtractorTests {
    static let pages = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/pages")

    static func page(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: pages.appendingPathComponent(name + ".html")))
    }

    func extract(_ name: String, url: String?, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> ExtractedArticle
    {
        try #require(
            ArticleExtractor.extract(html: Self.page(name), url: url), sourceLocation: sourceLocation)
    }

    func expect(
        _ text: String, has kept: [String], not dropped: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for sentence in kept {
            #expect(text.contains(sentence), "missing: \(sentence)", sourceLocation: sourceLocation)
        }
        for boilerplate in dropped {
            #expect(!text.contains(boilerplate), "kept: \(boilerplate)", sourceLocation: sourceLocation)
        }
    }

    @Test("a WordPress post: entry-content whole, with its quote, list, table and code; no chrome")
    func wordPressPost() throws {
        let article = try extract("wordpress-blog", url: "https://blog.example.org/2024/03/winter-birds/")
        let text = article.text
        expect(
            text,
            has: [
                "The tide was already turning when we reached the sea wall, so the first hour was spent counting",
                "Our team of six volunteers, armed with telescopes, clickers and flasks of tea, covered",
                "Knot were the surprise of the morning.",
                "Nobody counts eighteen thousand birds; you count a hundred",
                "The full tally, sector by sector, is below.",
                "Knot        | 11,200   | 6,900", "Brent goose | 410      | 1,120",
                "What we took with us", "Two telescopes with 20–60× zoom eyepieces",
                "A tally sheet per sector, printed on waterproof paper",
                "Tide tables for the nearest port, checked the night before",
                "Next month the count moves to the northern shore.",
            ],
            not: [
                "Skip to content", "Birdwatching", "Moth Traps", "About the Diarist", "A naturalist", "»",
                "We use cookies", "Accept cookies", "Share this", "Share on Facebook", "Email a friend",
                "Related", "The geese return to the saltmarsh", "October in the moth trap", "Posted in",
                "waders",
                "Previous post", "thoughts on", "Peter Lindqvist", "What a morning that must have been",
                "Thank you for the script", "brent geese mostly pale-bellied", "Leave a Reply",
                "Post Comment",
                "Most popular", "When the swifts come back", "Get the newsletter", "One email a month",
                "Subscribe now", "Contact the diarist", "Proudly powered", "Photo: M. Holt",
                // The title is the article's, not a paragraph of its body.
                "Counting Winter Birds",
            ])
        // The code block keeps its lines and their indentation.
        #expect(
            text.contains(
                "let total = sheet\n    .split(separator: \"\\n\")\n    .compactMap { Int($0) }\n    .reduce(0, +)"
            ))
        #expect(article.title == "Counting Winter Birds on the Estuary")
        #expect(article.byline == "Maren Holt")
        #expect(article.date == Date(timeIntervalSince1970: 1_709_367_300))
        // Links resolve against the page's address and are numbered in the order they come.
        #expect(
            article.links == [
                "https://blog.example.org/guides/wetland-survey/",
                "https://www.example.net/wetland-birds/calendar?year=2024&month=4",
                "https://blog.example.org/2024/02/january-count/",
            ])
        let numbered = article.rich.plainText
        #expect(numbered.contains("the survey guide[1] describes"))
        #expect(numbered.contains("national calendar[2], and you can read last month’s report[3] for"))
        #expect(numbered.contains("[image: A flock of knot wheeling over the mudflats]"))
        #expect(!text.contains("[image"))
        #expect(article.html.contains("<blockquote>") && article.html.contains("<pre>"))
        #expect(!article.html.contains("class=") && !article.html.contains("<script"))
    }

    @Test("a news story: itemprop=articleBody, without ads, read-more lines, share links and rails")
    func newsStory() throws {
        let article = try extract(
            "news-article-body", url: "https://courier.example.co.uk/news/local/harbour-bridge")
        expect(
            article.text,
            has: [
                "The Harbour Bridge, which carries about 24,000 vehicles a day, will close to traffic from Monday,",
                "Buses will be diverted over the Mill Street crossing,",
                "“We know this is disruptive, and we would not close the bridge unless we had to,” said Councillor",
                "Why now?", "The bearings, installed when the bridge was widened in 1987,",
                "Week one: scaffolding and the temporary footbridge go up.",
                "Weeks two to five: the old bearings are jacked out and replaced.",
                "Week six: load testing, resurfacing and reopening.",
                "footfall had already fallen by a third since the roadworks on Quay Street began.",
                "The council said it would publish a detailed timetable on its website later this week.",
            ],
            not: [
                "Subscribe for", "Sign in", "Sport", "Opinion", "Weather", "Advertisement", "Local news",
                "Facebook", "Twitter", "WhatsApp", "Read more", "Ferry timetable changes",
                "Transport Correspondent", "More on this story", "Bridge inspection finds corrosion",
                "Full list of bus diversions",
                "Morning Briefing", "Sign up for our free morning newsletter", "Sign me up", "Most read",
                "Lottery winner", "Snow expected", "Famous bakery", "About us", "Terms and conditions",
                "All rights reserved", "Tracking pixel",
            ])
        #expect(article.title == "Harbour bridge to close for six weeks of repairs")
        #expect(article.byline == "Jonas Ebert")
        #expect(article.date == Date(timeIntervalSince1970: 1_699_943_400))
        #expect(
            article.links == [
                "https://courier.example.co.uk/news/local/quay-street-roadworks",
                "https://council.example.gov/transport/harbour-bridge",
            ])
        #expect(
            article.rich.plainText.contains("1. Week one") && article.rich.plainText.contains("3. Week six"))
    }

    @Test("a page without paragraphs: prose in a div, lines split by <br>, without the link column")
    func proseWithoutParagraphs() throws {
        let article = try extract("no-paragraphs", url: "http://home.example.net/~tomasz/radio.html")
        expect(
            article.text,
            has: [
                "The set came from a house clearance, with a cracked back panel,",
                "Before switching anything on, I replaced every paper capacitor,",
                "The rectifier was fine, but the smoothing capacitors were bulging,",
                "but the set now pulls in stations from all over Europe at night.",
                "- 12 capacitors, 630 V\n- 1 dial cord, 1.5 m",
                "If you have the same model and need the service sheet, download it here,",
            ],
            not: [
                "Guestbook", "Valve radios", "Clock repair", "Guitar amplifiers", "Miscellaneous",
                "Best viewed",
                "Email me", "webring", "Back to top", "Restoring a 1962",
            ])
        #expect(article.title == "Restoring a 1962 valve radio")
        #expect(article.byline == nil && article.date == nil)
        #expect(article.links == ["http://home.example.net/sheets/model-62.pdf"])
    }

    @Test("an article split into sections is kept whole, the cards after it are not")
    func sections() throws {
        let article = try extract("sections", url: "https://longreads.example.com/essays/lighthouse")
        expect(
            article.text,
            has: [
                "I. The rock", "The lighthouse stands on a rock nine miles out,",
                "Edwin Marr arrived there in 1951, aged twenty,", "II. The keepers",
                "His son, Alasdair, was born on the mainland", "You do not keep a light.",
                "When Alasdair joined the service in 1974,", "III. Automation",
                "The last keeper, Alasdair’s daughter Fiona, left the rock in 1998,",
                "nobody has spent a night on the rock for a quarter of a century.",
            ],
            not: [
                "Issues", "Essays", "Shop", "Tweet this essay", "Share this essay", "You might also like",
                "A short history of fog signals", "The island school", "Ferrymen", "Contributors",
                "Submissions",
            ])
        #expect(article.title == "The long road to the lighthouse")
        #expect(article.byline == "Hannah Oduya")
        #expect(article.date == Date(timeIntervalSince1970: 1_658_361_600))
        #expect(article.links.isEmpty)
    }

    @Test("one story and a list of teaser articles: the story alone")
    func storyAndTeasers() throws {
        let article = try extract("story-and-teasers", url: "https://sciencenow.example.com/tech/robot-swarm")
        expect(
            article.text,
            has: [
                "Engineers have built a swarm of robots, each smaller than a grain of rice,",
                "Each robot senses the light given off by its neighbours,",
                "“It is the simplest rule we could think of, and it works surprisingly well,” said Professor",
                "The team hopes that, one day, such swarms could inspect pipes,",
            ],
            not: [
                "Space", "Health", "More from Science Now", "A comet returns", "Astronomers say",
                "Why teenagers", "A large study of school pupils", "recycle electric car batteries",
                "As the first generation", "independent publication", "Li Wei",
            ])
        #expect(article.title == "Tiny robots learn to swim in formation")
        // The only author named is an address: no byline rather than a URL.
        #expect(article.byline == nil)
        #expect(article.date == Date(timeIntervalSince1970: 1_704_830_400))
    }

    @Test("a Japanese article: sentences without commas or spaces still score as prose")
    func japanese() throws {
        let article = try extract("japanese", url: "https://kurashi.example.jp/2023/09/machiya")
        expect(
            article.text,
            has: [
                "築百年を超える町家を買ったのは、三年前の春のことでした。",
                "最初に取りかかったのは耐震補強です。", "古い家は直すものではなく、付き合うものだと思います。",
                "室温は以前より五度ほど高くなりました。", "耐震補強：約四か月", "水回りの更新：約三週間",
                "工事の詳しい記録は改修日誌にまとめています。",
            ],
            not: [
                "ホーム", "お問い合わせ", "＞", "ポスト", "シェア", "はてブ", "関連記事", "畳の張り替え",
                "坪庭", "コメント", "長屋の改修", "工務店", "人気の記事", "梅干し", "プライバシーポリシー",
                "運営者情報",
            ])
        #expect(article.title == "京都の古い町家を改修して分かったこと")
        #expect(article.byline == "山田 花子")
        #expect(article.date == Date(timeIntervalSince1970: 1_694_995_200))
        #expect(article.links == ["https://kurashi.example.jp/2023/08/machiya-log"])
    }

    @Test("JSON-LD gives the headline, every author and the date; the rating and sign-up boxes go")
    func linkedData() throws {
        let article = try extract("json-ld", url: "https://crumb.example.com/sourdough/")
        expect(
            article.text,
            has: [
                "Most sourdough recipes read like a laboratory manual,", "This one does not.", "Ingredients",
                "500 g strong white flour", "10 g fine salt", "Method",
                "Fold the dough four times, once every half hour.", "Bake in a lidded pot at 240 °C,",
                "If the crust is too dark, lower the oven to 220 °C",
            ],
            not: [
                "This site uses cookies", "I agree", "Manage settings", "All recipes", "Cakes",
                "Rate this recipe",
                "Want a new recipe", "Join the list", "About us", "Affiliate disclosure",
            ])
        #expect(article.title == "Sourdough Without the Fuss")
        #expect(article.byline == "Clara Benz, Ravi Menon")
        #expect(article.date == Date(timeIntervalSince1970: 1_617_428_700))
        #expect(
            article.rich.plainText.contains("1. Mix everything") && article.rich.plainText.contains("4. Bake")
        )
    }

    @Test("a short post under a long comment thread: the post, not the thread")
    func shortPostLongThread() throws {
        let article = try extract("short-post-long-thread", url: "https://slowtech.example.org/paper")
        expect(
            article.text,
            has: [
                "After six years of note-taking apps, sync conflicts and subscriptions,",
                "Paper does not notify me, does not need charging,",
                "I still keep a searchable archive: once a month, I photograph the pages, and that is enough.",
            ],
            not: [
                "Archive\n", "42 comments", "Alice K.", "lost a whole year", "Which notebook do you use?",
                "Counterpoint", "document scanner", "e-ink tablet", "What pen, though?", "Post comment",
                "About Slow Tech",
            ])
        #expect(article.byline == "Gus Petrakis")
    }

    @Test("a page that leaves out html, head and body (as HTML lets it) has its article found")
    func optionalTags() throws {
        let article = try extract("optional-tags", url: "https://ada.example.net/notes/wheel")
        expect(
            article.text,
            has: [
                "The rear wheel had a cracked rim, so I kept the hub,",
                "Truing took longer than lacing.", "The wheel has now done six hundred miles,",
                "Rim: 32 holes, 622 mm", "Pattern: three-cross, both sides",
                "Next time I will buy a proper truing stand, and, I hope, rebuild the front wheel as well.",
            ],
            not: ["Written by hand", "Feed", "Notes on rebuilding"])
        #expect(article.title == "Notes on rebuilding a bicycle wheel")
        #expect(article.byline == "Ada Quist")
        #expect(article.date == Date(timeIntervalSince1970: 1_633_219_200))
        #expect(article.links.last == "https://ada.example.net/notes/front-wheel")
        withKnownIssue("links loose at the top of the page, outside any box, stay with the article") {
            #expect(!article.text.contains("Home · Notes · About"))
        }
    }

    // Known gaps: both pages below come back as "articles". A caller can tell them by
    // `wordCount`, and both tests record what comes back so that a fix shows up here.

    @Test("a consent wall is not an article (known issue: its notice comes back as one)")
    func consentWall() throws {
        let article = ArticleExtractor.extract(
            html: try Self.page("consent-wall"), url: "https://media.example.com/")
        // What does come back is the notice's prose alone, short, without its buttons.
        #expect((article?.wordCount ?? 0) < 80)
        #expect(article?.text.contains("Accept all") != true && article?.text.contains("Reject all") != true)
        withKnownIssue("the only prose on the page is the wall's, and it is taken for the article") {
            #expect((article?.wordCount ?? 0) < 20, "\(article?.text ?? "")")
        }
    }

    @Test("a front page of teasers is not an article (known issue: the teasers come back as one)")
    func frontPage() throws {
        let article = ArticleExtractor.extract(
            html: try Self.page("index"), url: "https://gazette.example.com/")
        // The headlines are links and go; the summaries under them stay.
        #expect(article?.text.contains("Voters head to the polls") != true)
        withKnownIssue("a list of `article`s divides its score, but nothing scores higher") {
            #expect((article?.wordCount ?? 0) < 30, "\(article?.text ?? "")")
        }
    }
}
