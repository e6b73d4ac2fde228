import CLibXML2
public import Foundation

/// OPML 1.0 and 2.0 subscription lists: the format every feed reader imports and exports.
///
/// Nested outlines are folders; Herald keeps them as tags (an outline inside "Tech" inside
/// "Reading" is tagged `Reading` and `Tech`). A `category` attribute adds its tags too.
public enum OPML {
    /// Reads the feeds (outlines with an `xmlUrl`) of an OPML document. The XML is parsed
    /// with no entity substitution and no DTD or network loading.
    public static func parse(_ data: Data) throws(SubscriptionImportError) -> [Subscription] {
        try parseListed(data).map(\.subscription)
    }

    /// The feeds with the line of their outline.
    public static func parseListed(_ data: Data) throws(SubscriptionImportError) -> [ListedSubscription] {
        if data.withUnsafeBytes({ CrowdedTags.firstOffset(in: $0) }) != nil {
            throw SubscriptionImportError(
                "not an OPML file: an element has more than \(CrowdedTags.limit) attributes")
        }
        let document: xmlDocPtr? = data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count > 0 else { return nil }
            return xmlReadMemory(
                base.assumingMemoryBound(to: CChar.self), Int32(raw.count), nil, nil,
                Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue))
        }
        guard let document else {
            throw SubscriptionImportError("not an OPML file: the XML could not be read")
        }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document), name(of: root) == "opml" else {
            throw SubscriptionImportError("not an OPML file: the root element is not <opml>")
        }
        var found: [ListedSubscription] = []
        var node = root.pointee.children
        while let current = node {
            if name(of: current) == "body" { collect(current, tags: [], into: &found) }
            node = current.pointee.next
        }
        return found
    }

    private static func collect(_ parent: xmlNodePtr, tags: [String], into found: inout [ListedSubscription])
    {
        var node = parent.pointee.children
        while let current = node {
            defer { node = current.pointee.next }
            guard name(of: current) == "outline" else { continue }
            let title = attribute(current, "title") ?? attribute(current, "text")
            var ownTags = tags
            // Tags are cleaned like titles: a category is as much the file's text as a title.
            let categories = TextSanitizer.singleLine(attribute(current, "category") ?? "")
            for category in categories.split(separator: ",") {
                let tag = category.trimmingCharacters(in: CharacterSet(charactersIn: "/ "))
                if !tag.isEmpty, !ownTags.contains(tag) { ownTags.append(tag) }
            }
            if let url = attribute(current, "xmlUrl"), !url.isEmpty {
                // OPML requires `text`; an exporter with no title writes the address there.
                let subscription = Subscription(
                    url: url, title: title.map(TextSanitizer.singleLine).flatMap { $0 == url ? nil : $0 },
                    siteURL: attribute(current, "htmlUrl"),
                    tags: ownTags)
                found.append(ListedSubscription(subscription: subscription, line: Int(xmlGetLineNo(current))))
            } else if let folder = title.map(TextSanitizer.singleLine), !folder.isEmpty {
                collect(current, tags: ownTags.contains(folder) ? ownTags : ownTags + [folder], into: &found)
            } else {
                collect(current, tags: ownTags, into: &found)
            }
        }
    }

    /// An OPML 2.0 document of the subscriptions: a feed's first tag is its folder (an
    /// outline holding it, as other readers import folders), its other tags a `category`.
    /// A tag that a category cannot carry (a comma, which separates categories, or a `/` or
    /// space at an end, which a category trims) becomes a folder nested inside, so reading
    /// the file back gives every tag again.
    public static func export(_ subscriptions: [Subscription], title: String = "Herald subscriptions")
        -> String
    {
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<opml version=\"2.0\">",
            "  <head><title>\(escape(title))</title></head>",
            "  <body>",
        ]
        // Folders in the order their first feed comes; untagged feeds at the top level, in place.
        var folders: [String] = []
        var members: [String: [Subscription]] = [:]
        var order: [(folder: String?, subscription: Subscription?)] = []
        for subscription in subscriptions {
            guard let folder = subscription.tags.first else {
                order.append((nil, subscription))
                continue
            }
            if members[folder] == nil {
                folders.append(folder)
                order.append((folder, nil))
            }
            members[folder, default: []].append(subscription)
        }
        for entry in order {
            if let subscription = entry.subscription {
                lines += outline(subscription, tags: [], indent: 2)
            } else if let folder = entry.folder {
                lines.append("    <outline text=\"\(escape(folder))\">")
                for subscription in members[folder] ?? [] {
                    lines += outline(subscription, tags: Array(subscription.tags.dropFirst()), indent: 3)
                }
                lines.append("    </outline>")
            }
        }
        lines += ["  </body>", "</opml>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// A feed's outline, inside nested folders for the tags a category cannot carry.
    private static func outline(_ subscription: Subscription, tags: [String], indent: Int) -> [String] {
        let plain = tags.filter(fitsCategory)
        let nested = tags.filter { !fitsCategory($0) }
        var attributes = "type=\"rss\" text=\"\(escape(subscription.title ?? subscription.url))\""
        if let title = subscription.title { attributes += " title=\"\(escape(title))\"" }
        attributes += " xmlUrl=\"\(escape(subscription.url))\""
        if let site = subscription.siteURL { attributes += " htmlUrl=\"\(escape(site))\"" }
        if !plain.isEmpty { attributes += " category=\"\(escape(plain.joined(separator: ",")))\"" }
        var lines: [String] = []
        for (depth, tag) in nested.enumerated() {
            lines.append(String(repeating: "  ", count: indent + depth) + "<outline text=\"\(escape(tag))\">")
        }
        lines.append(String(repeating: "  ", count: indent + nested.count) + "<outline \(attributes)/>")
        for depth in nested.indices.reversed() {
            lines.append(String(repeating: "  ", count: indent + depth) + "</outline>")
        }
        return lines
    }

    /// Whether a tag survives a `category` attribute unchanged.
    private static func fitsCategory(_ tag: String) -> Bool {
        let trimmed = tag.trimmingCharacters(in: CharacterSet(charactersIn: "/ "))
        return !tag.contains(",") && trimmed == tag && !tag.isEmpty
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in TextSanitizer.singleLine(text).unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func name(of node: xmlNodePtr) -> String? {
        guard node.pointee.type == XML_ELEMENT_NODE, let name = node.pointee.name else { return nil }
        return String(cString: name)
    }

    private static func attribute(_ node: xmlNodePtr, _ name: String) -> String? {
        guard let value = xmlGetProp(node, name) else { return nil }
        defer { cx_free(value) }
        let text = String(cString: value).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}
