/// Step 3 of `ArticleExtractor`: inside the article's parts, the boxes that are not prose go.
extension ArticleExtractor {
    // MARK: 3. Clean

    /// Leaves out, inside the article, the boxes that are not prose.
    mutating func clean(_ parts: [Int]) {
        for part in parts {
            var i = part
            let end = Int(tree.nodes[part].end)
            while i <= end {
                let node = tree.nodes[i]
                if node.tag == .text {
                    i += 1
                } else if removed[i] || shouldDrop(i, in: part) {
                    removed[i] = true
                    i = Int(node.end) + 1
                } else {
                    i += 1
                }
            }
        }
    }

    /// The share of a short paragraph or item that is link text past which it is a link.
    static let linkLine = 0.8

    /// Elements inside a node (itself excluded), counted once for all nodes so that no
    /// question about a subtree walks it: a million nested elements cost one pass, not one
    /// per ancestor.
    struct Inside {
        var paragraphs: Int32 = 0
        var images: Int32 = 0
        var items: Int32 = 0
        var inputs: Int32 = 0
        var embeds: Int32 = 0
        var links: Int32 = 0
        /// `article` elements with 100 characters of text or more.
        var articles: Int32 = 0
    }

    mutating func countInside() {
        var inside = Array(repeating: Inside(), count: tree.nodes.count)
        var i = tree.nodes.count - 1
        while i > 0 {
            defer { i -= 1 }
            let node = tree.nodes[i]
            guard node.tag != .text else { continue }
            var mine = inside[i]
            switch node.tag {
            case .p: if !removed[i] { mine.paragraphs += 1 }
            case .img: mine.images += 1
            case .li: mine.items += 1
            case .input, .select, .textarea, .button: mine.inputs += 1
            case .iframe, .object, .embed, .video: mine.embeds += 1
            case .a: mine.links += 1
            case .article: if !removed[i], chars[i] >= 100 { mine.articles += 1 }
            default: break
            }
            let parent = Int(node.parent)
            inside[parent].paragraphs += mine.paragraphs
            inside[parent].images += mine.images
            inside[parent].items += mine.items
            inside[parent].inputs += mine.inputs
            inside[parent].embeds += mine.embeds
            inside[parent].links += mine.links
            inside[parent].articles += mine.articles
        }
        self.inside = inside
    }

    private func shouldDrop(_ node: Int, in part: Int) -> Bool {
        let tag = tree.nodes[node].tag
        if tag == .h1 { return true }
        if tag.isHeading { return linkDensity(node) > 0.33 || classWeight(node) < 0 }
        // A line that is all link is a pointer elsewhere ("Read more", a related story).
        if tag == .p || tag == .li, chars[node] < 200, linkDensity(node) >= Self.linkLine { return true }
        // Links bunched inside a sentence are a card (a person's other stories), not prose.
        if tag == .span, linkDensity(node) >= 0.9, inside[node].links >= 3 { return true }
        // Captions and credits describe a picture the terminal does not show; the image's
        // own line (`[image: alt]`) stays.
        if tag == .figcaption || tag == .caption { return true }
        switch tag {
        case .form, .table, .ul, .ol, .div, .section, .header, .figure, .dl, .other:
            break
        default:
            return false
        }
        // What holds most of the article is the article.
        guard node != part, chars[node] * 2 < chars[part] else { return false }
        let weight = classWeight(node)
        let score = scores[node].isNaN ? 0 : scores[node]
        if weight + score < 0 { return true }
        guard commas[node] < 10 else { return false }
        let counts = inside[node]
        let (paragraphs, images, inputs, embeds) =
            (Int(counts.paragraphs), Int(counts.images), Int(counts.inputs), Int(counts.embeds))
        let items = Int(counts.items) - 100
        let isList = tag == .ul || tag == .ol
        let length = chars[node]
        let density = linkDensity(node)
        if images > 1, Double(paragraphs) / Double(images) < 0.5, tag != .figure { return true }
        if !isList, items > paragraphs { return true }
        if inputs > paragraphs / 3 { return true }
        if !isList, length < 25, images == 0 || images > 2 { return true }
        if !isList, weight < 25, density > 0.2, tag != .figure { return true }
        if weight >= 25, density > 0.5 { return true }
        if (embeds == 1 && length < 75) || embeds > 1 { return true }
        if isList, density > 0.5, length < 1000 { return true }
        return false
    }
}
