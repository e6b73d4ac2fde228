public import Foundation

/// An article as a sync server (FreshRSS, TT-RSS, a Fever server) gives it, made into the
/// item a feed's parser would have made: every value checked as a feed's are (links and
/// enclosures http(s) only, control characters out, titles as text), the body's HTML kept
/// and its text made from it.
public enum ServerItem {
    /// The longest text kept of a title or an author, in characters.
    static let maxLineCharacters = 2000

    /// `id` is the server's id of the item. `title` may hold HTML (servers escape entities
    /// in titles, some keep markup): it is read as HTML when it looks like it.
    public static func make(
        id: String, title: String?, link: String?, author: String?, published: Date?, updated: Date?,
        html: String?, enclosures: [Enclosure] = []
    ) -> ParsedItem {
        let link = link.flatMap { EnclosureList.url($0, base: nil) }
        let html = html ?? ""
        var checked: [Enclosure] = []
        for var enclosure in enclosures.prefix(EnclosureList.limit) {
            guard let url = EnclosureList.url(enclosure.url, base: link) else { continue }
            enclosure.url = url
            enclosure.type = enclosure.type.map(line)
            enclosure.title = enclosure.title.map(line)
            if let length = enclosure.length, length < 0 { enclosure.length = nil }
            checked.append(enclosure)
        }
        let title = line(title ?? "")
        return ParsedItem(
            id: id,
            title: title.isEmpty ? "(untitled)" : title,
            link: link,
            author: author.map(line).flatMap { $0.isEmpty ? nil : $0 },
            published: published, updated: updated,
            text: TextSanitizer.multiLine(html.isEmpty ? "" : HTMLText.process(html, baseURL: link).text),
            html: html.isEmpty ? nil : html,
            enclosures: checked)
    }

    /// A feed's title, a category: one line of text, entities and markup read as HTML.
    public static func line(_ text: String) -> String {
        let text = String(text.prefix(maxLineCharacters))
        let plain = text.contains("&") || text.contains("<") ? HTMLText.process(text).text : text
        return TextSanitizer.singleLine(plain)
    }

    /// An address from a server (a feed's, its site's): nil unless it is an absolute http(s)
    /// URL without control characters.
    public static func url(_ text: String?) -> String? {
        text.flatMap { EnclosureList.url($0, base: nil) }
    }
}
