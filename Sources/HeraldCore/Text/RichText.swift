/// An article body as Herald draws it: blocks of styled runs, and the links it points to.
///
/// It carries no widths: `RichLayout` wraps it to whatever width the terminal has, so a
/// resize rewraps. `plainText` is the same body without styles (what search indexes and
/// `herald list` prints).
public struct RichText: Sendable, Hashable {
    public var blocks: [RichBlock]
    /// Absolute link targets; `[1]` in the text is `links[0]`.
    public var links: [String]

    public init(blocks: [RichBlock] = [], links: [String] = []) {
        self.blocks = blocks
        self.links = links
    }

    /// Blocks separated by blank lines, each line with its block's prefix; then the links,
    /// numbered, under `Links:`.
    public var plainText: String {
        var text = blocks.map(\.plainText).joined(separator: "\n\n")
        if !links.isEmpty {
            text += "\n\nLinks:\n" + links.enumerated().map { "[\($0.offset + 1)] \($0.element)" }.joined(separator: "\n")
        }
        return text
    }
}

/// A paragraph-like unit: a run of inline text laid out under one prefix.
public struct RichBlock: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// Text that wraps at spaces.
        case paragraph
        /// `h1`…`h6`.
        case heading(level: Int)
        /// `pre`: spaces and line breaks kept; long lines are cut at the edge, not at spaces.
        case preformatted
        /// `hr`: a line across the width.
        case rule
    }

    public var kind: Kind
    /// Written before the first line (`> `, `  - `, `3. `).
    public var lead: String
    /// Written before every later line, so wrapped list items and quotes stay aligned.
    public var indent: String
    /// Inside a blockquote.
    public var quoted: Bool
    /// The text; a `\n` inside a run is a hard line break.
    public var runs: [RichRun]
    /// Drawn right under the block before it, without a blank line (a list item after
    /// another item of its list).
    public var tight = false

    public init(kind: Kind, lead: String = "", indent: String = "", quoted: Bool = false, runs: [RichRun]) {
        self.kind = kind
        self.lead = lead
        self.indent = indent
        self.quoted = quoted
        self.runs = runs
    }

    /// The block's text without styles, its prefixes included.
    public var plainText: String {
        if kind == .rule { return lead + String(repeating: "─", count: 8) }
        let body = runs.count == 1 ? runs[0].text : runs.map(\.text).joined()
        // Every line after a break gets the indent (on bytes: this runs for every article
        // a reload stores).
        guard !indent.isEmpty, body.utf8.contains(0x0A) else { return lead + body }
        var bytes: [UInt8] = Array(lead.utf8)
        bytes.reserveCapacity(bytes.count + body.utf8.count)
        for byte in body.utf8 {
            bytes.append(byte)
            if byte == 0x0A { bytes += indent.utf8 }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Text with one inline style.
public struct RichRun: Sendable, Hashable {
    public var text: String
    public var style: InlineStyle

    public init(_ text: String, _ style: InlineStyle = []) {
        self.text = text
        self.style = style
    }
}

/// Inline styles; they combine (`<b><i>` is both).
public struct InlineStyle: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `b`, `strong`.
    public static let strong = InlineStyle(rawValue: 1 << 0)
    /// `i`, `em`, `cite`.
    public static let emphasis = InlineStyle(rawValue: 1 << 1)
    /// `code`, `kbd`, `samp`, `tt`, and `pre` bodies.
    public static let code = InlineStyle(rawValue: 1 << 2)
    /// The text of a link.
    public static let link = InlineStyle(rawValue: 1 << 3)
    /// A link's number, `[3]`.
    public static let linkNumber = InlineStyle(rawValue: 1 << 4)
    /// `[image: alt]`.
    public static let image = InlineStyle(rawValue: 1 << 5)
    /// `u`, `ins`.
    public static let underline = InlineStyle(rawValue: 1 << 6)
    /// `s`, `del`, `strike`: drawn dim (terminals rarely have strike-through).
    public static let struck = InlineStyle(rawValue: 1 << 7)
}
