import Foundation
import Testing

/// `herald list` filters and JSON fields, and `herald tags`, against a real library file.
@Suite("herald list and herald tags on the command line", .serialized)
struct CommandLineListingTests {
    typealias Library = CommandLineTests.Library
    typealias Demo = CommandLineTests.Demo

    @Test("list --starred prints only starred articles, and combines with --unread and --feed")
    func starred() throws {
        let library = Library()
        defer { library.cleanUp() }
        let all = try library.jsonLines(["list"])
        #expect(all.count == Demo.articles)
        let ids = try library.sqlite(
            """
            UPDATE articles SET starred = 1 WHERE id IN (SELECT id FROM articles ORDER BY id LIMIT 3);
            UPDATE articles SET read = 1 WHERE id = (SELECT min(id) FROM articles);
            SELECT id FROM articles WHERE starred = 1 ORDER BY id;
            """
        ).split(separator: "\n").map(String.init)
        #expect(ids.count == 3)
        let starred = try library.jsonLines(["list", "--starred"])
        #expect(Set(starred.compactMap { $0["id"] as? String }) == Set(ids))
        #expect(starred.allSatisfy { $0["starred"] as? Bool == true })
        let unreadStarred = try library.jsonLines(["list", "--starred", "--unread"])
        #expect(Set(unreadStarred.compactMap { $0["id"] as? String }) == Set(ids.dropFirst()))
        let feed = try #require(starred.first?["feed_url"] as? String)
        let inFeed = try library.jsonLines(["list", "--feed", feed, "--starred"])
        #expect(inFeed.count == starred.filter { $0["feed_url"] as? String == feed }.count)
        let text = try library.run(["list", "--starred"])
        let lines = text.output.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.hasPrefix("N*") || $0.hasPrefix(" *") }, "\(lines)")
    }

    @Test(
        "list --tag prints the tagged feeds' articles; an unknown tag or feed is a usage error saying how to list them"
    )
    func tag() throws {
        let library = Library()
        defer { library.cleanUp() }
        _ = try library.jsonLines(["list"])
        let tagged = try library.run(["add", Demo.hangul, "--tag", "한글"])
        #expect(tagged.exitStatus == 0, "\(tagged.errors)")
        #expect(tagged.output.contains("updated \(Demo.hangul): tagged 한글"), "\(tagged.output)")
        let rows = try library.jsonLines(["list", "--tag", "한글"])
        #expect(rows.count == Demo.hangulArticles)
        #expect(
            rows.allSatisfy { $0["feed_url"] as? String == Demo.hangul && $0["tags"] as? [String] == ["한글"] })
        #expect(try library.jsonLines(["list", "--tag", "한글", "--feed", Demo.fieldJournal]).isEmpty)
        #expect(try library.jsonLines(["list"]).count == Demo.articles, "tagging a demo feed keeps the demo")

        let unknownTag = try library.run(["list", "--tag", "nope"])
        #expect(unknownTag.exitStatus == 2)
        #expect(
            unknownTag.errors.contains("no tag 'nope'") && unknownTag.errors.contains("herald tags"),
            "\(unknownTag.errors)")
        #expect(unknownTag.output.isEmpty)
        let unknownFeed = try library.run(["list", "--feed", "https://nowhere.example/feed"])
        #expect(unknownFeed.exitStatus == 2)
        #expect(
            unknownFeed.errors.contains("no feed https://nowhere.example/feed")
                && unknownFeed.errors.contains("herald export"))
    }

    @Test("list --limit N stops after N rows, the first N of the list, with or without other filters")
    func limit() throws {
        let library = Library()
        defer { library.cleanUp() }
        let all = try library.jsonLines(["list"]).compactMap { $0["id"] as? String }
        let five = try library.jsonLines(["list", "--limit", "5"]).compactMap { $0["id"] as? String }
        #expect(five == Array(all.prefix(5)))
        let hangul = try library.jsonLines(["list", "--feed", Demo.hangul]).compactMap { $0["id"] as? String }
        let two = try library.jsonLines(["list", "--feed", Demo.hangul, "--limit", "2"]).compactMap {
            $0["id"] as? String
        }
        #expect(two == Array(hangul.prefix(2)))
        #expect(try library.jsonLines(["list", "--limit", "1000"]).count == Demo.articles)
        #expect(try library.run(["list", "--limit", "3"]).output.split(separator: "\n").count == 3)
        #expect(try library.run(["list", "--limit", "0"]).exitStatus == 2)
        #expect(try library.run(["list", "--limit"]).exitStatus == 2)
    }

    @Test("list --json gives each article its link or null, its feed's tags and its enclosures, keys sorted")
    func jsonFields() throws {
        let library = Library()
        defer { library.cleanUp() }
        _ = try library.jsonLines(["list"])
        #expect(
            try library.run(["add", Demo.fieldJournal, "--tag", "nature", "--tag", "english"]).exitStatus == 0
        )
        let ids = try library.sqlite(
            """
            SELECT a.id FROM articles a JOIN feeds f ON f.id = a.feed_id
            WHERE f.url = '\(Demo.fieldJournal)' ORDER BY a.id LIMIT 2;
            """
        ).split(separator: "\n").map(String.init)
        let (podcast, linkless) = (ids[0], ids[1])
        try library.sqlite(
            """
            UPDATE articles SET enclosures = '[{"url":"https://example.com/a.mp3","type":"audio/mpeg","length":1234,"duration":61},{"url":"https://example.com/b.pdf","title":"Notes"}]'
                WHERE id = \(podcast);
            UPDATE articles SET link = NULL WHERE id = \(linkless);
            """)
        let rows = try library.jsonLines(["list"])
        #expect(rows.count == Demo.articles)
        let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0["id"] as? String ?? "", $0) })
        let enclosures = try #require(byID[podcast]?["enclosures"] as? [[String: Any]])
        #expect(enclosures.count == 2)
        #expect(enclosures[0]["url"] as? String == "https://example.com/a.mp3")
        #expect(enclosures[0]["type"] as? String == "audio/mpeg")
        #expect(enclosures[0]["length"] as? Int == 1234 && enclosures[0]["duration"] as? Int == 61)
        #expect(Set(enclosures[0].keys) == ["url", "type", "length", "duration"], "nulls are left out")
        #expect(Set(enclosures[1].keys) == ["url", "title"] && enclosures[1]["title"] as? String == "Notes")
        #expect(byID[linkless]?["link"] is NSNull, "no link is null, not missing")
        #expect((byID[podcast]?["link"] as? String)?.hasPrefix("https://example.com/field-journal/") == true)
        for row in rows {
            let isFieldJournal = row["feed_url"] as? String == Demo.fieldJournal
            #expect(row["tags"] as? [String] == (isFieldJournal ? ["nature", "english"] : []))
            // The demo's own podcast episode carries its audio; every other article none.
            if row["title"] as? String == "How we test a TUI without a terminal" {
                let demo = try #require(row["enclosures"] as? [[String: Any]])
                #expect(demo.first?["url"] as? String == "https://example.org/herald/audio/testing-a-tui.mp3")
            } else if row["id"] as? String != podcast {
                #expect((row["enclosures"] as? [Any])?.isEmpty == true)
            }
        }
        let line = try #require(
            try library.run(["list", "--json", "--feed", Demo.fieldJournal]).output.split(separator: "\n")
                .first { $0.contains("\"id\":\"\(podcast)\"") })
        let printed =
            #""enclosures":[{"duration":61,"length":1234,"type":"audio/mpeg","url":"https://example.com/a.mp3"},{"title":"Notes","url":"https://example.com/b.pdf"}]"#
        #expect(line.contains(printed), "\(line)")
        let outer = line.replacingOccurrences(of: printed, with: #""enclosures":[]"#)
        let keys = [
            "author", "enclosures", "feed", "feed_url", "id", "link", "published", "read", "starred", "tags",
            "title",
        ]
        let positions = keys.compactMap { outer.range(of: "\"\($0)\":")?.lowerBound }
        #expect(positions.count == keys.count && positions == positions.sorted(), "keys sorted: \(line)")
    }

    @Test(
        "tags prints every tag with unread/total and feed counts, as text and JSON; with none it says how to add one"
    )
    func tags() throws {
        let library = Library()
        defer { library.cleanUp() }
        let none = try library.run(["tags"])
        #expect(none.exitStatus == 0)
        #expect(none.output.isEmpty)
        #expect(none.errors == "no tags yet: herald add URL --tag T\n")
        #expect(
            try library.run(["add", Demo.fieldJournal, "--tag", "nature", "--tag", "english"]).exitStatus == 0
        )
        #expect(try library.run(["add", Demo.heraldNotes, "--tag", "english"]).exitStatus == 0)
        try library.sqlite(
            """
            UPDATE articles SET read = 1 WHERE id IN (SELECT a.id FROM articles a JOIN feeds f ON f.id = a.feed_id
                WHERE f.url = '\(Demo.fieldJournal)' LIMIT 2);
            """)
        let text = try library.run(["tags"])
        #expect(text.exitStatus == 0, "\(text.errors)")
        #expect(text.output == "english  (24/26)  2 feeds\nnature   (11/13)  1 feed\n", "\(text.output)")
        let json = try library.run(["tags", "--json"])
        #expect(
            json.output == """
                {"feeds":2,"tag":"english","total":26,"unread":24}
                {"feeds":1,"tag":"nature","total":13,"unread":11}

                """, "\(json.output)")
        #expect(try library.run(["tags", "--bogus"]).exitStatus == 2)
    }

    @Test("feed titles, article titles and tags carrying ESC, C1 and bidi controls print as plain text")
    func hostileText() throws {
        let library = Library()
        defer { library.cleanUp() }
        _ = try library.jsonLines(["list"])
        try library.sqlite(
            """
            UPDATE feeds SET title = 'Evil' || char(27) || '[31mRed' || char(8238) || 'txt' || char(155) || '2J',
                tags = 'x' || char(27) || '[31m' || char(8238) || 'y' || char(8294) || char(9) || 'plain'
                WHERE url = '\(Demo.hangul)';
            UPDATE articles SET title = char(27) || ']0;pwned' || char(7) || 'Title' || char(8207) || char(10) || 'two'
                WHERE id = (SELECT min(a.id) FROM articles a JOIN feeds f ON f.id = a.feed_id WHERE f.url = '\(Demo.hangul)');
            """)
        let list = try library.run(["list", "--feed", Demo.hangul])
        #expect(list.exitStatus == 0, "\(list.errors)")
        // Whole sequences go, not just their ESC or CSI.
        #expect(list.output.contains("EvilRedtxt "), "\(list.output)")
        #expect(list.output.contains(" Title two"), "\(list.output)")
        #expect(list.output.split(separator: "\n").count == Demo.hangulArticles, "one line per article")
        let tagged = try library.run(["list", "--tag", "plain"])
        #expect(tagged.output.split(separator: "\n").count == Demo.hangulArticles)
        let tags = try library.run(["tags"])
        #expect(tags.exitStatus == 0, "\(tags.errors)")
        #expect(tags.output.contains("xy") && tags.output.contains("plain"), "\(tags.output)")
        for (name, output) in [("list", list.output), ("list --tag", tagged.output), ("tags", tags.output)] {
            let forbidden = output.unicodeScalars.filter { scalar in
                switch scalar.value {
                case 0x0A: false
                case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
                default: false
                }
            }
            #expect(forbidden.isEmpty, "\(name) printed \(forbidden.map { String($0.value, radix: 16) })")
        }
    }
}
