import Foundation
import Testing

@testable import HeraldCore

@Suite("XML repair of broken feeds")
struct XMLRepairTests {
    func repaired(_ xml: String) -> String {
        String(decoding: XMLRepair.repaired(Data(xml.utf8)), as: UTF8.self)
    }

    @Test("the repair escapes what starts no markup and balances tags, leaving declarations and CDATA alone")
    func repair() {
        #expect(
            repaired("<a>x & y &bogus; &nbsp; &amp; &#38; &#x26; &lt; a < b</a>")
                == "<a>x &amp; y &amp;bogus; &nbsp; &amp; &#38; &#x26; &lt; a &lt; b</a>")
        #expect(repaired("<a><b>t</a>") == "<a><b>t</b></a>")
        #expect(repaired("<a>t</b>u</a>") == "<a>tu</a>")
        #expect(repaired("<a><B>t</b></a>") == "<a><B>t</B></a>")
        #expect(
            repaired("<a x=1 y z=\"q>r\" x=\"2\" w='\"&'>")
                == "<a x=\"1\" y=\"y\" z=\"q>r\" w=\"&quot;&amp;\"></a>")
        #expect(
            repaired("<a t=\"never closed><b>x</b></a>")
                == "<a t=\"&quot;never\" closed=\"closed\"><b>x</b></a>")
        #expect(
            repaired("<rss><channel><item>a<item>b</channel></rss>")
                == "<rss><channel><item>a</item><item>b</item></channel></rss>")
        #expect(
            repaired("<rss><channel></channel></rss><channel>x")
                == "<rss><channel></channel><channel>x</channel></rss>")
        let kept = """
            <?xml version="1.0"?><!DOCTYPE a [<!ENTITY e "x & ]> y"><!-- & -->]><a>&e;<![CDATA[x & <y>]]><!-- < & --><?pi & ?></a>
            """
        #expect(repaired(kept) == kept)
        #expect(repaired("<a>\n<b>\n&\n</a>") == "<a>\n<b>\n&amp;\n</b></a>")
    }

    @Test("a C0 control, raw or a reference, in text, attributes and CDATA becomes its stand-in's reference")
    func controlsBecomeStandIns() {
        #expect(
            repaired("<a>x\u{1B}[31m &#27;[0m &#x1b;y &#9;</a>")
                == "<a>x&#xFDEB;[31m &#xFDEB;[0m &#xFDEB;y &#9;</a>")
        #expect(repaired("<a b='\u{07}&#7;'/>") == "<a b=\"&#xFDD7;&#xFDD7;\"/>")
        #expect(repaired("<a><![CDATA[p\u{1B}[1mq]]></a>") == "<a><![CDATA[p]]>&#xFDEB;<![CDATA[[1mq]]></a>")
        #expect(
            repaired("<a>&#99999999999999999999;</a>") == "<a>&#99999999999999999999;</a>",
            "no character: as it was")
    }

    @Test("a broken feed's escape sequences go whole, where libxml2 alone would drop the ESC and keep `[31m`")
    func escapeSequencesGoWhole() throws {
        let feed = try XMLFeedParser.parse(
            Data(
                """
                <rss version="2.0"><channel><title>T&#27;]0;pwned&#7;itle</title>
                <item><title>A \u{1B}[31mred&#27;[0m title</title><link>https://e.example/1</link>
                <description>x &#27;[2Jy</description></item></channel></rss>
                """.utf8))
        #expect(!feed.warnings.isEmpty, "read with errors")
        #expect(feed.title == "Title")
        #expect(feed.items.map(\.title) == ["A red title"])
        #expect(feed.items.first?.text == "x y")
    }

    @Test("only encodings that keep markup in ASCII bytes are repaired")
    func repairable() {
        #expect(XMLRepair.isRepairable(Data("<rss/>".utf8)))
        #expect(XMLRepair.isRepairable(Data("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><rss/>".utf8)))
        #expect(!XMLRepair.isRepairable(Data("<?xml version=\"1.0\" encoding=\"ISO-2022-JP\"?><rss/>".utf8)))
        #expect(!XMLRepair.isRepairable(Data([0xFF, 0xFE, 0x3C, 0x00])))
    }
}
