/// The elements the extractor tells apart; every other element is `.other` (its name is kept
/// as a hash, so that its end tag still finds it).
enum PageTag: UInt8, Sendable {
    case other, text, document
    case html, head, body, title, meta, link, base
    case script, style, noscript, template, iframe, svg, math, textarea, select, option, button
    case input, form, label, nav, aside, header, footer, main, article, section, div, span
    case p, br, hr, img, picture, source, figure, figcaption, a
    case h1, h2, h3, h4, h5, h6
    case ul, ol, li, dl, dt, dd, blockquote, pre, code, em, strong, b, i, u, s, small, sup, sub
    case table, thead, tbody, tfoot, tr, td, th, caption, time, address
    case video, audio, canvas, object, embed, dialog, menu, wbr, center, font, details, summary
    case cite, q, mark, abbr, kbd, del, ins, xmp, noembed, noframes, plaintext, area, col, param
    case track, frameset, frame, applet, marquee

    /// Looked up by the FNV-1a hash of the lowercased name (`PageTag.hash`).
    static let byHash: HashTable<PageTag> = {
        var entries: [(UInt64, PageTag)] = []
        var raw: UInt8 = PageTag.html.rawValue
        while let tag = PageTag(rawValue: raw) {
            entries.append((hash(Array(String(describing: tag).utf8)), tag))
            raw += 1
        }
        return HashTable(entries)
    }()

    static func hash<C: Collection>(_ lowercased: C) -> UInt64 where C.Element == UInt8 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in lowercased { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// Elements that have no content and no end tag.
    var isVoid: Bool {
        switch self {
        case .br, .hr, .img, .meta, .link, .base, .input, .source, .wbr, .area, .col, .param, .track, .embed,
            .frame:
            true
        default: false
        }
    }

    /// Elements whose content is text up to their end tag, not markup.
    var isRawText: Bool {
        switch self {
        case .script, .style, .textarea, .title, .xmp, .iframe, .noembed, .noframes, .noscript, .plaintext: true
        default: false
        }
    }

    /// Start tags that end an open `p` (HTML's "closes a p element" list).
    var closesParagraph: Bool {
        switch self {
        case .address, .article, .aside, .blockquote, .details, .dialog, .div, .dl, .figcaption, .figure,
            .footer, .form, .h1, .h2, .h3, .h4, .h5, .h6, .header, .hr, .main, .menu, .nav, .ol, .p, .pre,
            .section, .summary, .table, .ul, .center, .dd, .dt, .li:
            true
        default: false
        }
    }

    /// Elements an end tag or an implied end does not look past (HTML's scope boundaries).
    var isScopeBoundary: Bool {
        switch self {
        case .html, .table, .td, .th, .caption, .template, .applet, .marquee, .object, .button, .svg, .math,
            .document:
            true
        default: false
        }
    }

    var isHeading: Bool { (PageTag.h1.rawValue...PageTag.h6.rawValue).contains(rawValue) }

    /// Elements that lay out as blocks (a paragraph break before and after).
    var isBlock: Bool {
        switch self {
        case .p, .div, .section, .article, .main, .header, .footer, .aside, .nav, .figure, .figcaption, .ul,
            .ol, .li, .dl, .dt, .dd, .blockquote, .pre, .table, .thead, .tbody, .tfoot, .tr, .td, .th,
            .caption, .address, .h1, .h2, .h3, .h4, .h5, .h6, .hr, .br, .center, .details, .summary, .form,
            .menu, .body, .html, .document, .dialog, .picture, .video, .audio:
            true
        default: false
        }
    }
}
