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
        // which would leave the rest of the sequence (`[31m`) in the text; so does it a
        // reference to one (`&#27;[31m`), which is read as the control it names first.
        var html = TextSanitizer.multiLine(ControlReferences.decoded(html))
        // A tag with more attributes than any real one ends the article there (see
        // `CrowdedTags`): the text before it is kept.
        if let cut = html.utf8.withContiguousStorageIfAvailable({
            CrowdedTags.firstOffset(in: UnsafeRawBufferPointer($0))
        })
            ?? nil
        {
            html = String(decoding: html.utf8.prefix(cut), as: UTF8.self)
        }
        let writer = WriterBox(HTMLWriter(base: baseURL.flatMap(URL.init(string:))))
        html.withUTF8 { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
            base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                parse($0, count: buffer.count, options: options, into: writer)
            }
        }
        return ProcessedHTML(rich: writer.writer.finish())
    }

    /// The writer the parser's callbacks reach through their context pointer.
    private final class WriterBox {
        var writer: HTMLWriter
        init(_ writer: HTMLWriter) { self.writer = writer }
    }

    /// Parses as `htmlReadMemory` does (the same steps, so the same recovery from broken
    /// HTML), but hands the elements and text to the writer as they come instead of
    /// building a tree: allocating, walking and freeing a tree for each article cost a cold
    /// reload of full-content feeds 8% of its CPU.
    private static func parse(
        _ bytes: UnsafePointer<CChar>, count: Int, options: Int32, into writer: WriterBox
    ) {
        // htmlReadMemory set libxml2 up each time; once is enough.
        _ = XMLFeedParser.libxmlReady
        guard let context = xmlCreateMemoryParserCtxt(bytes, Int32(clamping: count)) else { return }
        defer { htmlFreeParserCtxt(context) }
        // Only these callbacks: no document is made. Blanks the parser deems ignorable are
        // dropped, as libxml2's tree builder drops them.
        var handler = htmlSAXHandler()
        handler.startElement = { context, name, attributes in
            guard let context, let name else { return }
            Unmanaged<WriterBox>.fromOpaque(context).takeUnretainedValue().writer.startElement(
                name, UnsafePointer(attributes))
        }
        handler.endElement = { context, _ in
            guard let context else { return }
            Unmanaged<WriterBox>.fromOpaque(context).takeUnretainedValue().writer.endElement()
        }
        let characters: charactersSAXFunc = { context, text, count in
            guard let context, let text, count > 0 else { return }
            Unmanaged<WriterBox>.fromOpaque(context).takeUnretainedValue().writer.characters(
                UnsafeBufferPointer(start: text, count: Int(count)))
        }
        handler.characters = characters
        // Script and style bodies come as CDATA; the tree had them as text (both dropped).
        handler.cdataBlock = characters
        context.pointee.sax.pointee = handler
        context.pointee.userData = Unmanaged.passUnretained(writer).toOpaque()
        htmlCtxtUseOptions(context, options)
        context.pointee.html = 1
        if let utf8 = xmlFindCharEncodingHandler("UTF-8") { xmlSwitchToEncoding(context, utf8) }
        withExtendedLifetime(writer) { _ = htmlParseDocument(context) }
    }

    private static let basePrefix = Array("<base href=\"".utf8)

    /// `html` led by a `<base href>` naming `base` (the xml:base of the feed element that held
    /// it), so that whoever draws it later resolves its links as the feed meant; unchanged
    /// without a base.
    package static func withBase(_ base: String?, _ html: String) -> String {
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
