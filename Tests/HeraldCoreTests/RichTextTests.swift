import Testing

@testable import HeraldCore

@Suite("Rich text from HTML, and its layout")
struct RichTextTests {
    func rich(_ html: String) -> RichText { HTMLText.process(html, baseURL: "https://a.example/post").rich }

    /// The lines as text, `|` between spans, with each span's role: `*` strong, `/` emphasis,
    /// `` ` `` code, `_` link, `#` heading, `>` prefix.
    func drawn(_ lines: [RichLine]) -> [String] {
        lines.map { line in
            line.spans.map { span in
                let mark =
                    switch span.role {
                    case .prefix: ">"
                    case .rule: "-"
                    case .heading: "#"
                    case .text(let style):
                        style.contains(.strong) ? "*"
                            : style.contains(.emphasis) ? "/"
                            : style.contains(.code) ? "`"
                            : style.contains(.link) || style.contains(.linkNumber) ? "_" : ""
                    }
                return mark + span.text
            }.joined(separator: "|")
        }
    }

    @Test("emphasis, strong, code and links become inline styles; spaces stay outside them")
    func inlineStyles() {
        let text = rich("<p>A <b>bold</b> and <em>soft</em> <code>x = 1</code> <a href=\"/d\">docs</a>.</p>")
        let runs = text.blocks[0].runs
        #expect(runs.map(\.text) == ["A ", "bold", " and ", "soft", " ", "x = 1", " ", "docs", "[1]", "."])
        #expect(runs[1].style == .strong)
        #expect(runs[3].style == .emphasis)
        #expect(runs[5].style == .code)
        #expect(runs[7].style == .link)
        #expect(runs[8].style == .linkNumber)
        #expect(text.links == ["https://a.example/d"])
    }

    @Test("nested inline styles combine")
    func nested() {
        let runs = rich("<p><b>a <i>b</i></b></p>").blocks[0].runs
        #expect(runs.map(\.text) == ["a ", "b"])
        #expect(runs[1].style == [.strong, .emphasis])
    }

    @Test("headings, preformatted text and rules are blocks of their kind")
    func kinds() {
        let blocks = rich("<h2>Title</h2><pre>\n  let x\n  let y\n\n</pre><hr><p>end</p>").blocks
        #expect(blocks.map(\.kind) == [.heading(level: 2), .preformatted, .rule, .paragraph])
        #expect(blocks[1].runs.map(\.text) == ["  let x\n  let y"])
        #expect(blocks[1].runs[0].style == .code)
    }

    @Test("wrapped list items hang under their text; items of one list sit together")
    func lists() {
        let text = rich("<p>Intro</p><ul><li>one two three four</li><li>five<ol><li>six seven</li></ol></li></ul>")
        #expect(
            drawn(RichLayout.lines(text, width: 12)) == [
                "Intro", "", ">- |one two", ">  |three four", ">- |five", ">  1. |six", ">     |seven",
            ])
    }

    @Test("quotes keep their > on every wrapped line")
    func quotes() {
        let lines = RichLayout.lines(rich("<blockquote>alpha beta gamma delta</blockquote>"), width: 14)
        #expect(drawn(lines) == [">> |alpha beta", ">> |gamma delta"])
        #expect(lines.allSatisfy { $0.spans.allSatisfy(\.quoted) })
    }

    @Test("preformatted lines are cut at the edge, never at spaces")
    func preformatted() {
        let lines = RichLayout.lines(rich("<pre>abc def ghi</pre>"), width: 5)
        #expect(drawn(lines) == ["`abc d", "`ef gh", "`i"])
    }

    @Test("the text reflows to any width, styles intact, and never overflows it")
    func reflow() {
        let text = rich("<p>Some <b>bold words</b> in a <i>longer</i> 한국어 문장과 日本語の文章 sentence.</p>")
        for width in [4, 9, 17, 40, 200] {
            let lines = RichLayout.lines(text, width: width)
            #expect(lines.allSatisfy { DisplayWidth.of($0.text) <= width })
            let joined = lines.map(\.text).joined(separator: " ")
            #expect(joined.filter { $0 != " " } == text.plainText.filter { $0 != " " && $0 != "\n" })
            #expect(lines.contains { $0.spans.contains { $0.role == .text(.strong) && $0.text.contains("bold") } })
        }
    }

    @Test("the link list ends the article, numbered, each link wrapping under its number")
    func linkList() {
        let lines = RichLayout.lines(rich("<p><a href=\"https://b.example/a/long/path\">x</a></p>"), width: 20)
        #expect(
            drawn(lines) == ["_x|_[1]", "", "#Links:", ">[1] |_https://b.exampl", ">    |_e/a/long/path"])
    }

    @Test("table columns line up, rows sit together, and a nested list lines up under its item")
    func alignment() {
        let table = rich("<table><tr><th>Bird</th><th>Count</th></tr><tr><td>Pink-footed geese</td><td>18</td></tr></table>")
        #expect(drawn(RichLayout.lines(table, width: 40)) == ["*Bird|              | |*Count", "Pink-footed geese | 18"])
        let list = rich("<ol><li>one<ul><li>inner</li></ul></li></ol>")
        #expect(drawn(RichLayout.lines(list, width: 40)) == [">1. |one", ">   - |inner"])
    }

    @Test("a table inside a cell is read into the cell; the paragraph before stays apart")
    func nestedTable() {
        let text = rich("<p>before</p><table><tr><td>outer<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table></td></tr></table>")
        #expect(text.blocks.map(\.tight) == [false, false])
        #expect(text.plainText == "before\n\nouter a | b c")
    }

    @Test("deeply nested lists and quotes never push text past the width")
    func deepNesting() {
        let html = String(repeating: "<ul><li>x <blockquote>", count: 60) + "deep text here" + String(repeating: "</blockquote></li></ul>", count: 60)
        for width in [1, 10, 30] {
            let lines = RichLayout.lines(rich(html), width: width)
            #expect(lines.allSatisfy { DisplayWidth.of($0.text) <= width })
            #expect(lines.map(\.text).joined().contains("deep"))
        }
    }

    @Test("paragraphs of one quote keep the > on the line between them")
    func quoteParagraphs() {
        let lines = RichLayout.lines(rich("<blockquote><p>one</p><p>two</p></blockquote><p>after</p>"), width: 20)
        #expect(drawn(lines) == [">> |one", ">>", ">> |two", "", "after"])
    }

    @Test("a table row is one paragraph; header cells are strong")
    func tables() {
        let text = rich("<table><tr><th>Bird</th><th> Count </th></tr><tr><td><p>Geese</p></td><td>18</td></tr></table>")
        #expect(text.plainText == "Bird  | Count\n\nGeese | 18")
        #expect(text.blocks[0].runs.first?.style == .strong)
    }

    @Test("a line break inside a paragraph is kept, without a stray space")
    func lineBreaks() {
        #expect(rich("<p>one<br> two</p>").plainText == "one\ntwo")
        #expect(drawn(RichLayout.lines(rich("<p>one<br>two</p>"), width: 20)) == ["one", "two"])
    }

    // Found by review: each of these was wrong before it was fixed.

    @Test("a hostile list start neither crashes nor overflows")
    func hugeStart() {
        #expect(rich("<ol start=\"9223372036854775807\"><li>a</li><li>b</li></ol>").plainText == "999999999. a\n\n1000000000. b")
        #expect(rich("<ol start=\" 5 \"><li>a</li></ol>").plainText == "5. a")
    }

    @Test("a list inside a table cell runs on in the cell, without a marker on the row")
    func listInCell() {
        #expect(rich("<table><tr><td>x</td><td><ul><li>a</li><li>b</li></ul></td></tr></table>").plainText == "x | a b")
        #expect(rich("<table><tr><td><p>a</p><pre>b</pre></td></tr></table>").plainText == "a b")
    }

    @Test("an empty list item does not mark the block after the list")
    func emptyItem() {
        let text = rich("<ul><li>a</li><li></li></ul><p>after</p>")
        #expect(text.plainText == "- a\n\nafter")
        #expect(text.blocks.last?.tight == false)
        #expect(rich("<blockquote><ol><li>a</li><li> </li></ol><p>after</p></blockquote>").plainText == "> 1. a\n\n> after")
    }

    @Test("a quote that opens a list item keeps its > after the marker")
    func quoteInItem() {
        #expect(drawn(RichLayout.lines(rich("<ul><li><blockquote>q r s t</blockquote></li></ul>"), width: 9)) == [">- > |q r s", ">  > |t"])
    }

    @Test("absolute links with spaces or other unsafe characters are escaped")
    func linkEscaping() {
        #expect(rich("<a href=\"https://a.example/a b\">x</a>").links == ["https://a.example/a%20b"])
        #expect(rich("<a href=\"https://a.example/p?q=1&amp;r=2#f\">x</a>").links == ["https://a.example/p?q=1&r=2#f"])
    }

    @Test("the space after a link stays after its number")
    func spaceAfterLink() {
        #expect(rich("<p><a href=\"/x\">bar </a>baz</p>").blocks[0].plainText == "bar[1] baz")
    }

    @Test("narrow widths: quote separators, prefixes and wide characters stay inside")
    func narrow() {
        let quotes = rich(String(repeating: "<blockquote>", count: 10) + "<p>a</p><p>b</p>" + String(repeating: "</blockquote>", count: 10))
        #expect(RichLayout.lines(quotes, width: 10).allSatisfy { DisplayWidth.of($0.text) <= 10 })
        #expect(RichLayout.lines(rich("<blockquote>日本</blockquote>"), width: 2).map(\.text) == ["日", "本"])
        #expect(TextLayout.wrap("日本", width: 1) == ["日", "本"])
    }

    @Test("an empty first row does not pull the table up against the paragraph before")
    func emptyFirstRow() {
        #expect(drawn(RichLayout.lines(rich("<p>x</p><table><tr><td></td></tr><tr><td>a</td></tr></table>"), width: 20)) == ["x", "", "a"])
    }

    @Test("preformatted tabs stop every 8 columns; wrapped lines do not start with a space")
    func tabsAndSpaces() {
        #expect(RichLayout.lines(rich("<pre>a\tb\nabcd\tb</pre>"), width: 40).map(\.text) == ["a       b", "abcd    b"])
        #expect(TextLayout.wrap("abcde  fg", width: 5) == ["abcde", "fg"])
    }

    @Test("a rule inside a quote is part of the quote")
    func ruleInQuote() {
        let lines = RichLayout.lines(rich("<blockquote><p>a</p><hr><p>b</p></blockquote>"), width: 6)
        #expect(drawn(lines) == [">> |a", ">>", ">> |-────", ">>", ">> |b"])
    }

    /// 220 levels: past the writer's 200, within libxml2's own limit of 256 (beyond it the
    /// HTML parser stops reading).
    @Test("text nested past the depth the writer follows is still read, as words")
    func deepText() {
        let html = String(repeating: "<div><b>", count: 110) + "deep <script>x()</script>words" + String(repeating: "</b></div>", count: 110) + "<p>after</p>"
        let text = rich(html).plainText
        #expect(text.contains("deep words"))
        #expect(!text.contains("x()"))
        #expect(text.hasSuffix("after"))
    }

    @Test("editors' empty paragraphs and runs of line breaks leave one blank line at most")
    func editorLeftovers() {
        let text = rich("<p>one</p><p>&nbsp;</p><p>\u{A0} two<br><br><br><br>three&nbsp;</p>")
        #expect(text.plainText == "one\n\ntwo\n\nthree")
        #expect(RichLayout.lines(text, width: 20).map(\.text) == ["one", "", "two", "", "three"])
    }
}
