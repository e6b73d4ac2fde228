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

    @Test("only encodings that keep markup in ASCII bytes are repaired")
    func repairable() {
        #expect(XMLRepair.isRepairable(Data("<rss/>".utf8)))
        #expect(XMLRepair.isRepairable(Data("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><rss/>".utf8)))
        #expect(!XMLRepair.isRepairable(Data("<?xml version=\"1.0\" encoding=\"ISO-2022-JP\"?><rss/>".utf8)))
        #expect(!XMLRepair.isRepairable(Data([0xFF, 0xFE, 0x3C, 0x00])))
    }
}
