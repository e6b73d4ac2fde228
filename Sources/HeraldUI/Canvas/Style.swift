/// One of the terminal's basic colours, or its default.
public enum TerminalColor: UInt8, Sendable, Hashable, CaseIterable {
    case `default`, black, red, green, yellow, blue, magenta, cyan, white
}

/// How a cell is drawn: colours and attributes.
public struct Style: Sendable, Hashable {
    public var foreground: TerminalColor
    public var background: TerminalColor
    public var bold: Bool
    public var reverse: Bool
    public var underline: Bool
    public var dim: Bool
    /// Terminals without italics show the text plain.
    public var italic: Bool

    public init(
        foreground: TerminalColor = .default, background: TerminalColor = .default,
        bold: Bool = false, reverse: Bool = false, underline: Bool = false, dim: Bool = false,
        italic: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.reverse = reverse
        self.underline = underline
        self.dim = dim
        self.italic = italic
    }

    public static let plain = Style()
}
