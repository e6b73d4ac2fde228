import Testing

@testable import HeraldCore

@Suite("HTML to text")
struct HTMLTextTests {
    func text(_ html: String, base: String? = nil) -> String {
        HTMLText.process(html, baseURL: base).text
    }

    @Test("paragraphs and headings become paragraphs; whitespace collapses")
    func paragraphs() {
        #expect(text("<h1>Title</h1><p>One\n   two</p><p>Three</p>") == "Title\n\nOne two\n\nThree")
    }

    @Test("entities are decoded")
    func entities() {
        #expect(text("<p>caf&eacute; &amp; &lt;tags&gt; &#xD55C;&#44544;</p>") == "café & <tags> 한글")
    }

    @Test("lists get markers, numbered lists count from start, nested lists indent")
    func lists() {
        let html =
            "<ul><li>one</li><li>two<ul><li>inner</li></ul></li></ul><ol start=\"3\"><li>c</li><li>d</li></ol>"
        #expect(text(html) == "- one\n\n- two\n\n  - inner\n\n3. c\n\n4. d")
    }

    @Test("a list after a list starts at the margin")
    func listAfterList() {
        #expect(text("<ul><li>a</li></ul><ol><li>b</li></ol>") == "- a\n\n1. b")
        #expect(text("<ul><li>a<ul><li>x</li></ul></li></ul><ol><li>b</li></ol>") == "- a\n\n  - x\n\n1. b")
    }

    @Test("blockquotes are marked, pre keeps its lines and spaces")
    func quotesAndPre() {
        #expect(text("<blockquote><p>said</p></blockquote>") == "> said")
        #expect(text("<pre>let x = 1\n    indented</pre>") == "let x = 1\n    indented")
    }

    @Test("links are numbered and listed at the end, resolved against the base")
    func links() {
        let result = HTMLText.process(
            "<p>See <a href=\"/docs\">the docs</a> and <a href=\"https://b.example/x\">this</a>.</p>",
            baseURL: "https://a.example/post/1")
        #expect(result.links == ["https://a.example/docs", "https://b.example/x"])
        #expect(
            result.text
                == "See the docs[1] and this[2].\n\nLinks:\n[1] https://a.example/docs\n[2] https://b.example/x"
        )
    }

    @Test("images become their alt text; scripts and styles vanish")
    func imagesAndScripts() {
        let html =
            "<p>Look: <img src=\"x.png\" alt=\"a heron\"><img src=y.png></p><script>alert(1)</script><style>p{}</style>"
        #expect(text(html) == "Look: [image: a heron][image]")
    }

    @Test("tables read row by row")
    func tables() {
        let html = "<table><tr><th>Bird</th><th>Count</th></tr><tr><td>Geese</td><td>18,400</td></tr></table>"
        #expect(text(html) == "Bird  | Count\n\nGeese | 18,400")
    }

    @Test("broken HTML gives what can be read, never a crash")
    func broken() {
        #expect(text("<p>unclosed <b>bold <i>both</p><p>next") == "unclosed bold both\n\nnext")
        #expect(text("") == "")
        #expect(text("a <<b>> c").hasPrefix("a "))
        let deep = String(repeating: "<div>", count: 5000) + "deep" + String(repeating: "</div>", count: 5000)
        _ = text(deep)
    }

    @Test("control characters in HTML never reach the text")
    func controls() {
        let result = text("<p>a&#27;]0;pwned&#7;b\u{1b}[2J</p>")
        #expect(!result.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    @Test("javascript: links are not listed")
    func javascriptLinks() {
        #expect(HTMLText.process("<a href=\"javascript:alert(1)\">x</a>").links.isEmpty)
    }
}

@Suite("Escape sequences in article HTML")
struct HTMLEscapeSequenceTests {
    @Test("a sequence written raw into the HTML goes whole, not just its ESC")
    func rawSequencesGoWhole() {
        let text = HTMLText.process(
            "<p>hi \u{1b}]8;;http://e\u{1b}\\link\u{1b}]8;;\u{1b}\\ and \u{1b}[31mred\u{1b}[0m</p><pre>a\n\tb</pre>"
        ).text
        #expect(text == "hi link and red\n\na\n\tb")
    }
}

@Suite("Deeply nested article HTML")
struct DeepHTMLTests {
    @Test("nesting deeper than libxml2's default 256 levels keeps all the text", arguments: [300, 5000])
    func deepNesting(_ levels: Int) {
        let divs =
            String(repeating: "<div>", count: levels) + "deep" + String(repeating: "</div>", count: levels)
        #expect(HTMLText.process("<p>before</p>" + divs + "<p>after</p>").text == "before\n\ndeep\n\nafter")
        let unclosed = String(repeating: "<b>", count: levels) + "bold <p>after</p>"
        #expect(HTMLText.process(unclosed).text == "bold\n\nafter")
    }
}
