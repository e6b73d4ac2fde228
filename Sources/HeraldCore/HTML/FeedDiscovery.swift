import CLibXML2
public import Foundation

/// A feed a web page points to with `<link rel="alternate">`.
public struct DiscoveredFeed: Sendable, Hashable {
    public var url: String
    public var title: String?
    public var type: String
}

/// Finds the feeds an HTML page announces, so `herald add` accepts a site's address.
public enum FeedDiscovery {
    static let feedTypes: Set<String> = [
        "application/rss+xml", "application/atom+xml", "application/feed+json", "application/json",
        "application/rdf+xml", "text/xml", "application/xml",
    ]

    /// The alternate feeds of a page, in page order, with absolute URLs.
    public static func alternateFeeds(in data: Data, pageURL: String) -> [DiscoveredFeed] {
        let options = Int32(
            HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue
                | HTML_PARSE_RECOVER.rawValue)
        let document: htmlDocPtr? = data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count > 0 else { return nil }
            // The page up to a tag with more attributes than any real one (see `CrowdedTags`).
            let length = CrowdedTags.firstOffset(in: raw) ?? raw.count
            return htmlReadMemory(
                base.assumingMemoryBound(to: CChar.self), Int32(length), pageURL, nil, options)
        }
        guard let document else { return [] }
        defer { xmlFreeDoc(document) }
        var found: [DiscoveredFeed] = []
        collect(xmlDocGetRootElement(document), base: URL(string: pageURL), depth: 0, into: &found)
        return found
    }

    private static func collect(
        _ node: xmlNodePtr?, base: URL?, depth: Int, into found: inout [DiscoveredFeed]
    ) {
        var current = node
        while let element = current, depth < 64 {
            defer { current = element.pointee.next }
            guard element.pointee.type == XML_ELEMENT_NODE, let rawName = element.pointee.name else {
                continue
            }
            let name = String(cString: rawName).lowercased()
            if name == "link",
                let rel = attribute(element, "rel")?.lowercased(),
                rel.split(separator: " ").contains("alternate"),
                let type = attribute(element, "type")?.lowercased(), feedTypes.contains(type),
                let href = attribute(element, "href"),
                let url = URL(string: href, relativeTo: base)?.absoluteString,
                !found.contains(where: { $0.url == url })
            {
                found.append(DiscoveredFeed(url: url, title: attribute(element, "title"), type: type))
            }
            if name != "body" || found.isEmpty {
                collect(element.pointee.children, base: base, depth: depth + 1, into: &found)
            }
        }
    }

    private static func attribute(_ node: xmlNodePtr, _ name: String) -> String? {
        guard let value = xmlGetProp(node, name) else { return nil }
        defer { cx_free(value) }
        let text = String(cString: value).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : TextSanitizer.singleLine(text)
    }
}
