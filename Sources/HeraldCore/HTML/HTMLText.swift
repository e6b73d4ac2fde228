import CLibXML2
import Foundation

/// An article body made readable in a terminal: rich text (for the article view), the same
/// as plain text (for search and the command line), and the links it pointed to.
public struct ProcessedHTML: Sendable, Hashable {
    public var rich: RichText
    /// Paragraphs separated by blank lines; the link list comes last.
    public var text: String { rich.plainText }
    /// Absolute link targets; `[1]` in the text is `links[0]`.
    public var links: [String] { rich.links }
}

/// Turns article HTML into rich text with libxml2's forgiving HTML parser.
///
/// Paragraphs and table rows become paragraphs, headings headings; list items get `- ` or
/// `1. ` (nested lists indent, wrapped lines align under the text); blockquotes get `> `;
/// `pre` keeps its lines; `b`/`strong`, `i`/`em`, `code`, `u` and `s` become inline styles;
/// images become `[image: alt]`; links are numbered `[1]` with the list at the end; scripts,
/// styles and other non-content elements are dropped; entities are decoded by the parser.
/// The parser loads nothing from the network and never fails: broken HTML gives what could
/// be read.
public enum HTMLText {
    public static func process(_ html: String, baseURL: String? = nil) -> ProcessedHTML {
        // A body that carries its own base (a feed's xml:base, see `withBase`) resolves
        // against it, as a `<base>` does in a browser.
        let baseURL = declaredBase(html) ?? baseURL
        // HUGE lifts libxml2's nesting limit (256): past it the parser stopped and the rest
        // of the article was lost (300 unclosed <b> did it). The feed's size cap bounds what
        // a deep document can cost; the writer flattens what lies deeper than it descends.
        let options = Int32(
            HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue
                | HTML_PARSE_RECOVER.rawValue | UInt32(XML_PARSE_HUGE.rawValue))
        // Escape sequences go whole before the parser sees them: it drops a lone ESC itself,
        // which would leave the rest of the sequence (`[31m`) in the text.
        var html = TextSanitizer.multiLine(html)
        // A tag with more attributes than any real one ends the article there (see
        // `CrowdedTags`): the text before it is kept.
        if let cut = html.utf8.withContiguousStorageIfAvailable({
            CrowdedTags.firstOffset(in: UnsafeRawBufferPointer($0))
        })
            ?? nil
        {
            html = String(decoding: html.utf8.prefix(cut), as: UTF8.self)
        }
        let document = html.withUTF8 { buffer -> htmlDocPtr? in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return nil }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                htmlReadMemory($0, Int32(clamping: buffer.count), baseURL, "UTF-8", options)
            }
        }
        guard let document else { return ProcessedHTML(rich: RichText()) }
        defer { xmlFreeDoc(document) }

        var writer = HTMLWriter(base: baseURL.flatMap(URL.init(string:)))
        var node = document.pointee.children
        while let current = node {
            writer.visit(current, depth: 0)
            node = current.pointee.next
        }
        return ProcessedHTML(rich: writer.finish())
    }

    private static let basePrefix = Array("<base href=\"".utf8)

    /// `html` led by a `<base href>` naming `base` (the xml:base of the feed element that held
    /// it), so that whoever draws it later resolves its links as the feed meant; unchanged
    /// without a base.
    static func withBase(_ base: String?, _ html: String) -> String {
        guard let base, !base.isEmpty else { return html }
        var href = ""
        href.unicodeScalars.reserveCapacity(base.unicodeScalars.count)
        for scalar in base.unicodeScalars {
            switch scalar {
            case "\"": href += "%22"
            case "<": href += "%3C"
            case ">": href += "%3E"
            default: href.unicodeScalars.append(scalar)
            }
        }
        return "<base href=\"" + href + "\">" + html
    }

    /// The address of a leading `<base href="…">` written by `withBase`, else nil.
    static func declaredBase(_ html: String) -> String? {
        guard html.utf8.starts(with: basePrefix) else { return nil }
        let rest = html.utf8.dropFirst(basePrefix.count)
        guard let end = rest.firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return String(html[rest.startIndex..<end])
    }
}
