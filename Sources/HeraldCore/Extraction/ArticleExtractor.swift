/// Finds the article in a web page: the block of the page where its prose is, without the
/// navigation, share bars, related links, comments, banners and footers around it.
///
/// The method, in three passes over the flat tree (`PageTree`):
/// 1. **Leave out** what is never the article: scripts, forms' controls, `nav`, `aside`,
///    `footer`, hidden elements, and elements whose class or id name boilerplate
///    (`ClassWords`) unless they hold most of the page's prose.
/// 2. **Score** (as Readability does): each paragraph of 25 characters or more gives its
///    parent a point, one per comma and one per 100 characters (up to 3), and its ancestors
///    a share; an ancestor starts from what its tag and names say. A container's score is
///    then cut by the share of its text that is links. The best container is the article,
///    with its siblings that score near it or read as prose.
/// 3. **Clean** inside it: lists, tables and boxes that are mostly links, have more images
///    or form fields than paragraphs, or little text, go; so do headings that are links.
public struct ArticleExtractor {
    let tree: PageTree
    var removed: [Bool]
    /// Per node, over its subtree (what is left out excluded): characters of text (Unicode
    /// scalars, spaces not counted), of text inside links, and commas.
    var chars: [Int32]
    var linkChars: [Int32]
    var commas: [Int32]
    /// Per element: a block element (not `br`) is inside it, what is left out excluded.
    var hasBlock: [Bool]
    var verdicts: [ClassWords.Verdict]
    /// Per element: the elements inside it (`countInside`).
    var inside: [Inside] = []
    /// Per text node: its characters and commas (`countText`).
    private var textCounts: [(Int32, Int32)] = []
    var scores: [Double]

    init(tree: PageTree) {
        self.tree = tree
        let count = tree.nodes.count
        removed = Array(repeating: false, count: count)
        chars = Array(repeating: 0, count: count)
        linkChars = Array(repeating: 0, count: count)
        commas = Array(repeating: 0, count: count)
        hasBlock = Array(repeating: false, count: count)
        verdicts = Array(repeating: ClassWords.Verdict(), count: count)
        scores = Array(repeating: .nan, count: count)
    }

    // MARK: 1. Leave out

    static func isNeverContent(_ tag: PageTag) -> Bool {
        switch tag {
        case .script, .style, .noscript, .template, .iframe, .svg, .math, .textarea, .select, .option, .button,
            .input, .nav, .aside, .footer, .head, .title, .meta, .link, .object, .embed, .canvas, .dialog, .video,
            .audio, .frameset, .noembed, .noframes, .applet, .label, .base, .source, .track, .param, .area:
            true
        default: false
        }
    }

    mutating func leaveOut() {
        var inLink = Array(repeating: false, count: tree.nodes.count)
        // Counts first, over the whole page, to tell a wrapper named `has-sidebar` from a sidebar.
        for i in 0..<tree.nodes.count {
            let node = tree.nodes[i]
            let parent = Int(node.parent)
            if parent >= 0 { inLink[i] = inLink[parent] }
            if node.tag == .a { inLink[i] = true }
            if node.tag != .text {
                if Self.isNeverContent(node.tag) || isHidden(i) { removed[i] = true }
                if let name = tree.attribute(.class, of: i) { ClassWords.judge(name, into: &verdicts[i]) }
                if let name = tree.attribute(.id, of: i) { ClassWords.judge(name, into: &verdicts[i]) }
            }
        }
        count(inLink: inLink)
        let pageChars = max(chars[0], 1)
        for i in 1..<tree.nodes.count {
            let parent = Int(tree.nodes[i].parent)
            if removed[parent] {
                removed[i] = true
                continue
            }
            let verdict = verdicts[i]
            let tag = tree.nodes[i].tag
            if verdict.boilerplate, !verdict.content, tag != .body, tag != .html, tag != .article, tag != .main,
                chars[i] * 2 < pageChars
            {
                removed[i] = true
            }
        }
        count(inLink: inLink)
    }

    private func isHidden(_ node: Int) -> Bool {
        if tree.attribute(.hidden, of: node) != nil { return true }
        if let hidden = tree.attribute(.ariaHidden, of: node), hidden.elementsEqual("true".utf8) { return true }
        if let style = tree.attribute(.style, of: node) {
            let compact = style.filter { $0 != 0x20 }.map(PageParser.lower)
            return compact.firstRange(of: Array("display:none".utf8)) != nil
                || compact.firstRange(of: Array("visibility:hidden".utf8)) != nil
        }
        return false
    }

    /// Adds up `chars`, `linkChars` and `commas` from the leaves, what is left out excluded.
    private mutating func count(inLink: [Bool]) {
        for i in 0..<chars.count {
            chars[i] = 0
            linkChars[i] = 0
            commas[i] = 0
            hasBlock[i] = false
        }
        if textCounts.isEmpty { countText() }
        var i = tree.nodes.count - 1
        while i > 0 {
            defer { i -= 1 }
            guard !removed[i] else { continue }
            let node = tree.nodes[i]
            if node.tag == .text {
                let (scalars, commaCount) = textCounts[i]
                chars[i] = scalars
                commas[i] = commaCount
                if inLink[i] { linkChars[i] = scalars }
            }
            let parent = Int(node.parent)
            chars[parent] += chars[i]
            linkChars[parent] += linkChars[i]
            commas[parent] += commas[i]
            if hasBlock[i] || (node.tag.isBlock && node.tag != .br) { hasBlock[parent] = true }
        }
    }

    /// Each text node's characters (spaces not counted) and commas, read once.
    private mutating func countText() {
        var counts = Array(repeating: (Int32(0), Int32(0)), count: tree.nodes.count)
        tree.text.withUnsafeBufferPointer { text in
            // Scripts' and styles' text (most of a page's bytes, often) is never counted.
            for (i, node) in tree.nodes.enumerated()
            where node.tag == .text && !Self.isNeverContent(tree.nodes[Int(node.parent)].tag) {
                var scalars: Int32 = 0
                var commaCount: Int32 = 0
                for byte in text[Int(node.start)..<Int(node.start + node.count)] {
                    if byte & 0xC0 != 0x80, byte != 0x20 { scalars += 1 }
                    if byte == 0x2C { commaCount += 1 }
                }
                counts[i] = (scalars, commaCount)
            }
        }
        textCounts = counts
    }

    func linkDensity(_ node: Int) -> Double {
        chars[node] == 0 ? 0 : Double(linkChars[node]) / Double(chars[node])
    }

    // MARK: 2. Score

    func baseScore(_ node: Int) -> Double {
        let weight: Double
        switch tree.nodes[node].tag {
        case .div, .article, .main, .section: weight = 5
        case .pre, .td, .blockquote: weight = 3
        case .address, .ol, .ul, .dl, .dd, .dt, .li, .form: weight = -3
        case .h1, .h2, .h3, .h4, .h5, .h6, .th: weight = -5
        default: weight = 0
        }
        return weight + classWeight(node)
    }

    func classWeight(_ node: Int) -> Double {
        let verdict = verdicts[node]
        var weight: Double = 0
        if verdict.content { weight += 25 }
        if verdict.boilerplate { weight -= 25 }
        if let property = tree.attribute(.itemprop, of: node), property.elementsEqual("articleBody".utf8) {
            weight += 50
        }
        return weight
    }

    /// A paragraph: a `p`, `pre`, `td` or `blockquote`, or a `div` whose own text is prose.
    func isParagraph(_ node: Int) -> Bool {
        switch tree.nodes[node].tag {
        case .p, .pre, .td, .blockquote: return true
        case .div, .section, .article, .other, .span, .font:
            // Prose without paragraphs (Readability turns such a `div` into a `p`).
            return !hasBlock[node]
                || tree.children(of: node).contains { tree.nodes[$0].tag == .text && chars[$0] >= 25 }
        default: return false
        }
    }

    mutating func score() -> Int? {
        countInside()
        var candidates: [Int] = []
        for i in 1..<tree.nodes.count where !removed[i] && tree.nodes[i].tag != .text {
            guard chars[i] >= 25, isParagraph(i) else { continue }
            let points = 1 + Double(commas[i]) + min(Double(chars[i] / 100), 3)
            var ancestor = Int(tree.nodes[i].parent)
            var level = 0
            // The document (node 0) too: a page may leave out `html` and `body`, as HTML lets
            // it, and its paragraphs then sit at the top.
            while ancestor >= 0, level < 5 {
                if scores[ancestor].isNaN {
                    scores[ancestor] = baseScore(ancestor)
                    candidates.append(ancestor)
                }
                let divider: Double = level == 0 ? 1 : level == 1 ? 2 : Double(level) * 3
                scores[ancestor] += points / divider
                ancestor = Int(tree.nodes[ancestor].parent)
                level += 1
            }
        }
        var best: Int?
        for candidate in candidates {
            scores[candidate] *= 1 - linkDensity(candidate)
            // A container of several `article`s is a list of stories, not one.
            let stories = Int(inside[candidate].articles)
            if stories >= 2 { scores[candidate] /= Double(stories) }
            if best.map({ scores[candidate] > scores[$0] }) ?? true { best = candidate }
        }
        // The story the page is about carries its title: when the best candidate is apart
        // from the page's first `h1`, the nearest candidate around that heading gains half
        // again (a page of one story and a list of others, each scoring like it).
        if let heading = (1..<tree.nodes.count).first(where: { tree.nodes[$0].tag == .h1 && !removed[$0] }),
            let leader = best, !isAncestor(leader, of: heading)
        {
            var ancestor = Int(tree.nodes[heading].parent)
            while ancestor > 0, scores[ancestor].isNaN { ancestor = Int(tree.nodes[ancestor].parent) }
            if ancestor > 0, tree.nodes[ancestor].tag != .body, !isAncestor(ancestor, of: leader) {
                scores[ancestor] *= 1.5
                if best.map({ scores[ancestor] > scores[$0] }) ?? true { best = ancestor }
            }
        }
        guard var top = best else { return nil }
        // A container of several good candidates is the article (the paragraphs were split
        // into sections), as is the parent of an only child.
        let topScore = scores[top]
        let close = candidates.filter { $0 != top && scores[$0] >= topScore * 0.75 }
        if close.count >= 2 {
            var ancestor = Int(tree.nodes[top].parent)
            while ancestor > 0 {
                let holds = close.filter { isAncestor(ancestor, of: $0) }.count
                if holds >= 2 {
                    top = ancestor
                    break
                }
                ancestor = Int(tree.nodes[ancestor].parent)
            }
        }
        var parent = Int(tree.nodes[top].parent)
        while parent > 0, tree.nodes[parent].tag != .body {
            let siblings = tree.children(of: parent).filter { !removed[$0] && chars[$0] > 0 }
            guard siblings.count == 1 else { break }
            top = parent
            parent = Int(tree.nodes[top].parent)
        }
        return top
    }

    func isAncestor(_ ancestor: Int, of node: Int) -> Bool {
        node > ancestor && node <= Int(tree.nodes[ancestor].end)
    }

    /// The article's top container and the siblings that belong with it.
    func withSiblings(_ top: Int) -> [Int] {
        let parent = Int(tree.nodes[top].parent)
        guard parent > 0 else { return [top] }
        let topScore = scores[top].isNaN ? 0 : scores[top]
        let threshold = max(10, topScore * 0.2)
        let topClass = tree.attribute(.class, of: top)
        var parts: [Int] = []
        for sibling in tree.children(of: parent) where !removed[sibling] {
            if sibling == top {
                parts.append(sibling)
                continue
            }
            guard tree.nodes[sibling].tag != .text else { continue }
            var score = scores[sibling].isNaN ? 0 : scores[sibling]
            if let topClass, !topClass.isEmpty, tree.attribute(.class, of: sibling) == topClass {
                score += topScore * 0.2
            }
            if score >= threshold {
                parts.append(sibling)
            } else if tree.nodes[sibling].tag == .p {
                let density = linkDensity(sibling)
                let length = chars[sibling]
                if (length > 80 && density < 0.25)
                    || (length > 0 && length <= 80 && density == 0 && endsSentence(sibling))
                {
                    parts.append(sibling)
                }
            }
        }
        return parts
    }

    private func endsSentence(_ node: Int) -> Bool {
        let text = tree.textContent(of: node)
        return text.hasSuffix(".") || text.contains(". ")
    }
}
