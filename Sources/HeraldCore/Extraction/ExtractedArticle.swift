public import Foundation

/// An article found in a web page: what it says about itself, and its body as HTML made of
/// the elements the article view draws (so it is stored, searched and drawn as a feed's
/// article body is).
public struct ExtractedArticle: Sendable, Hashable {
    public var title: String?
    public var byline: String?
    public var date: Date?
    /// The body: paragraphs, headings, lists, quotes, code, tables, links and images, and
    /// nothing else (no classes, no scripts).
    public var html: String
    /// The body as the article view draws it.
    public var rich: RichText

    /// The body's text: paragraphs separated by blank lines, without link numbers or image
    /// placeholders.
    public var text: String {
        rich.blocks.map { block in
            block.runs.filter { $0.style.isDisjoint(with: [.linkNumber, .image]) }.map(\.text).joined()
        }.filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    public var links: [String] { rich.links }

    /// Words of text (a page whose article has fewer is not one: a consent wall, an index).
    public var wordCount: Int {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).count
    }
}

extension ArticleExtractor {
    /// The article in `html`, a page fetched from `url` (which its links are resolved
    /// against); nil when the page has no text that reads as an article.
    public static func extract(html: [UInt8], url: String?) -> ExtractedArticle? {
        let tree = PageParser.parse(html)
        var extractor = ArticleExtractor(tree: tree)
        extractor.leaveOut()
        let metadata = PageMetadata(tree: tree)
        guard let top = extractor.score() else { return nil }
        let parts = extractor.withSiblings(top)
        extractor.clean(parts)
        var writer = BodyWriter(tree: tree, removed: extractor.removed)
        for part in parts { writer.write(part) }
        let body = writer.htmlString
        // A page's `<base>` counts only when it names a web address: `javascript:` or `file:`
        // as the base would turn every relative link into one.
        let declared = metadata.base.flatMap { URL(string: $0, relativeTo: url.flatMap(URL.init(string:)))?.absoluteString }
        let base =
            declared.flatMap { $0.lowercased().hasPrefix("http://") || $0.lowercased().hasPrefix("https://") ? $0 : nil }
            ?? url
        let rich = HTMLText.process(body, baseURL: base).rich
        guard !rich.blocks.isEmpty else { return nil }
        return ExtractedArticle(
            title: metadata.title, byline: metadata.byline, date: metadata.date, html: HTMLText.withBase(base, body),
            rich: rich)
    }

    public static func extract(html: String, url: String?) -> ExtractedArticle? {
        extract(html: Array(html.utf8), url: url)
    }
}

/// Writes the article's nodes back as plain HTML: the elements the article view knows, with
/// only the attributes it reads (`href`, `src`, `alt`, `start`), text escaped.
struct BodyWriter {
    let tree: PageTree
    let removed: [Bool]
    var html: [UInt8] = []

    var htmlString: String { String(decoding: html, as: UTF8.self) }

    /// The name an element is written with; nil for one whose content is written alone.
    static func name(_ tag: PageTag) -> String? { names[Int(tag.rawValue)] }

    /// `writtenName` of each tag by raw value, made once: `String(describing:)` goes through
    /// reflection, a microsecond an element (seconds for a page of a million).
    private static let names: [String?] = (0...255).map { PageTag(rawValue: UInt8($0)).flatMap(writtenName) }

    private static func writtenName(_ tag: PageTag) -> String? {
        switch tag {
        case .p, .br, .hr, .h2, .h3, .h4, .h5, .h6, .ul, .ol, .li, .dl, .dt, .dd, .blockquote, .pre, .code, .em,
            .strong, .b, .i, .u, .s, .del, .ins, .sup, .sub, .a, .img, .table, .thead, .tbody, .tfoot, .tr, .td,
            .th, .caption, .figure, .figcaption, .cite, .q, .kbd:
            return String(describing: tag)
        case .h1: return "h2"
        case .div, .section, .article, .main, .header, .center, .address, .details, .summary, .form: return "div"
        default: return nil
        }
    }

    mutating func write(_ root: Int) {
        var open: [(end: Int, name: String?)] = []
        var i = root
        let last = Int(tree.nodes[root].end)
        while i <= last {
            while let top = open.last, top.end < i {
                open.removeLast()
                if let name = top.name { append("</" + name + ">") }
            }
            let node = tree.nodes[i]
            if node.tag == .text {
                escape(tree.text(of: i))
                i += 1
                continue
            }
            if removed[i] {
                i = Int(node.end) + 1
                continue
            }
            let name = Self.name(node.tag)
            if let name { startTag(name, i) }
            if node.tag.isVoid {
                i += 1
                continue
            }
            open.append((Int(node.end), name))
            i += 1
        }
        while let top = open.popLast() {
            if let name = top.name { append("</" + name + ">") }
        }
    }

    private mutating func startTag(_ name: String, _ node: Int) {
        append("<" + name)
        switch tree.nodes[node].tag {
        case .a:
            attribute("href", tree.attribute(.href, of: node).flatMap { Self.isFollowable($0) ? $0 : nil })
        case .img:
            let src = tree.attribute(.src, of: node)
            attribute("src", src.map { $0.starts(with: "data:".utf8) } == true ? tree.attribute(.dataSrc, of: node) : src ?? tree.attribute(.dataSrc, of: node))
            attribute("alt", tree.attribute(.alt, of: node))
        case .ol:
            attribute("start", tree.attribute(.start, of: node))
        default:
            break
        }
        html.append(0x3E)
    }

    /// A link a page may give the reader: relative, or to http, https or mailto. A page is
    /// from the web: its `file:`, `data:` and `javascript:` links are kept as text only.
    static func isFollowable(_ href: ArraySlice<UInt8>) -> Bool {
        // Browsers skip white space and controls inside a scheme (`java\tscript:`).
        let bytes = href.prefix(32).filter { $0 > 0x20 }.map(PageParser.lower)
        guard let colon = bytes.firstIndex(of: 0x3A), colon > 0 else { return true }  // no scheme: relative
        let scheme = bytes[..<colon]
        let isSchemeByte: (UInt8) -> Bool = { PageParser.isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }
        guard scheme.allSatisfy(isSchemeByte) else { return true }  // `a/b:c`: a path
        let name = String(decoding: scheme, as: UTF8.self)
        return name == "http" || name == "https" || name == "mailto"
    }

    private mutating func attribute(_ name: String, _ value: ArraySlice<UInt8>?) {
        guard let value else { return }
        append(" " + name + "=\"")
        for byte in value {
            switch byte {
            case 0x22: append("&quot;")
            case 0x26: append("&amp;")
            case 0x3C: append("&lt;")
            default: html.append(byte)
            }
        }
        html.append(0x22)
    }

    private mutating func escape(_ text: ArraySlice<UInt8>) {
        for byte in text {
            switch byte {
            case 0x26: append("&amp;")
            case 0x3C: append("&lt;")
            case 0x3E: append("&gt;")
            default: html.append(byte)
            }
        }
    }

    private mutating func append(_ text: String) { html += text.utf8 }
}

extension ArticleExtractor {
    /// How the extractor read a page: its best candidates and the parts it kept (for
    /// `herald-bench extract --explain`).
    package static func explain(html: [UInt8]) -> String {
        let tree = PageParser.parse(html)
        var extractor = ArticleExtractor(tree: tree)
        extractor.leaveOut()
        func describe(_ node: Int) -> String {
            let n = tree.nodes[node]
            let name = n.tag == .other ? "?" : String(describing: n.tag)
            let classes = tree.attributeString(.class, of: node).map { " class=\"\($0.prefix(60))\"" } ?? ""
            let id = tree.attributeString(.id, of: node).map { " id=\"\($0)\"" } ?? ""
            let score = extractor.scores[node].isNaN ? "-" : String(format: "%.1f", extractor.scores[node])
            return "#\(node) <\(name)\(id)\(classes)> score \(score) chars \(extractor.chars[node]) links \(String(format: "%.2f", extractor.linkDensity(node)))"
        }
        var lines = ["nodes \(tree.nodes.count), page chars \(extractor.chars[0])"]
        if let word = ProcessInfo.processInfo.environment["TRACE"],
            let hit = (0..<tree.nodes.count).first(where: {
                tree.nodes[$0].tag == .text && String(decoding: tree.text(of: $0), as: UTF8.self).contains(word)
            })
        {
            var node = hit
            while node >= 0 {
                lines.append("trace " + describe(node) + (extractor.removed[node] ? " REMOVED" : ""))
                node = Int(tree.nodes[node].parent)
            }
        }
        guard let top = extractor.score() else { return (lines + ["no candidate"]).joined(separator: "\n") }
        let ranked = (1..<tree.nodes.count).filter { !extractor.scores[$0].isNaN }.sorted {
            extractor.scores[$0] > extractor.scores[$1]
        }
        lines += ranked.prefix(8).map { "candidate " + describe($0) }
        let parts = extractor.withSiblings(top)
        lines += parts.map { "part " + describe($0) }
        extractor.clean(parts)
        var i = parts.first ?? 0
        let end = parts.last.map { Int(tree.nodes[$0].end) } ?? 0
        while i <= end {
            if extractor.removed[i], tree.nodes[i].tag != .text, extractor.chars[i] > 0 || true {
                if tree.nodes[i].tag != .script, tree.nodes[i].tag != .style {
                    lines.append("  dropped " + describe(i) + " \"" + tree.textContent(of: i).prefix(80) + "\"")
                }
                i = Int(tree.nodes[i].end) + 1
            } else {
                i += 1
            }
        }
        return lines.joined(separator: "\n")
    }
}
